import StoreKitCore
import StoreKitJSON

extension JSONPathPattern {
    /// `target` with the values at this pattern's places taken from `source`, and where they differed.
    public struct Overlay: Sendable, Equatable {
        /// The target after the copy.
        public var value: JSONValue
        /// The places whose values differed between source and target and were copied (inserted or removed where
        /// one side lacked the member), in document order.
        public var differences: [JSONPath]
    }

    /// Copies the values this pattern names from `source` into `target`.
    ///
    /// A place counts when both documents hold its parent: a member one side lacks is inserted into, or removed
    /// from, the target's object so that both agree; an array element exists in both or is left alone (inserting one
    /// would shift the others). Where a parent differs in kind or is missing, nothing is copied, and the difference
    /// stays for a comparison to find. Under `[*]`, elements with unique `id`s that both arrays hold pair by id, as the
    /// diff matches them; the others pair in order (so elements whose ids are random, and ignored, still pair).
    /// - Returns: The target after the copy and the places where the values differed.
    public func overlay(from source: JSONValue, onto target: JSONValue) -> Overlay {
        var differences: [JSONPath] = []
        let value = overlay(0, source: source, target: target, at: JSONPath(), differences: &differences) ?? target
        return Overlay(value: value, differences: differences)
    }

    private func overlay(
        _ step: Int, source: JSONValue?, target: JSONValue?, at path: JSONPath, differences: inout [JSONPath]
    ) -> JSONValue? {
        guard step < components.count else {
            if source != target { differences.append(path) }
            return source
        }
        guard let source, let target else { return target }
        switch (components[step], source, target) {
        case (.key(let key), .object(let old), .object(var new)):
            // Keys match by code points: a member named by an equivalent key is another member (see `JSONValue`).
            if key != "_0", old[exactKey: key] == nil, new[exactKey: key] == nil, old[exactKey: "_0"] != nil,
                new[exactKey: "_0"] != nil
            {
                // An unlabeled enum payload, which paths print without.
                new["_0"] = overlay(step, source: old["_0"], target: new["_0"], at: path.appending(.key("_0")), differences: &differences)
                return .object(new)
            }
            // Where the target holds an equivalent key, the member cannot be copied in beside it: nothing is.
            guard new.equivalentKey(standingFor: key) == nil else { return target }
            new[key] = overlay(step + 1, source: old[exactKey: key], target: new[key], at: path.appending(.key(key)), differences: &differences)
            return .object(new)
        case (.anyMember, .object(let old), .object(let new)), (.anyElement, .object(let old), .object(let new)):
            // Every key of either object by its code points, the result built anew: a member of the source copied in
            // and an equivalent key of the target's removed never meet in one object.
            var members: [String: JSONValue] = [:]
            for key in StateDiff.sortedKeys(of: old, and: new) {
                members[key] = overlay(step + 1, source: old[exactKey: key], target: new[exactKey: key], at: path.appending(.key(key)), differences: &differences)
            }
            return .object(members)
        case (.index(let index), .array(let old), .array(var new)):
            guard index < old.count, index < new.count else { return target }
            new[index] = overlay(step + 1, source: old[index], target: new[index], at: path.appending(.index(index)), differences: &differences) ?? new[index]
            return .array(new)
        case (.anyElement, .array(let old), .array(var new)):
            for pair in Self.elementPairs(old, new) {
                new[pair.new] = overlay(step + 1, source: old[pair.old], target: new[pair.new], at: path.appending(pair.component), differences: &differences) ?? new[pair.new]
            }
            return .array(new)
        case (.identified(let id), .array(let old), .array(var new)):
            guard let oldIndex = old.firstIndex(where: { $0["id"] == id }), let newIndex = new.firstIndex(where: { $0["id"] == id })
            else { return target }
            new[newIndex] = overlay(step + 1, source: old[oldIndex], target: new[newIndex], at: path.appending(.identified(id)), differences: &differences) ?? new[newIndex]
            return .array(new)
        case (.mapKey(let key), .array(let old), .array(var new)):
            guard let oldIndex = Self.pairValueIndex(of: key, in: old), let newIndex = Self.pairValueIndex(of: key, in: new)
            else { return target }
            new[newIndex] = overlay(step + 1, source: old[oldIndex], target: new[newIndex], at: path.appending(.mapKey(key)), differences: &differences) ?? new[newIndex]
            return .array(new)
        default:
            return target
        }
    }

    /// Which element of `old` stands for which of `new` under `[*]`: when both arrays hold identified elements
    /// (objects with an `id` member, unique in the array), those whose ids both hold pair by id, the way the diff
    /// matches them (a moved element stays itself); the others pair in order, so that elements whose ids differ run
    /// to run (the ids being what is ignored) still pair. Arrays without ids pair by position.
    static func elementPairs(_ old: [JSONValue], _ new: [JSONValue]) -> [(old: Int, new: Int, component: JSONPath.Component)] {
        var pairs: [(old: Int, new: Int, component: JSONPath.Component)] = []
        var unpairedOld = Array(old.indices)
        var unpairedNew = Array(new.indices)
        if let oldIDs = identities(old), let newIDs = identities(new) {
            let oldIndex = Dictionary(uniqueKeysWithValues: oldIDs.enumerated().map { ($0.element, $0.offset) })
            for (newIndex, id) in newIDs.enumerated() {
                guard let index = oldIndex[id] else { continue }
                pairs.append((old: index, new: newIndex, component: .identified(id)))
            }
            let pairedOld = Set(pairs.map(\.old))
            let pairedNew = Set(pairs.map(\.new))
            unpairedOld.removeAll { pairedOld.contains($0) }
            unpairedNew.removeAll { pairedNew.contains($0) }
        }
        pairs += zip(unpairedOld, unpairedNew).map { (old: $0, new: $1, component: .index($1)) }
        return pairs
    }

    /// Each element's `id` when every element is an object with one and no two share it; else `nil`.
    private static func identities(_ elements: [JSONValue]) -> [JSONValue]? {
        var ids: [JSONValue] = []
        var seen = Set<JSONValue>()
        for element in elements {
            guard let id = element["id"], seen.insert(id).inserted else { return nil }
            ids.append(id)
        }
        return ids.isEmpty ? nil : ids
    }

    /// The index of the value paired with `key` in an array of alternating keys and values.
    static func pairValueIndex(of key: JSONValue, in elements: [JSONValue]) -> Int? {
        stride(from: 0, to: elements.count - 1, by: 2).first { elements[$0] == key }.map { $0 + 1 }
    }
}

extension Array where Element == JSONPathPattern {
    /// `target` with the values every pattern names taken from `source`, each pattern in turn, and what each found.
    /// - Returns: The target after the copy, and for each pattern that found differences, the places it copied.
    public func overlay(from source: JSONValue, onto target: JSONValue) -> (value: JSONValue, ignored: [IgnoredDifferences]) {
        var value = target
        var ignored: [IgnoredDifferences] = []
        for pattern in self {
            let overlay = pattern.overlay(from: source, onto: value)
            value = overlay.value
            if !overlay.differences.isEmpty { ignored.append(IgnoredDifferences(pattern: pattern.text, paths: overlay.differences)) }
        }
        return (value, ignored)
    }
}
