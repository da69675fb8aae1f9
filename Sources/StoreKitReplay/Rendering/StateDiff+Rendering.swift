import StoreKitCore
import StoreKitJSON

extension StateDiff {
    /// The difference as an indented JSON dump in which changed lines start with `-` (old) and `+` (new) and the
    /// other lines with a space; unchanged parts are folded as `... (N unchanged)` and the parent structure is
    /// printed once as context. Keys are sorted, so the text is stable. The elements of an array matched by id are
    /// in the new order, a moved one marked `(moved from 2 to 0)`, a removed one at its old index; a set's members
    /// in canonical order, each kept, removed or added. Where the
    /// ``typeNotes`` say so, a date reads as ISO 8601 (`2026-11-23T10:00:00.000Z`) and a duration in seconds
    /// (`12.5 s`), without quotes.
    public func rendered() -> String { renderedLines().text }

    /// ``rendered()`` line by line, each with its kind: ``RenderedLine/Kind/removed`` for `-`,
    /// ``RenderedLine/Kind/added`` for `+`, ``RenderedLine/Kind/unchanged`` for the context.
    public func renderedLines() -> [RenderedLine] {
        guard !isEmpty else { return [RenderedLine(.text, "  (no difference)")] }
        var writer = DumpWriter(typeNotes: typeNotes)
        writer.writeChanged(old, new, changes: ChangedPaths(changes), path: JSONPath(), prefix: "", level: 0, comma: false)
        return writer.lines
    }

    /// `1 difference: todos[2].isComplete  true -> false`, or a count and one line per change (at most ten); a
    /// date and a duration read as in ``rendered()``.
    public var summary: String {
        let described = changes.prefix(10).map { $0.summary(typeNotes: typeNotes) }
        if changes.count == 1 { return "1 difference: \(described[0])" }
        var lines = ["\(changes.count) differences:"] + described.map { "  \($0)" }
        if changes.count > 10 { lines.append("  ... and \(changes.count - 10) more") }
        return lines.joined(separator: "\n")
    }

    /// The changes as data: `[{"path": …, "components": […], "kind": "changed"|"added"|"removed"|"moved", "old": …,
    /// "new": …, "from": …, "to": …}]` (`old` and `new` for what the kind has; `from` and `to`, the indices, for a
    /// move); `components` is the path as data (a key as a string, an index as an integer, a map's key as
    /// `{"mapKey": key}`, an identified element as `{"id": id}`, a set's member as `{"setMember": member}`), from which
    /// ``StateDiff/Change/init(jsonValue:)`` reads the change back. A date or a duration keeps its JSON in `old` and
    /// `new` and has its text beside it, `oldReadable` and `newReadable` (`"2026-11-23T10:00:00.000Z"`, `"12.5 s"`), as
    /// has each side of an enum's change of case (`".ready"`, `".countingIn(beatsLeft: 4)"`).
    public var jsonValue: JSONValue {
        .array(
            changes.map { change in
                var members: [String: JSONValue] = [
                    "path": .string(change.path.description),
                    "components": change.path.componentsJSON,
                ]
                switch change.kind {
                case .changed(let from, let to):
                    members["kind"] = .string("changed")
                    members["old"] = from
                    members["new"] = to
                case .added(let value):
                    members["kind"] = .string("added")
                    members["new"] = value
                case .removed(let value):
                    members["kind"] = .string("removed")
                    members["old"] = value
                case .moved(let from, let to):
                    members["kind"] = .string("moved")
                    members["from"] = .integer(Int64(from))
                    members["to"] = .integer(Int64(to))
                }
                for side in ["old", "new"] {
                    if let value = members[side], let text = change.readableText(of: value, typeNotes: typeNotes) {
                        members[side + "Readable"] = .string(text)
                    }
                }
                return .object(members)
            })
    }
}

extension StateDiff.Change {
    /// `todos[2].isComplete  true -> false`; `syncUps[id: 3]  moved from 2 to 0`; `startedAt  2026-11-23T10:00:00.000Z
    /// -> 2026-11-23T10:00:01.500Z` for a date the notes know of; `phase  .ready -> .countingIn(beatsLeft: 4)` for an
    /// enum that changed case.
    package func summary(typeNotes: EncodedTypeNotes) -> String {
        func compact(_ value: JSONValue) -> String {
            let text = readableText(of: value, typeNotes: typeNotes) ?? value.canonicalString
            return text.count <= 60 ? text : String(text.prefix(57)) + "..."
        }
        return switch kind {
        case .moved(let from, let to): "\(path)  moved from \(from) to \(to)"
        case .changed(let from, let to): "\(path)  \(compact(from)) -> \(compact(to))"
        case .added(let value): "\(path)  (absent) -> \(compact(value))"
        case .removed(let value): "\(path)  \(compact(value)) -> (absent)"
        }
    }
}

extension StateDiff.Change {
    /// The readable text of `value`, one side of this change: a date or a duration the notes know of
    /// (``ReadableValue``), each side of an enum's change of case as Swift writes it (`.ready`,
    /// `.countingIn(beatsLeft: 4)`), or a value that can only be an enum case (`.ready`, `.failed("offline")`, see
    /// ``CompactDescription/init(encodedCase:)``); `nil` for other values, shown as JSON.
    func readableText(of value: JSONValue, typeNotes: EncodedTypeNotes) -> String? {
        if case .changed(let from, let to) = kind, StateDiff.isCaseChange(from, to) {
            return CompactDescription(encodedValue: value).description.escapingControls()
        }
        if let enumCase = CompactDescription(encodedCase: value) {
            return enumCase.description.escapingControls()
        }
        return ReadableValue.text(of: value, as: typeNotes.kind(at: path))
    }
}

/// Writes the `-`/`+` dump line by line.
private struct DumpWriter {
    /// Containers with at most this many children show their unchanged scalars as context.
    static let contextLimit = 8

    /// Where dates and durations are, to show them as such.
    let typeNotes: EncodedTypeNotes
    /// Whether the notes hold any date or duration, so that values are looked up by path at all.
    private let readsTypes: Bool
    private(set) var lines: [RenderedLine] = []

    init(typeNotes: EncodedTypeNotes) {
        self.typeNotes = typeNotes
        self.readsTypes = typeNotes.paths[.dates] != nil || typeNotes.paths[.durations] != nil
    }

    /// The kind of a line by its marker.
    private static func kind(_ marker: Character) -> RenderedLine.Kind {
        switch marker {
        case "-": .removed
        case "+": .added
        default: .unchanged
        }
    }

    private mutating func emit(_ marker: Character, level: Int, _ text: String) {
        lines.append(RenderedLine(Self.kind(marker), "\(marker) " + String(repeating: "  ", count: level) + text))
    }

    /// Writes a whole value with one marker on every line.
    private mutating func whole(
        _ marker: Character, _ value: JSONValue, path: JSONPath, prefix: String, level: Int, comma: Bool
    ) {
        let text =
            readsTypes
            ? prettyLines(value, path: path)
            : value.prettyString(indent: 2).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (index, line) in text.enumerated() {
            let head = index == 0 ? prefix : ""
            let tail = index == text.count - 1 && comma ? "," : ""
            lines.append(
                RenderedLine(Self.kind(marker), "\(marker) " + String(repeating: "  ", count: level) + head + line + tail))
        }
    }

    /// `value` pretty-printed as ``JSONValue/prettyString(indent:)`` does, with its dates and durations readable.
    private func prettyLines(_ value: JSONValue, path: JSONPath) -> [String] {
        if let readable = ReadableValue.text(of: value, as: typeNotes.kind(at: path)) { return [readable] }
        func nested(_ lines: [String], comma: Bool) -> [String] {
            var lines = lines.map { "  " + $0 }
            if comma { lines[lines.count - 1] += "," }
            return lines
        }
        let holdsPairs = typeNotes.kind(at: path) == .keyedPairArrays
        switch value {
        case .array(let elements) where !elements.isEmpty:
            let inner = elements.enumerated().flatMap { index, element in
                // In a dictionary written as pairs, a value's path names it by its key, as the notes do.
                let step: JSONPath.Component = holdsPairs && index % 2 == 1 ? .mapKey(elements[index - 1]) : .index(index)
                return nested(prettyLines(element, path: path.appending(step)), comma: index < elements.count - 1)
            }
            return ["["] + inner + ["]"]
        case .object(let members) where !members.isEmpty:
            let keys = StateDiff.sortedKeys(of: members, and: [:])
            let inner = keys.enumerated().flatMap { index, key in
                var lines = prettyLines(members[key] ?? .null, path: path.appending(.key(key)))
                lines[0] = JSONValue.string(key).canonicalStringShowingCombiningMarks + ": " + lines[0]
                return nested(lines, comma: index < keys.count - 1)
            }
            return ["{"] + inner + ["}"]
        default:
            return [value.canonicalString]
        }
    }

    /// Writes two values that differ: containers of one kind member by member, anything else as `-` and `+`.
    /// - Parameter changes: The changes below the values, which say which members differ without comparing them.
    mutating func writeChanged(
        _ old: JSONValue, _ new: JSONValue, changes: ChangedPaths, path: JSONPath, prefix: String, level: Int,
        comma: Bool
    ) {
        let end = comma ? "," : ""
        switch (old, new) {
        case (.array, .array) where readsTypes && typeNotes.kind(at: path) == .durations:
            // A duration is one value.
            whole("-", old, path: path, prefix: prefix, level: level, comma: comma)
            whole("+", new, path: path, prefix: prefix, level: level, comma: comma)
        case (.object, .object) where StateDiff.isCaseChange(old, new):
            // An enum that changed case: one value for another.
            whole("-", old, path: path, prefix: prefix, level: level, comma: comma)
            whole("+", new, path: path, prefix: prefix, level: level, comma: comma)
        case (.object(let oldMembers), .object(let newMembers)):
            emit(" ", level: level, prefix + "{")
            let children = StateDiff.sortedKeys(of: oldMembers, and: newMembers).map { key in
                Child(
                    old: oldMembers[exactKey: key], new: newMembers[exactKey: key],
                    changes: changes.below[.key(key)], path: path.appending(.key(key)),
                    prefix: JSONValue.string(key).canonicalStringShowingCombiningMarks + ": ")
            }
            writeChildren(children, level: level + 1)
            emit(" ", level: level, "}" + end)
        case (.array(let oldElements), .array(let newElements))
        where changes.below.keys.contains(where: \.isMapKey):
            // A dictionary written as keyed pairs, diffed as a map: one line per pair, `key: value`, in key order.
            guard let oldPairs = StateDiff.keyedPairs(oldElements), let newPairs = StateDiff.keyedPairs(newElements)
            else { fallthrough }
            emit(" ", level: level, prefix + "[")
            let oldMap = Dictionary(oldPairs, uniquingKeysWith: { first, _ in first })
            let newMap = Dictionary(newPairs, uniquingKeysWith: { first, _ in first })
            let children = StateDiff.sortedKeys(of: oldPairs, and: newPairs).map { key in
                Child(
                    old: oldMap[key], new: newMap[key], changes: changes.below[.mapKey(key)],
                    path: path.appending(.mapKey(key)), prefix: key.canonicalStringShowingCombiningMarks + ": ")
            }
            writeChildren(children, level: level + 1)
            emit(" ", level: level, "]" + end)
        case (.array(let oldElements), .array(let newElements))
        where changes.below.keys.contains(where: \.isSetMember):
            // A set, diffed as a set: its members in canonical order, each kept, removed or added.
            emit(" ", level: level, prefix + "[")
            let oldMembers = Set(oldElements)
            let newMembers = Set(newElements)
            let children = StateDiff.sortedUnion(of: oldElements, and: newElements).map { member in
                Child(
                    old: oldMembers.contains(member) ? member : nil, new: newMembers.contains(member) ? member : nil,
                    changes: changes.below[.setMember(member)], path: path.appending(.setMember(member)), prefix: "")
            }
            writeChildren(children, level: level + 1)
            emit(" ", level: level, "]" + end)
        case (.array(let oldElements), .array(let newElements))
        where changes.below.keys.contains(where: \.isIdentified):
            // Identified elements, matched by id as `StateDiff` matched them: the new array's order, a moved element
            // marked with where it came from, a removed one at its old index.
            guard let matching = IdentifiedMatching(oldElements, newElements, key: typeNotes.identityKey(at: path))
            else { fallthrough }
            emit(" ", level: level, prefix + "[")
            var children = matching.newOrder.map { element in
                let moved = element.old.map { "(moved from \($0.index) to \(element.index)) " } ?? ""
                return Child(
                    old: element.old?.element, new: element.new, changes: changes.below[.identified(element.id)],
                    path: path.appending(.identified(element.id)), prefix: element.moved ? moved : "")
            }
            for removed in matching.removed {
                let child = Child(
                    old: removed.element, new: nil, changes: changes.below[.identified(removed.id)],
                    path: path.appending(.identified(removed.id)), prefix: "")
                children.insert(child, at: min(removed.index, children.count))
            }
            writeChildren(children, level: level + 1)
            emit(" ", level: level, "]" + end)
        case (.array(let oldElements), .array(let newElements)):
            emit(" ", level: level, prefix + "[")
            // Aligned as `StateDiff` aligned them, so that the changes' indices name the same elements.
            let alignment = ArrayAlignment(oldElements, newElements)
            let unchanged = { (index: Int, element: JSONValue) in
                Child(old: element, new: element, changes: nil, path: path.appending(.index(index)), prefix: "")
            }
            let changed = { (index: Int, old: JSONValue?, new: JSONValue?) in
                Child(old: old, new: new, changes: changes.below[.index(index)], path: path.appending(.index(index)), prefix: "")
            }
            let firstExtra = alignment.prefix + alignment.middlePairs.count
            var children = oldElements.prefix(alignment.prefix).enumerated().map(unchanged)
            children += alignment.middlePairs.enumerated().map { changed(alignment.prefix + $0, $1.0, $1.1) }
            children += alignment.removed.enumerated().map { changed(firstExtra + $0, $1, nil) }
            children += alignment.added.enumerated().map { changed(firstExtra + $0, nil, $1) }
            let suffixStart = oldElements.count - alignment.suffix
            children += oldElements.suffix(alignment.suffix).enumerated().map { unchanged(suffixStart + $0, $1) }
            writeChildren(children, level: level + 1)
            emit(" ", level: level, "]" + end)
        default:
            whole("-", old, path: path, prefix: prefix, level: level, comma: comma)
            whole("+", new, path: path, prefix: prefix, level: level, comma: comma)
        }
    }

    private struct Child {
        let old: JSONValue?
        let new: JSONValue?
        /// The changes at or below this child; `nil` when it is unchanged.
        let changes: ChangedPaths?
        /// Where the child is, in the old value (an index of the old array, for unchanged and removed elements).
        let path: JSONPath
        let prefix: String

        var isScalar: Bool {
            switch old ?? new {
            case .array(let elements)?: elements.isEmpty
            case .object(let members)?: members.isEmpty
            default: true
            }
        }
    }

    private mutating func writeChildren(_ children: [Child], level: Int) {
        let showScalarContext = children.count <= Self.contextLimit
        var folded = 0
        for (index, child) in children.enumerated() {
            let comma = index < children.count - 1
            // A duration's `[high, low]` reads as one scalar (`300 s`), and is context like one.
            let isScalar = child.isScalar || (readsTypes && typeNotes.kind(at: child.path) == .durations)
            if child.changes == nil && !(showScalarContext && isScalar) {
                folded += 1
                continue
            }
            flushFolded(&folded, level: level)
            switch (child.old, child.new, child.changes) {
            case (let old?, _, nil):
                whole(" ", old, path: child.path, prefix: child.prefix, level: level, comma: comma)
            case (let old?, let new?, let changes?):
                writeChanged(old, new, changes: changes, path: child.path, prefix: child.prefix, level: level, comma: comma)
            case (let old?, nil, _?): whole("-", old, path: child.path, prefix: child.prefix, level: level, comma: comma)
            case (nil, let new?, _): whole("+", new, path: child.path, prefix: child.prefix, level: level, comma: comma)
            case (nil, nil, _): break
            }
        }
        flushFolded(&folded, level: level)
    }

    private mutating func flushFolded(_ folded: inout Int, level: Int) {
        guard folded > 0 else { return }
        emit(" ", level: level, "... (\(folded) unchanged)")
        folded = 0
    }
}

/// The paths of a diff's changes as a tree: a node for every member or element at or above a change.
private struct ChangedPaths {
    /// The nodes one step down, by the step.
    var below: [JSONPath.Component: ChangedPaths] = [:]

    init() {}

    init(_ changes: [StateDiff.Change]) {
        for change in changes { insert(change.path.components[...]) }
    }

    private mutating func insert(_ path: ArraySlice<JSONPath.Component>) {
        guard let step = path.first else { return }
        below[step, default: ChangedPaths()].insert(path.dropFirst())
    }
}

extension JSONPath.Component {
    /// Whether this is the value of a map's pair.
    fileprivate var isMapKey: Bool {
        if case .mapKey = self { return true }
        return false
    }

    /// Whether this is a set's member.
    fileprivate var isSetMember: Bool {
        if case .setMember = self { return true }
        return false
    }

    /// Whether this is an element matched by its id.
    fileprivate var isIdentified: Bool {
        if case .identified = self { return true }
        return false
    }
}

/// Renders the difference between two JSON values as a `-`/`+` dump, or returns `nil` when they are equal.
public func diff(_ old: JSONValue, _ new: JSONValue) -> String? {
    let stateDiff = StateDiff(from: old, to: new)
    return stateDiff.isEmpty ? nil : stateDiff.rendered()
}
