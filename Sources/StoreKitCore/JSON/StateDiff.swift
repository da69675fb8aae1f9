/// The structural difference between two JSON values, such as a recorded and a replayed state.
///
/// Objects are compared member by member; arrays element by element after trimming their common prefix and
/// suffix, so one insertion or removal anywhere is one change, and the work stays linear in the size of the
/// values. Each change carries its path (`todos[0].isComplete`). Values compare as JSON does (see ``JSONValue``):
/// strings by code points, numbers by exact value.
///
/// A dictionary whose keys are not strings is JSON's array of alternating keys and values; told where those are
/// (``KeyedPairArrays``, which the canonical encoder notes), the diff compares them as maps, pair by pair, with
/// paths such as `counts[key: "3F2504E0-4F89-11D3-9A0C-0305E82C3301"]`.
///
/// ```swift
/// let diff = StateDiff(from: recorded, to: replayed)
/// print(diff.rendered())   // the -/+ dump
/// print(diff.summary)      // 1 difference: todos[2].isComplete  true -> false
/// ```
public struct StateDiff: Sendable, Equatable {
    /// One difference.
    public struct Change: Sendable, Equatable {
        /// What happened at the path.
        public enum Kind: Sendable, Equatable {
            /// The value at the path changed (scalars, or values of different types).
            case changed(from: JSONValue, to: JSONValue)
            /// The value exists only in the new value.
            case added(JSONValue)
            /// The value exists only in the old value.
            case removed(JSONValue)
        }

        /// Where.
        public var path: JSONPath
        /// What.
        public var kind: Kind

        /// Creates a change.
        public init(path: JSONPath, kind: Kind) {
            self.path = path
            self.kind = kind
        }
    }

    /// The old value (for a replay: the recorded state).
    public let old: JSONValue
    /// The new value (for a replay: the replayed state).
    public let new: JSONValue
    /// Every difference, in document order (object keys sorted, a map's pairs by their keys' canonical bytes).
    public let changes: [Change]
    /// Where the values hold dictionaries written as keyed pairs, compared as maps.
    public let keyedPairArrays: KeyedPairArrays

    /// Compares `old` with `new`.
    /// - Parameters:
    ///   - keyedPairArrays: Where both values hold dictionaries written as alternating keys and values, which are
    ///     compared as maps; none unless told.
    public init(from old: JSONValue, to new: JSONValue, keyedPairArrays: KeyedPairArrays = KeyedPairArrays()) {
        self.old = old
        self.new = new
        self.keyedPairArrays = keyedPairArrays
        var changes: [Change] = []
        Collector(keyedPairArrays: keyedPairArrays).collect(old, new, path: JSONPath(), into: &changes)
        self.changes = changes
    }

    /// A difference computed before (and read back from its JSON form), so that it is not computed again.
    package init(old: JSONValue, new: JSONValue, changes: [Change], keyedPairArrays: KeyedPairArrays) {
        self.old = old
        self.new = new
        self.changes = changes
        self.keyedPairArrays = keyedPairArrays
    }

    /// True when the values are equal.
    public var isEmpty: Bool { changes.isEmpty }

    /// The keys of either object, each once, in canonical (UTF-8) order.
    package static func sortedKeys(of old: [String: JSONValue], and new: [String: JSONValue]) -> [String] {
        var keys = Array(old.keys)
        keys += new.keys.filter { member($0, of: old) == nil }
        return keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The member named exactly `key` (by code points): a `Dictionary` lookup alone would also find a key that
    /// is only canonically equivalent, such as `"é"` precomposed for `"e\u{301}"`.
    package static func member(_ key: String, of members: [String: JSONValue]) -> JSONValue? {
        guard let index = members.index(forKey: key), JSONValue.sameCodePoints(members[index].key, key) else {
            return nil
        }
        return members[index].value
    }

    /// The pairs of a keyed-pair array, in its (canonical) order; `nil` when it cannot be one (an odd count).
    package static func keyedPairs(_ elements: [JSONValue]) -> [(key: JSONValue, value: JSONValue)]? {
        guard elements.count % 2 == 0 else { return nil }
        return stride(from: 0, to: elements.count, by: 2).map { (key: elements[$0], value: elements[$0 + 1]) }
    }

    /// The keys of two maps' pairs, each once, in canonical order (by their canonical bytes).
    package static func sortedKeys(
        of old: [(key: JSONValue, value: JSONValue)], and new: [(key: JSONValue, value: JSONValue)]
    ) -> [JSONValue] {
        var seen = Set<JSONValue>()
        let keys = (old + new).map(\.key).filter { seen.insert($0).inserted }
        return keys.map { ($0, $0.canonicalBytes()) }.sorted { $0.1.lexicographicallyPrecedes($1.1) }.map(\.0)
    }
}

/// Walks two values and collects their differences.
private struct Collector {
    typealias Change = StateDiff.Change

    let keyedPairArrays: KeyedPairArrays

    /// Whether the arrays at `path` are keyed pairs, by the generalised form of `path`.
    private func holdsKeyedPairs(_ path: JSONPath) -> Bool {
        guard !keyedPairArrays.isEmpty else { return false }
        let generalised = path.components.map { component -> KeyedPairArrays.Step in
            switch component {
            case .key(let key): .member(key)
            case .index, .identified: .element
            case .mapKey: .pairValue
            }
        }
        return keyedPairArrays.paths.contains(generalised)
    }

    func collect(_ old: JSONValue, _ new: JSONValue, path: JSONPath, into changes: inout [Change]) {
        switch (old, new) {
        case (.object(let oldMembers), .object(let newMembers)):
            if oldMembers == newMembers { return }
            // Equal members are passed over before their paths are made: most members of a changed object are.
            for key in StateDiff.sortedKeys(of: oldMembers, and: newMembers) {
                switch (StateDiff.member(key, of: oldMembers), StateDiff.member(key, of: newMembers)) {
                case (let before?, let after?) where before != after:
                    collect(before, after, path: path.appending(.key(key)), into: &changes)
                case (let before?, nil): changes.append(Change(path: path.appending(.key(key)), kind: .removed(before)))
                case (nil, let after?): changes.append(Change(path: path.appending(.key(key)), kind: .added(after)))
                default: break
                }
            }
        case (.array(let oldElements), .array(let newElements))
        where oldElements != newElements && holdsKeyedPairs(path):
            guard let oldPairs = StateDiff.keyedPairs(oldElements), let newPairs = StateDiff.keyedPairs(newElements)
            else { fallthrough }
            let oldMap = Dictionary(oldPairs, uniquingKeysWith: { first, _ in first })
            let newMap = Dictionary(newPairs, uniquingKeysWith: { first, _ in first })
            for key in StateDiff.sortedKeys(of: oldPairs, and: newPairs) {
                let keyPath = path.appending(.mapKey(key))
                switch (oldMap[key], newMap[key]) {
                case (let before?, let after?) where before != after: collect(before, after, path: keyPath, into: &changes)
                case (let before?, nil): changes.append(Change(path: keyPath, kind: .removed(before)))
                case (nil, let after?): changes.append(Change(path: keyPath, kind: .added(after)))
                default: break
                }
            }
        case (.array(let oldElements), .array(let newElements)):
            let alignment = ArrayAlignment(oldElements, newElements)
            for (offset, pair) in alignment.middlePairs.enumerated() where pair.0 != pair.1 {
                collect(pair.0, pair.1, path: path.appending(.index(alignment.prefix + offset)), into: &changes)
            }
            let firstExtra = alignment.prefix + alignment.middlePairs.count
            for (offset, element) in alignment.removed.enumerated() {
                changes.append(Change(path: path.appending(.index(firstExtra + offset)), kind: .removed(element)))
            }
            for (offset, element) in alignment.added.enumerated() {
                changes.append(Change(path: path.appending(.index(firstExtra + offset)), kind: .added(element)))
            }
        default:
            if old != new { changes.append(Change(path: path, kind: .changed(from: old, to: new))) }
        }
    }
}

/// How two arrays line up: a common prefix and suffix, and a middle compared pairwise with extras at its end.
package struct ArrayAlignment {
    /// How many leading elements are equal.
    package let prefix: Int
    /// How many trailing elements (after the prefix) are equal.
    package let suffix: Int
    /// Middle elements compared by position.
    package let middlePairs: [(JSONValue, JSONValue)]
    /// Middle elements only the old array has.
    package let removed: ArraySlice<JSONValue>
    /// Middle elements only the new array has.
    package let added: ArraySlice<JSONValue>

    package init(_ old: [JSONValue], _ new: [JSONValue]) {
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix,
            old[old.count - 1 - suffix] == new[new.count - 1 - suffix]
        {
            suffix += 1
        }
        let oldMiddle = old[prefix..<(old.count - suffix)]
        let newMiddle = new[prefix..<(new.count - suffix)]
        let paired = min(oldMiddle.count, newMiddle.count)
        self.prefix = prefix
        self.suffix = suffix
        self.middlePairs = Array(zip(oldMiddle.prefix(paired), newMiddle.prefix(paired)))
        self.removed = oldMiddle.dropFirst(paired)
        self.added = newMiddle.dropFirst(paired)
    }
}
