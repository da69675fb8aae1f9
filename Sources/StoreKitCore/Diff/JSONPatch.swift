/// A list of JSON Patch operations (RFC 6902: `add`, `remove`, `replace`) that turns one JSON value into another.
///
/// Sessions store a state as a patch against the previous state (see `docs/session-format.md`), so a session
/// grows with what changed, not with the size of the state.
public struct JSONPatch: Sendable, Hashable {
    /// One operation.
    public enum Operation: Sendable, Hashable {
        /// Inserts `value` at `path` (into an array, before the element there).
        case add(path: JSONPath, value: JSONValue)
        /// Removes the value at `path`.
        case remove(path: JSONPath)
        /// Replaces the value at `path`.
        case replace(path: JSONPath, value: JSONValue)
    }

    /// The operations, applied in order.
    public var operations: [Operation]

    /// Creates a patch from its operations.
    public init(_ operations: [Operation]) {
        self.operations = operations
    }

    /// The patch that turns `old` into `new`.
    public init(from old: JSONValue, to new: JSONValue) {
        let changes = StateDiff(from: old, to: new).changes
        var operations: [Operation] = []
        var pendingRemovals: [Operation] = []
        for change in changes {
            if case .removed = change.kind, case .index? = change.path.components.last {
                // Removals from one array come in ascending order; applied one by one they must go descending.
                pendingRemovals.insert(.remove(path: change.path), at: 0)
                continue
            }
            operations += pendingRemovals
            pendingRemovals = []
            switch change.kind {
            case .changed(_, let to): operations.append(.replace(path: change.path, value: to))
            case .added(let value): operations.append(.add(path: change.path, value: value))
            case .removed: operations.append(.remove(path: change.path))
            }
        }
        self.init(operations + pendingRemovals)
    }

    /// A patch that changes nothing.
    public var isEmpty: Bool { operations.isEmpty }

    /// Applies the patch to `value`.
    /// - Throws: ``JSONPatchError`` naming the operation and the path that does not fit the value.
    public func apply(to value: JSONValue) throws(JSONPatchError) -> JSONValue {
        var result = value
        for (index, operation) in operations.enumerated() {
            try Self.apply(operation, to: &result, operationIndex: index)
        }
        return result
    }

    private static func apply(_ operation: Operation, to root: inout JSONValue, operationIndex: Int) throws(JSONPatchError) {
        let path: JSONPath
        switch operation {
        case .add(let target, _), .remove(let target), .replace(let target, _): path = target
        }
        guard !path.components.isEmpty else {
            switch operation {
            case .add(_, let value), .replace(_, let value): root = value
            case .remove: root = .null
            }
            return
        }
        try edit(&root, path.components[...], operation: operation, operationIndex: operationIndex, path: path)
    }

    private static func edit(
        _ node: inout JSONValue, _ components: ArraySlice<JSONPath.Component>, operation: Operation,
        operationIndex: Int, path: JSONPath
    ) throws(JSONPatchError) {
        let fail = JSONPatchError(operationIndex: operationIndex, path: path.pointer)
        let component = components.first!
        let isLast = components.count == 1
        switch (node, component) {
        case (.object(var members), _):
            let name: String
            switch component {
            case .key(let key): name = key
            case .index(let index): name = String(index)  // a pointer's digits may name an object member
            case .mapKey: throw fail  // made only by a diff told of keyed pairs, never in a patch
            }
            node = .null  // release the storage so the edit below is in place
            if isLast {
                switch operation {
                case .add(_, let value), .replace(_, let value):
                    if case .replace = operation, members[name] == nil { throw fail }
                    members[name] = value
                case .remove:
                    guard members.removeValue(forKey: name) != nil else { throw fail }
                }
            } else {
                guard var child = members[name] else { throw fail }
                members[name] = nil
                try edit(&child, components.dropFirst(), operation: operation, operationIndex: operationIndex, path: path)
                members[name] = child
            }
            node = .object(members)
        case (.array(var elements), .index(let index)):
            node = .null
            if isLast {
                switch operation {
                case .add(_, let value):
                    guard index >= 0, index <= elements.count else { throw fail }
                    elements.insert(value, at: index)
                case .replace(_, let value):
                    guard elements.indices.contains(index) else { throw fail }
                    elements[index] = value
                case .remove:
                    guard elements.indices.contains(index) else { throw fail }
                    elements.remove(at: index)
                }
            } else {
                guard elements.indices.contains(index) else { throw fail }
                try edit(&elements[index], components.dropFirst(), operation: operation, operationIndex: operationIndex, path: path)
            }
            node = .array(elements)
        default:
            throw fail
        }
    }
}

/// A patch operation whose path does not fit the value it is applied to.
public struct JSONPatchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The position of the failing operation in the patch (0-based).
    public var operationIndex: Int
    /// The operation's path, as a JSON Pointer.
    public var path: String

    /// `patch operation 2: path '/todos/7' does not exist in the previous state`.
    public var description: String {
        "patch operation \(operationIndex): path '\(path)' does not exist in the previous state"
    }
}

extension JSONPath {
    /// The path as a JSON Pointer (RFC 6901): `/todos/0/isComplete`.
    public var pointer: String {
        components.map { component in
            switch component {
            case .index(let index): "/\(index)"
            case .key(let key): "/" + key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
            // No pointer names a map's pair by its key; its key's JSON stands in (a patch never holds one).
            case .mapKey(let key):
                "/" + key.canonicalString.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
            }
        }.joined()
    }

    /// Reads a JSON Pointer; all-digit parts become indexes, which also address object members of that name.
    public init?(pointer: String) {
        guard pointer.isEmpty || pointer.hasPrefix("/") else { return nil }
        let parts = pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        self.init(
            parts.map { part in
                let text = part.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
                if let index = Int(text), !text.isEmpty, text.allSatisfy(\.isNumber), text == String(index) {
                    return .index(index)
                }
                return .key(text)
            })
    }
}
