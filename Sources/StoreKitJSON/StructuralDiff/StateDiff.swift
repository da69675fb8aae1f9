/// The structural difference between two JSON values, such as a recorded and a replayed state.
///
/// Objects are compared member by member; arrays element by element after trimming their common prefix and
/// suffix, so one insertion or removal anywhere is one change, and the work stays linear in the size of the
/// values. Each change carries its path (`todos[0].isComplete`). Values compare as JSON does (see ``JSONValue``):
/// strings by code points, numbers by exact value.
///
/// An array whose elements are all objects with a scalar `id` member (a string or an integer), unique within each
/// of the two arrays, holds identified elements (`Identifiable` values): its elements are matched by id, not by
/// position. An element only the old array has is ``Change/Kind/removed(_:)`` at `syncUps[id: 3]`, one only the
/// new array has ``Change/Kind/added(_:)``, an element whose value changed is compared below `syncUps[id: 3]`
/// (`syncUps[id: 3].title`), and a reorder is the fewest ``Change/Kind/moved(from:to:)``: the elements of the
/// longest run that kept its order stay, every other one moved. Reversing two elements is one move, not a change
/// at every index. Arrays without ids keep the positional comparison.
///
/// The member that identifies an array's elements is `id` unless the type notes name another for that array
/// (``EncodedTypeNotes/identityKeys``: ReSwift's todos are identified by `toDoID`); the path still names such an
/// element `todos[id: 3]`, by its identity. An array whose elements do not all hold that member as a scalar, unique
/// within each array, is compared by position: no other member is ever guessed at.
///
/// A dictionary whose keys are not strings is JSON's array of alternating keys and values; told where those are
/// (``EncodedTypeNotes``, which the canonical encoder takes), the diff compares them as maps, pair by pair, with
/// paths such as `counts[key: "3F2504E0-4F89-11D3-9A0C-0305E82C3301"]`.
///
/// A `Set` is JSON's array of its elements, sorted; told where those are, the diff compares them as sets: a member
/// only the old set has is ``Change/Kind/removed(_:)`` and one only the new set has ``Change/Kind/added(_:)``, each
/// named by its value (`tags[member: "synced"]`), never by an index that shifts as the sorted members do. A set of
/// identified elements is matched by id as an array is, without moves (a set has no order). An array with two equal
/// elements is no set's and keeps the comparison by position.
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
            /// The identified element at the path moved from index `from` of the old array to index `to` of the
            /// new one (indices of the whole arrays); a change of its value is reported below the same path.
            case moved(from: Int, to: Int)
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
    /// Every difference, in document order (object keys sorted, a map's pairs by their keys' canonical bytes; in an
    /// array of identified elements, the removed elements first, then the new array's elements in order).
    public let changes: [Change]
    /// Where the values hold dictionaries written as keyed pairs, compared as maps.
    public let typeNotes: EncodedTypeNotes

    /// Compares `old` with `new`.
    /// - Parameters:
    ///   - typeNotes: Where both values hold dictionaries written as alternating keys and values, which are
    ///     compared as maps, and durations, each compared as one value (and dates, which renderings show as
    ///     such), and which member identifies the elements of which arrays; none unless told.
    ///   - matchingElementsByID: Whether arrays of identified elements are compared by id (the default); `false`
    ///     compares every array by position, so that every change's path is a JSON Pointer (as a patch needs).
    public init(
        from old: JSONValue, to new: JSONValue, typeNotes: EncodedTypeNotes = EncodedTypeNotes(),
        matchingElementsByID: Bool = true
    ) {
        self.old = old
        self.new = new
        self.typeNotes = typeNotes
        var changes: [Change] = []
        Collector(typeNotes: typeNotes, matchesElementsByID: matchingElementsByID)
            .collect(old, new, path: JSONPath(), into: &changes)
        self.changes = changes
    }

    /// A difference computed before (and read back from its JSON form), so that it is not computed again.
    package init(old: JSONValue, new: JSONValue, changes: [Change], typeNotes: EncodedTypeNotes) {
        self.old = old
        self.new = new
        self.changes = changes
        self.typeNotes = typeNotes
    }

    /// True when the values are equal.
    public var isEmpty: Bool { changes.isEmpty }

    /// Whether `old` and `new` are two cases of an enum as `Codable` writes them (`{"ready":{}}` and
    /// `{"countingIn":{"beatsLeft":4}}`): each an object of one member whose value is an object, named differently.
    /// Such a change is one ``Change/Kind/changed(from:to:)`` at the enum's path.
    package static func isCaseChange(_ old: JSONValue, _ new: JSONValue) -> Bool {
        guard case .object(let oldMembers) = old, case .object(let newMembers) = new,
            oldMembers.count == 1, newMembers.count == 1,
            let (oldCase, oldPayload) = oldMembers.first, let (newCase, newPayload) = newMembers.first,
            case .object = oldPayload, case .object = newPayload
        else { return false }
        return oldCase != newCase
    }

    /// The keys of either object, each once, in canonical (UTF-8) order.
    package static func sortedKeys(of old: [String: JSONValue], and new: [String: JSONValue]) -> [String] {
        var keys = Array(old.keys)
        keys += new.keys.filter { old.index(forExactKey: $0) == nil }
        return keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The pairs of a keyed-pair array, in its (canonical) order; `nil` when it cannot be one (an odd count).
    package static func keyedPairs(_ elements: [JSONValue]) -> [(key: JSONValue, value: JSONValue)]? {
        guard elements.count % 2 == 0 else { return nil }
        return stride(from: 0, to: elements.count, by: 2).map { (key: elements[$0], value: elements[$0 + 1]) }
    }

    /// The members of an array written for a set; `nil` when it cannot be one (two elements are equal).
    package static func setMembers(_ elements: [JSONValue]) -> Set<JSONValue>? {
        let members = Set(elements)
        return members.count == elements.count ? members : nil
    }

    /// The keys of two maps' pairs, each once, in canonical order (by their canonical bytes).
    package static func sortedKeys(
        of old: [(key: JSONValue, value: JSONValue)], and new: [(key: JSONValue, value: JSONValue)]
    ) -> [JSONValue] {
        sortedUnion(of: old.map(\.key), and: new.map(\.key))
    }

    /// The values of either array, each once, in canonical order (by their canonical bytes).
    package static func sortedUnion(of old: [JSONValue], and new: [JSONValue]) -> [JSONValue] {
        var seen = Set<JSONValue>()
        let values = (old + new).filter { seen.insert($0).inserted }
        return values.map { ($0, $0.canonicalBytes()) }.sorted { $0.1.lexicographicallyPrecedes($1.1) }.map(\.0)
    }
}

/// Walks two values and collects their differences.
private struct Collector {
    typealias Change = StateDiff.Change

    let typeNotes: EncodedTypeNotes
    let matchesElementsByID: Bool

    func collect(_ old: JSONValue, _ new: JSONValue, path: JSONPath, into changes: inout [Change]) {
        switch (old, new) {
        case (.array, .array) where old != new && typeNotes.holds(.durations, at: path):
            // A duration's `[high, low]` is one value.
            changes.append(Change(path: path, kind: .changed(from: old, to: new)))
        case (.object, .object) where StateDiff.isCaseChange(old, new):
            // An enum that changed case is one change, not a case removed and another added.
            changes.append(Change(path: path, kind: .changed(from: old, to: new)))
        case (.object(let oldMembers), .object(let newMembers)):
            // `Dictionary`'s `==` would call keys equal by canonical equivalence; JSON's compares code points.
            if old == new { return }
            // Equal members are passed over before their paths are made: most members of a changed object are.
            for key in StateDiff.sortedKeys(of: oldMembers, and: newMembers) {
                switch (oldMembers[exactKey: key], newMembers[exactKey: key]) {
                case (let before?, let after?) where before != after:
                    collect(before, after, path: path.appending(.key(key)), into: &changes)
                case (let before?, nil): changes.append(Change(path: path.appending(.key(key)), kind: .removed(before)))
                case (nil, let after?): changes.append(Change(path: path.appending(.key(key)), kind: .added(after)))
                default: break
                }
            }
        case (.array(let oldElements), .array(let newElements))
        where oldElements != newElements && typeNotes.holds(.keyedPairArrays, at: path):
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
        case (.array(let oldElements), .array(let newElements))
        where oldElements != newElements && typeNotes.holds(.sets, at: path):
            if matchesElementsByID,
                let matching = IdentifiedMatching(oldElements, newElements, key: typeNotes.identityKey(at: path))
            {
                collect(matching, path: path, reportsMoves: false, into: &changes)
                return
            }
            guard let oldMembers = StateDiff.setMembers(oldElements), let newMembers = StateDiff.setMembers(newElements)
            else { fallthrough }
            for member in oldElements where !newMembers.contains(member) {
                changes.append(Change(path: path.appending(.setMember(member)), kind: .removed(member)))
            }
            for member in newElements where !oldMembers.contains(member) {
                changes.append(Change(path: path.appending(.setMember(member)), kind: .added(member)))
            }
        case (.array(let oldElements), .array(let newElements)):
            if matchesElementsByID, oldElements != newElements,
                let matching = IdentifiedMatching(oldElements, newElements, key: typeNotes.identityKey(at: path))
            {
                collect(matching, path: path, into: &changes)
                return
            }
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

extension Collector {
    /// The changes of two arrays of identified elements: removals (in the old order), then the new array's
    /// elements in order, each added, or moved (unless `reportsMoves` is false, for a set) and compared, under
    /// `[id: …]`.
    fileprivate func collect(
        _ matching: IdentifiedMatching, path: JSONPath, reportsMoves: Bool = true, into changes: inout [Change]
    ) {
        for removed in matching.removed {
            changes.append(Change(path: path.appending(.identified(removed.id)), kind: .removed(removed.element)))
        }
        for element in matching.newOrder {
            guard let old = element.old else {
                changes.append(Change(path: path.appending(.identified(element.id)), kind: .added(element.new)))
                continue
            }
            let moved = element.moved && reportsMoves
            let changed = old.element != element.new
            // Most elements neither moved nor changed: their paths are never made.
            guard moved || changed else { continue }
            let elementPath = path.appending(.identified(element.id))
            if moved { changes.append(Change(path: elementPath, kind: .moved(from: old.index, to: element.index))) }
            if changed { collect(old.element, element.new, path: elementPath, into: &changes) }
        }
    }
}

/// How two arrays of identified elements match up by id: what was removed, and the new array's elements with the
/// old element of the same id, if any, and whether it moved.
package struct IdentifiedMatching {
    /// An element of the new array.
    package struct NewElement {
        /// Its id.
        package let id: JSONValue
        /// Its index in the new array.
        package let index: Int
        /// Its value.
        package let new: JSONValue
        /// The old element of the same id and its index in the old array; `nil` when it was added.
        package let old: (index: Int, element: JSONValue)?
        /// Whether it moved: it is not among the longest run of common elements that kept their order.
        package let moved: Bool
    }

    /// The old elements whose ids the new array lacks, in the old order.
    package let removed: [(id: JSONValue, index: Int, element: JSONValue)]
    /// Every element of the new array, in order.
    package let newOrder: [NewElement]

    /// Matches `old` with `new` by the member `key` (`id` unless told); `nil` unless both hold elements identified
    /// by it (see ``StateDiff``) and at least one is not empty.
    package init?(_ old: [JSONValue], _ new: [JSONValue], key: String = "id") {
        guard !(old.isEmpty && new.isEmpty), let oldIDs = Self.ids(of: old, key: key),
            let newIDs = Self.ids(of: new, key: key)
        else { return nil }
        if oldIDs == newIDs {
            // The same ids in the same order (the usual case: elements changed in place): nothing was added, removed
            // or moved, and the new ids are as distinct as the old.
            guard Self.areDistinct(oldIDs) else { return nil }
            removed = []
            newOrder = newIDs.indices.map { index in
                NewElement(
                    id: newIDs[index], index: index, new: new[index], old: (index: index, element: old[index]),
                    moved: false)
            }
            return
        }
        guard let oldIndex = Self.index(of: oldIDs), let newIndex = Self.index(of: newIDs) else { return nil }
        removed = oldIDs.enumerated().filter { newIndex[$0.element] == nil }.map {
            (id: $0.element, index: $0.offset, element: old[$0.offset])
        }
        let oldIndices = newIDs.map { oldIndex[$0] }
        // The common elements in the new order, by their old indices: those on a longest increasing run stay.
        let common = oldIndices.enumerated().compactMap { index, oldAt in oldAt.map { (old: $0, new: index) } }
        let staying = Self.staying(common, oldCount: old.count)
        newOrder = newIDs.enumerated().map { index, id in
            let oldAt = oldIndices[index]
            return NewElement(
                id: id, index: index, new: new[index], old: oldAt.map { (index: $0, element: old[$0]) },
                moved: oldAt.map { !staying.contains($0) } ?? false)
        }
    }

    /// The elements' ids, in order, when every element is an object with a string or integer member `key`; else
    /// `nil`.
    private static func ids(of elements: [JSONValue], key: String) -> [JSONValue]? {
        var ids: [JSONValue] = []
        ids.reserveCapacity(elements.count)
        for element in elements {
            guard case .object(let members) = element, let id = members[exactKey: key] else { return nil }
            switch id {
            case .string, .integer, .unsignedInteger, .bigInteger: ids.append(id)
            default: return nil
            }
        }
        return ids
    }

    /// Whether no two ids are equal: seen at once when they are integers in increasing order, as ids often are;
    /// otherwise by hashing them.
    private static func areDistinct(_ ids: [JSONValue]) -> Bool {
        var previous: Int64?
        for id in ids {
            guard case .integer(let value) = id, previous.map({ $0 < value }) ?? true else {
                return index(of: ids) != nil
            }
            previous = value
        }
        return true
    }

    /// Each id's index, or `nil` when two are equal (the elements are then not identified).
    private static func index(of ids: [JSONValue]) -> [JSONValue: Int]? {
        var index: [JSONValue: Int] = [:]
        index.reserveCapacity(ids.count)
        for (position, id) in ids.enumerated() where index.updateValue(position, forKey: id) != nil { return nil }
        return index
    }

    /// The old indices of the common elements that stay where they were: a longest run of them that kept its
    /// order (a longest increasing subsequence of their old indices, in the new order), and of those runs one that
    /// keeps the most elements at their own index, so that reversing three elements moves the two ends around
    /// the middle one. O(n log n), with a Fenwick tree of the best run ending below each old index.
    private static func staying(_ common: [(old: Int, new: Int)], oldCount: Int) -> Set<Int> {
        /// A run of common elements in increasing old order: how long, how many kept their index, where it ends.
        struct Run {
            var length = 0
            var inPlace = 0
            var end = -1

            /// Longer, then with more elements in place, then ending later: of two runs equally good, an element
            /// brought forward is the one that moved.
            func isBetter(than other: Run) -> Bool {
                (length, inPlace, end) > (other.length, other.inPlace, other.end)
            }
        }
        var bestBelow = [Run](repeating: Run(), count: oldCount + 1)
        var previous = [Int](repeating: -1, count: common.count)
        var best = Run()
        for (position, element) in common.enumerated() {
            var before = Run()
            var node = element.old
            while node > 0 {
                if bestBelow[node].isBetter(than: before) { before = bestBelow[node] }
                node -= node & -node
            }
            let run = Run(
                length: before.length + 1, inPlace: before.inPlace + (element.old == element.new ? 1 : 0), end: position)
            previous[position] = before.end
            node = element.old + 1
            while node <= oldCount {
                if run.isBetter(than: bestBelow[node]) { bestBelow[node] = run }
                node += node & -node
            }
            if run.isBetter(than: best) { best = run }
        }
        var stays = Set<Int>()
        var position = best.end
        while position >= 0 {
            stays.insert(common[position].old)
            position = previous[position]
        }
        return stays
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

    /// Aligns `old` with `new`: their equal prefix and suffix, and what lies between them.
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
