import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// The changes of one step that touch the places a path pattern names (`log --path`, `history`).
///
/// A change at a named place or under one is taken as it is (`todos[id: 3].title  "a" -> "b"` for `todos[*]`).
/// A change above the places, one that added, removed or replaced a value holding some of them (a new element of
/// `todos` for `todos[*].title`), becomes one change per place inside that value, at that place's path
/// (`todos[id: 3].title  (absent) -> "Milk"`); a move is no change of what an element holds, and is left out.
///
/// Paths print without an enum's unlabeled payload `_0`, and patterns may leave it out too: a change's `_0`
/// step is passed over when the pattern does not name it. A pattern's index (`todos[0]`) matches an element a
/// change names by id when that element sits at the index before or after the step, and `[id: …]` matches an
/// element a change names by index when it has that id.
struct ChangesUnderPattern {
    typealias Change = StateDiff.Change

    /// The pattern as parsed.
    let pattern: JSONPathPattern

    /// Parses `text`.
    /// - Parameter option: How the command line named the pattern, for the error (`--path`, `<path>`).
    /// - Throws: ``CLIError`` (exit 2) with the pattern, the character position and what was expected there.
    init(_ text: String, option: String) throws(CLIError) {
        do {
            pattern = try JSONPathPattern(text)
        } catch {
            throw CLIError(.input, "\(option): \(error)")
        }
    }

    /// Whether a step from `old` to `new` may have changed a place the pattern names: `false` when the values
    /// at the pattern's leading member names are equal in both, so that a step which left them alone is passed
    /// over without a diff of the whole state.
    func mayHaveChanged(from old: JSONValue, to new: JSONValue) -> Bool {
        var old = old
        var new = new
        for component in pattern.components {
            guard case .key(let key) = component, case .object(let oldMembers) = old, case .object(let newMembers) = new
            else { break }
            if let oldChild = oldMembers[key], let newChild = newMembers[key] {
                (old, new) = (oldChild, newChild)
            } else if oldMembers[key] == nil, newMembers[key] == nil, key != "_0", let oldPayload = oldMembers["_0"],
                let newPayload = newMembers["_0"]
            {
                // An unlabeled payload the pattern leaves out: the member is looked for inside it.
                (old, new) = (oldPayload, newPayload)
                guard case .object(let oldInside) = old, case .object(let newInside) = new,
                    let oldChild = oldInside[key], let newChild = newInside[key]
                else { break }
                (old, new) = (oldChild, newChild)
            } else {
                break
            }
        }
        return old != new
    }

    /// The changes of `diff` at, under or inside the places the pattern names, in the diff's order.
    func select(from diff: StateDiff) -> [Change] {
        diff.changes.flatMap { change in
            select(change, step: 0, at: 0, old: diff.old, new: diff.new)
        }
    }

    /// Walks the pattern from component `step` along the change's path from component `index`; `old` and `new`
    /// are the values the path has reached in the two states (`nil` where a state lacks it).
    private func select(_ change: Change, step: Int, at index: Int, old: JSONValue?, new: JSONValue?) -> [Change] {
        let components = pattern.components
        guard step < components.count else { return [change] }
        let path = change.path.components
        guard index < path.count else { return places(inside: change, from: step) }
        let component = path[index]
        let nextOld = old.flatMap { Self.child($0, at: component) }
        let nextNew = new.flatMap { Self.child($0, at: component) }
        if component == .key("_0"), components[step] != .key("_0") {
            // A payload paths print without: the pattern's step applies below it (or to it, for a wildcard).
            let below = select(change, step: step, at: index + 1, old: nextOld, new: nextNew)
            if !below.isEmpty || !Self.isWildcard(components[step]) { return below }
        }
        guard Self.matches(components[step], component, old: old, new: new) else { return [] }
        return select(change, step: step + 1, at: index + 1, old: nextOld, new: nextNew)
    }

    /// The places from pattern component `step` on inside the value(s) a change above them added, removed or
    /// replaced, each as a change at its own path.
    private func places(inside change: Change, from step: Int) -> [Change] {
        let rest = pattern.components[step...]
        let before: [(path: [JSONPath.Component], value: JSONValue)]
        let after: [(path: [JSONPath.Component], value: JSONValue)]
        switch change.kind {
        case .moved: return []
        case .added(let value): (before, after) = ([], Self.resolve(rest, in: value))
        case .removed(let value): (before, after) = (Self.resolve(rest, in: value), [])
        case .changed(let from, let to): (before, after) = (Self.resolve(rest, in: from), Self.resolve(rest, in: to))
        }
        var changes: [Change] = []
        var afterByPath = Dictionary(after.map { (JSONPath($0.path), $0.value) }, uniquingKeysWith: { first, _ in first })
        for place in before {
            let path = JSONPath(change.path.components + place.path)
            let suffix = JSONPath(place.path)
            switch afterByPath.removeValue(forKey: suffix) {
            case let value?: if value != place.value { changes.append(Change(path: path, kind: .changed(from: place.value, to: value))) }
            case nil: changes.append(Change(path: path, kind: .removed(place.value)))
            }
        }
        for place in after where afterByPath[JSONPath(place.path)] != nil {
            changes.append(Change(path: JSONPath(change.path.components + place.path), kind: .added(place.value)))
        }
        return changes
    }

    /// The places `rest` names inside `value`, each with its path from `value` (elements of identified arrays by
    /// id, as ``StateDiff`` names them) and its value.
    private static func resolve(
        _ rest: ArraySlice<JSONPathPattern.Component>, in value: JSONValue
    ) -> [(path: [JSONPath.Component], value: JSONValue)] {
        guard let first = rest.first else { return [([], value)] }
        let tail = rest.dropFirst()
        func below(_ component: JSONPath.Component, _ child: JSONValue) -> [(path: [JSONPath.Component], value: JSONValue)] {
            resolve(tail, in: child).map { ([component] + $0.path, $0.value) }
        }
        switch (first, value) {
        case (.key(let key), .object(let members)):
            if let child = members[key] { return below(.key(key), child) }
            guard key != "_0", let payload = members["_0"] else { return [] }
            return resolve(rest, in: payload).map { ([.key("_0")] + $0.path, $0.value) }
        case (.anyMember, .object(let members)), (.anyElement, .object(let members)):
            return members.keys.sorted().flatMap { below(.key($0), members[$0]!) }
        case (.index(let index), .array(let elements)):
            guard index < elements.count else { return [] }
            return below(elementComponent(index, in: elements), elements[index])
        case (.anyElement, .array(let elements)):
            return elements.indices.flatMap { below(elementComponent($0, in: elements), elements[$0]) }
        case (.identified(let id), .array(let elements)):
            guard IdentifiedMatching(elements, elements) != nil, let element = elements.first(where: { $0["id"] == id })
            else { return [] }
            return below(.identified(id), element)
        case (.mapKey(let key), .array(let elements)):
            guard let index = pairValueIndex(of: key, in: elements) else { return [] }
            return below(.mapKey(key), elements[index])
        default:
            return []
        }
    }

    /// How ``StateDiff`` names element `index`: by its id when the array holds identified elements.
    private static func elementComponent(_ index: Int, in elements: [JSONValue]) -> JSONPath.Component {
        guard IdentifiedMatching(elements, elements) != nil, let id = elements[index]["id"] else { return .index(index) }
        return .identified(id)
    }

    /// Whether a pattern's component stands for any member or element.
    private static func isWildcard(_ component: JSONPathPattern.Component) -> Bool {
        component == .anyMember || component == .anyElement
    }

    /// Whether the pattern's component names the path's component, in a container that is `old` in the state
    /// before the step and `new` in the state after it.
    private static func matches(
        _ component: JSONPathPattern.Component, _ step: JSONPath.Component, old: JSONValue?, new: JSONValue?
    ) -> Bool {
        func element(_ index: Int, hasID id: JSONValue) -> Bool {
            [old, new].contains { container in
                guard let elements = container?.arrayValue, index < elements.count else { return false }
                return elements[index]["id"] == id
            }
        }
        return switch (component, step) {
        case (.key(let name), .key(let key)): name == key
        case (.anyMember, .key), (.anyMember, .mapKey), (.anyElement, _): true
        case (.index(let wanted), .index(let index)): wanted == index
        case (.index(let wanted), .identified(let id)): element(wanted, hasID: id)
        case (.identified(let wanted), .identified(let id)): wanted == id
        case (.identified(let wanted), .index(let index)): element(index, hasID: wanted)
        case (.mapKey(let wanted), .mapKey(let key)): wanted == key
        default: false
        }
    }

    /// The member or element of `value` that `component` names.
    private static func child(_ value: JSONValue, at component: JSONPath.Component) -> JSONValue? {
        switch (component, value) {
        case (.key(let key), .object(let members)): members[key]
        case (.index(let index), .array(let elements)): index < elements.count ? elements[index] : nil
        case (.identified(let id), .array(let elements)): elements.first { $0["id"] == id }
        case (.mapKey(let key), .array(let elements)): pairValueIndex(of: key, in: elements).map { elements[$0] }
        case (.setMember(let member), .array(let elements)): elements.contains(member) ? member : nil
        default: nil
        }
    }

    /// The index of the value paired with `key` in an array of alternating keys and values.
    private static func pairValueIndex(of key: JSONValue, in elements: [JSONValue]) -> Int? {
        stride(from: 0, to: elements.count - 1, by: 2).first { elements[$0] == key }.map { $0 + 1 }
    }
}
