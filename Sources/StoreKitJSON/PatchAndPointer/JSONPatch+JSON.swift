extension JSONPatch {
    /// The patch in RFC 6902 form: `[{"op":"replace","path":"/todos/0/isComplete","value":true}, ...]`.
    public var jsonValue: JSONValue {
        .array(
            operations.map { operation in
                switch operation {
                case .add(let path, let value), .replace(let path, let value), .test(let path, let value):
                    .object(["op": .string(operation.name), "path": .string(path.pointer), "value": value])
                case .remove(let path):
                    .object(["op": .string("remove"), "path": .string(path.pointer)])
                case .move(let from, let path), .copy(let from, let path):
                    .object(
                        ["op": .string(operation.name), "from": .string(from.pointer), "path": .string(path.pointer)])
                }
            })
    }
}
