/// A JSON Patch (RFC 6902): a list of operations that turns one JSON value into another.
///
/// Sessions store a state as a patch against the previous state (see `docs/session-format.md`), so a session
/// grows with what changed, not with the size of the state. All six operations of RFC 6902 apply: `add`, `remove`,
/// `replace`, `move`, `copy` and `test`, with paths that are JSON Pointers (RFC 6901, see ``JSONPath/pointer``).
///
/// Operations apply in order, each to the result of the one before. When one fails the whole patch fails and
/// nothing of it is applied: ``apply(to:)`` throws and returns no partial result.
public struct JSONPatch: Sendable, Hashable {
    /// One operation.
    public enum Operation: Sendable, Hashable {
        /// Puts `value` at `path`: into an object as a new member (replacing a member of that name), into an
        /// array before the element at the index (the index may equal the count, or be `-`, to append), or as the
        /// whole document for the path `""`.
        case add(path: JSONPath, value: JSONValue)
        /// Removes the value at `path`, which must exist; later elements of an array shift down. The whole
        /// document (`""`) cannot be removed.
        case remove(path: JSONPath)
        /// Replaces the value at `path`, which must exist (`""` replaces the whole document).
        case replace(path: JSONPath, value: JSONValue)
        /// Removes the value at `from` and adds it at `path`; `from` must exist and must not be a proper prefix
        /// of `path` (a value cannot move into its own child).
        case move(from: JSONPath, path: JSONPath)
        /// Adds a copy of the value at `from`, which must exist, at `path`.
        case copy(from: JSONPath, path: JSONPath)
        /// Checks that the value at `path` equals `value` as JSON: numbers by value (`1` equals `1.0`), strings by
        /// their code points, arrays element by element, objects member by member in any order.
        case test(path: JSONPath, value: JSONValue)

        /// The operation's name in a patch document: `add`, `remove`, `replace`, `move`, `copy` or `test`.
        public var name: String {
            switch self {
            case .add: "add"
            case .remove: "remove"
            case .replace: "replace"
            case .move: "move"
            case .copy: "copy"
            case .test: "test"
            }
        }

        /// The location the operation acts on (for `move` and `copy`, where the value goes).
        public var path: JSONPath {
            switch self {
            case .add(let path, _), .remove(let path), .replace(let path, _), .test(let path, _): path
            case .move(_, let path), .copy(_, let path): path
            }
        }

        /// Where `move` and `copy` take their value from; `nil` for the other operations.
        public var from: JSONPath? {
            switch self {
            case .move(let from, _), .copy(let from, _): from
            case .add, .remove, .replace, .test: nil
            }
        }
    }

    /// The operations, applied in order.
    public var operations: [Operation]

    /// Creates a patch from its operations.
    public init(_ operations: [Operation]) {
        self.operations = operations
    }

    /// The patch that turns `old` into `new`, made of `add`, `remove` and `replace` operations.
    ///
    /// Keys are members' names by their code points: a member `"é"` (U+00E9) of `old` that `new` holds as
    /// `"e\u{301}"` is removed and the other added, the removal first, since one object cannot hold both.
    public init(from old: JSONValue, to new: JSONValue) {
        let changes = StateDiff(from: old, to: new, matchingElementsByID: false).changes
        var operations: [Operation] = []
        var pendingRemovals: [Operation] = []
        var removedEarly = Set<JSONPath>()
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
            case .added(let value):
                if let due = Self.removalDue(before: change.path, in: old) {
                    operations.append(.remove(path: due))
                    removedEarly.insert(due)
                }
                operations.append(.add(path: change.path, value: value))
            case .removed where removedEarly.contains(change.path): break
            case .removed: operations.append(.remove(path: change.path))
            case .moved: preconditionFailure("a diff by position has no moves")
            }
        }
        self.init(operations + pendingRemovals)
    }

    /// The path of the member of `old` that has to go before the member at `path` (an added member's) can be
    /// added, and that the diff, which lists keys in UTF-8 order, removes only later: the member whose key is
    /// canonically equivalent to the added one but not the same (see
    /// ``Swift/Dictionary/equivalentKey(standingFor:)``) and sorts after it. `nil` when there is none. The parent
    /// of an added member is at the same path in `old` as in the new value.
    private static func removalDue(before path: JSONPath, in old: JSONValue) -> JSONPath? {
        guard case .key(let key)? = path.components.last else { return nil }
        let parentPath = JSONPath(Array(path.components.dropLast()))
        guard case .object(let members)? = try? value(at: parentPath, in: old),
            let existingKey = members.equivalentKey(standingFor: key), key.utf8.lexicographicallyPrecedes(existingKey.utf8)
        else { return nil }
        return parentPath.appending(.key(existingKey))
    }

    /// A patch that changes nothing.
    public var isEmpty: Bool { operations.isEmpty }

    /// Applies the patch to `value`.
    ///
    /// The edits are made in place on the result's storage, so applying a small patch to a large value copies
    /// only the containers along the edited paths.
    /// - Returns: The patched value.
    /// - Throws: ``JSONPatchError`` naming the first operation that failed and why; nothing is applied then.
    public func apply(to value: JSONValue) throws(JSONPatchError) -> JSONValue {
        var result = value
        for (index, operation) in operations.enumerated() {
            do {
                try Self.apply(operation, to: &result)
            } catch {
                throw JSONPatchError(
                    operationIndex: index, operationName: operation.name, path: operation.path.pointer,
                    from: operation.from?.pointer, reason: error.reason)
            }
        }
        return result
    }
}

extension JSONPatch {
    /// A failed operation's reason, before the operation's index and name are added to it.
    private struct Failure: Error {
        let reason: JSONPatchError.Reason
    }

    /// A position in an array named by a reference token: an element's index, or the end (`-`).
    private enum ArrayPosition {
        case index(Int)
        case end
    }

    private static func apply(_ operation: Operation, to root: inout JSONValue) throws(Failure) {
        switch operation {
        case .add(let path, let value):
            try add(value, at: path, in: &root)
        case .remove(let path):
            _ = try remove(at: path, in: &root)
        case .replace(let path, let value):
            try replace(at: path, with: value, in: &root)
        case .move(let from, let path):
            if isSameLocation(from, path) {
                _ = try self.value(at: from, in: root)
            } else if isProperPrefix(from, of: path) {
                throw Failure(reason: .moveIntoOwnChild)
            } else {
                try add(try remove(at: from, in: &root), at: path, in: &root)
            }
        case .copy(let from, let path):
            try add(try value(at: from, in: root), at: path, in: &root)
        case .test(let path, let expected):
            let actual = try value(at: path, in: root)
            // JSONValue's `==` is JSON equality, as `test` defines it: numbers by value, strings by code points.
            guard actual == expected else {
                throw Failure(reason: .testFailed(pointer: path.pointer, actual: actual, expected: expected))
            }
        }
    }

    private static func add(_ value: JSONValue, at path: JSONPath, in root: inout JSONValue) throws(Failure) {
        guard !path.components.isEmpty else {
            root = value
            return
        }
        try withParent(of: path, in: &root) { (parent: inout JSONValue, last: JSONPath.Component) throws(Failure) in
            switch parent {
            case .object(var members):
                if let existingKey = members.equivalentKey(standingFor: last.memberName) {
                    throw Failure(reason: .equivalentKeyPresent(pointer: path.pointer, existingKey: existingKey))
                }
                parent = .null  // release the storage so the edit is in place
                members[last.memberName] = value
                parent = .object(members)
            case .array(var elements):
                let index = try insertionIndex(of: last, count: elements.count, in: path)
                parent = .null
                elements.insert(value, at: index)
                parent = .array(elements)
            default:
                throw notAContainer(parent, in: path, depth: path.components.count - 1)
            }
        }
    }

    private static func remove(at path: JSONPath, in root: inout JSONValue) throws(Failure) -> JSONValue {
        guard !path.components.isEmpty else { throw Failure(reason: .removeWholeDocument) }
        return try withParent(of: path, in: &root) {
            (parent: inout JSONValue, last: JSONPath.Component) throws(Failure) -> JSONValue in
            switch parent {
            case .object(var members):
                guard let index = members.index(forExactKey: last.memberName) else {
                    throw Failure(reason: .missing(pointer: path.pointer))
                }
                parent = .null
                let removed = members.remove(at: index).value
                parent = .object(members)
                return removed
            case .array(var elements):
                let index = try elementIndex(of: last, count: elements.count, in: path, depth: path.components.count - 1)
                parent = .null
                let removed = elements.remove(at: index)
                parent = .array(elements)
                return removed
            default:
                throw notAContainer(parent, in: path, depth: path.components.count - 1)
            }
        }
    }

    private static func replace(at path: JSONPath, with value: JSONValue, in root: inout JSONValue) throws(Failure) {
        guard !path.components.isEmpty else {
            root = value
            return
        }
        try withParent(of: path, in: &root) { (parent: inout JSONValue, last: JSONPath.Component) throws(Failure) in
            switch parent {
            case .object(var members):
                guard let index = members.index(forExactKey: last.memberName) else {
                    throw Failure(reason: .missing(pointer: path.pointer))
                }
                parent = .null
                members.values[index] = value
                parent = .object(members)
            case .array(var elements):
                let index = try elementIndex(of: last, count: elements.count, in: path, depth: path.components.count - 1)
                parent = .null
                elements[index] = value
                parent = .array(elements)
            default:
                throw notAContainer(parent, in: path, depth: path.components.count - 1)
            }
        }
    }

    /// The value at `path`.
    private static func value(at path: JSONPath, in root: JSONValue) throws(Failure) -> JSONValue {
        var node = root
        for (depth, component) in path.components.enumerated() {
            switch node {
            case .object(let members):
                guard let child = members[exactKey: component.memberName] else {
                    throw Failure(reason: .missing(pointer: pointer(of: path, depth: depth + 1)))
                }
                node = child
            case .array(let elements):
                node = elements[try elementIndex(of: component, count: elements.count, in: path, depth: depth)]
            default:
                throw notAContainer(node, in: path, depth: depth)
            }
        }
        return node
    }

    /// Calls `body` with the container that holds the last component of `path` (which is not empty), in place.
    private static func withParent<Result>(
        of path: JSONPath, in root: inout JSONValue,
        _ body: (inout JSONValue, JSONPath.Component) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try descend(&root, path: path, depth: 0, body)
    }

    private static func descend<Result>(
        _ node: inout JSONValue, path: JSONPath, depth: Int,
        _ body: (inout JSONValue, JSONPath.Component) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let component = path.components[depth]
        if depth == path.components.count - 1 { return try body(&node, component) }
        switch node {
        case .object(var members):
            guard let index = members.index(forExactKey: component.memberName) else {
                throw Failure(reason: .missing(pointer: pointer(of: path, depth: depth + 1)))
            }
            node = .null  // release the storage so the edit below is in place
            defer { node = .object(members) }
            return try descend(&members.values[index], path: path, depth: depth + 1, body)
        case .array(var elements):
            let index = try elementIndex(of: component, count: elements.count, in: path, depth: depth)
            node = .null
            defer { node = .array(elements) }
            return try descend(&elements[index], path: path, depth: depth + 1, body)
        default:
            throw notAContainer(node, in: path, depth: depth)
        }
    }

    /// Where `add` inserts into the array that holds the last component of `path`: at an index up to `count`,
    /// or at `count` for `-`.
    private static func insertionIndex(
        of component: JSONPath.Component, count: Int, in path: JSONPath
    ) throws(Failure) -> Int {
        let depth = path.components.count - 1
        switch try position(of: component, in: path, depth: depth) {
        case .end:
            return count
        case .index(let index):
            guard index <= count else {
                throw Failure(reason: .indexOutOfRange(array: pointer(of: path, depth: depth), index: index, count: count))
            }
            return index
        }
    }

    /// The index of an existing element named by `component` in the array at `depth` of `path`.
    private static func elementIndex(
        of component: JSONPath.Component, count: Int, in path: JSONPath, depth: Int
    ) throws(Failure) -> Int {
        switch try position(of: component, in: path, depth: depth) {
        case .end:
            throw Failure(reason: .endOfArrayOutsideAdd(array: pointer(of: path, depth: depth)))
        case .index(let index):
            guard index < count else {
                throw Failure(reason: .indexOutOfRange(array: pointer(of: path, depth: depth), index: index, count: count))
            }
            return index
        }
    }

    /// The array position `component` names in the array at `depth` of `path`: `0` or digits without a leading
    /// zero, or `-`.
    private static func position(
        of component: JSONPath.Component, in path: JSONPath, depth: Int
    ) throws(Failure) -> ArrayPosition {
        switch component {
        case .index(let index) where index >= 0:
            return .index(index)
        case .index(let index):
            throw Failure(reason: .notAnArrayIndex(array: pointer(of: path, depth: depth), token: String(index)))
        case .key("-"):
            return .end
        case .key(let token):
            throw Failure(reason: .notAnArrayIndex(array: pointer(of: path, depth: depth), token: token))
        case .mapKey, .identified, .setMember:
            // Made only by a diff, never read from a pointer.
            throw Failure(reason: .notAnArrayIndex(array: pointer(of: path, depth: depth), token: component.memberName))
        }
    }

    private static func notAContainer(_ value: JSONValue, in path: JSONPath, depth: Int) -> Failure {
        Failure(reason: .notAContainer(pointer: pointer(of: path, depth: depth), typeName: value.typeName))
    }

    /// The pointer to the first `depth` components of `path`.
    private static func pointer(of path: JSONPath, depth: Int) -> String {
        JSONPath(Array(path.components.prefix(depth))).pointer
    }

    private static func isSameLocation(_ from: JSONPath, _ path: JSONPath) -> Bool {
        from.components.count == path.components.count && isPrefix(from, of: path)
    }

    private static func isProperPrefix(_ from: JSONPath, of path: JSONPath) -> Bool {
        from.components.count < path.components.count && isPrefix(from, of: path)
    }

    /// Whether the tokens of `prefix` begin those of `path` (`.index(1)` and `.key("1")` are the same token).
    private static func isPrefix(_ prefix: JSONPath, of path: JSONPath) -> Bool {
        zip(prefix.components, path.components).allSatisfy { $0.memberName.utf8.elementsEqual($1.memberName.utf8) }
    }
}
