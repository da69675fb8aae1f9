extension StateDiff {
    /// The difference as an indented JSON dump in which changed lines start with `-` (old) and `+` (new) and the
    /// other lines with a space; unchanged parts are folded as `... (N unchanged)` and the parent structure is
    /// printed once as context. Keys are sorted, so the text is stable.
    public func rendered() -> String {
        guard !isEmpty else { return "  (no difference)" }
        var writer = DumpWriter()
        writer.write(old, new, prefix: "", level: 0, comma: false)
        return writer.lines.joined(separator: "\n")
    }

    /// `1 difference: todos[2].isComplete  true -> false`, or a count and one line per change (at most ten).
    public var summary: String {
        let described = changes.prefix(10).map(\.summary)
        if changes.count == 1 { return "1 difference: \(described[0])" }
        var lines = ["\(changes.count) differences:"] + described.map { "  \($0)" }
        if changes.count > 10 { lines.append("  ... and \(changes.count - 10) more") }
        return lines.joined(separator: "\n")
    }

    /// The changes as data: `[{"path": …, "kind": "changed"|"added"|"removed", "old": …, "new": …}]`.
    public var jsonValue: JSONValue {
        .array(
            changes.map { change in
                var members: [String: JSONValue] = ["path": .string(change.path.description)]
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
                }
                return .object(members)
            })
    }
}

extension StateDiff.Change {
    /// `todos[2].isComplete  true -> false`.
    var summary: String {
        switch kind {
        case .changed(let from, let to): "\(path)  \(Self.compact(from)) -> \(Self.compact(to))"
        case .added(let value): "\(path)  (absent) -> \(Self.compact(value))"
        case .removed(let value): "\(path)  \(Self.compact(value)) -> (absent)"
        }
    }

    private static func compact(_ value: JSONValue) -> String {
        let text = value.canonicalString
        return text.count <= 60 ? text : String(text.prefix(57)) + "..."
    }
}

/// Writes the `-`/`+` dump line by line.
private struct DumpWriter {
    /// Containers with at most this many children show their unchanged scalars as context.
    static let contextLimit = 8

    private(set) var lines: [String] = []

    private mutating func emit(_ marker: Character, level: Int, _ text: String) {
        lines.append("\(marker) " + String(repeating: "  ", count: level) + text)
    }

    /// Writes a whole value with one marker on every line.
    private mutating func whole(_ marker: Character, _ value: JSONValue, prefix: String, level: Int, comma: Bool) {
        let text = value.prettyString(indent: 2).split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in text.enumerated() {
            let head = index == 0 ? prefix : ""
            let tail = index == text.count - 1 && comma ? "," : ""
            lines.append("\(marker) " + String(repeating: "  ", count: level) + head + line + tail)
        }
    }

    mutating func write(_ old: JSONValue, _ new: JSONValue, prefix: String, level: Int, comma: Bool) {
        let end = comma ? "," : ""
        switch (old, new) {
        case (.object(let oldMembers), .object(let newMembers)) where old != new:
            emit(" ", level: level, prefix + "{")
            let keys = JSONValue.sortedKeys(oldMembers.merging(newMembers) { first, _ in first })
            var children: [Child] = []
            for key in keys {
                let label = JSONValue.string(key).canonicalString + ": "
                children.append(Child(old: oldMembers[key], new: newMembers[key], prefix: label))
            }
            writeChildren(children, level: level + 1)
            emit(" ", level: level, "}" + end)
        case (.array(let oldElements), .array(let newElements)) where old != new:
            emit(" ", level: level, prefix + "[")
            let alignment = ArrayAlignment(oldElements, newElements)
            var children = oldElements.prefix(alignment.prefix).map { Child(old: $0, new: $0, prefix: "") }
            children += alignment.middlePairs.map { Child(old: $0.0, new: $0.1, prefix: "") }
            children += alignment.removed.map { Child(old: $0, new: nil, prefix: "") }
            children += alignment.added.map { Child(old: nil, new: $0, prefix: "") }
            children += oldElements.suffix(alignment.suffix).map { Child(old: $0, new: $0, prefix: "") }
            writeChildren(children, level: level + 1)
            emit(" ", level: level, "]" + end)
        default:
            if old == new {
                whole(" ", old, prefix: prefix, level: level, comma: comma)
            } else {
                whole("-", old, prefix: prefix, level: level, comma: comma)
                whole("+", new, prefix: prefix, level: level, comma: comma)
            }
        }
    }

    private struct Child {
        let old: JSONValue?
        let new: JSONValue?
        let prefix: String

        var isUnchanged: Bool { old == new }
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
            if child.isUnchanged && !(showScalarContext && child.isScalar) {
                folded += 1
                continue
            }
            flushFolded(&folded, level: level)
            switch (child.old, child.new) {
            case (let old?, let new?): write(old, new, prefix: child.prefix, level: level, comma: comma)
            case (let old?, nil): whole("-", old, prefix: child.prefix, level: level, comma: comma)
            case (nil, let new?): whole("+", new, prefix: child.prefix, level: level, comma: comma)
            case (nil, nil): break
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
