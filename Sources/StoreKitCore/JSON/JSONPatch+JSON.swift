extension JSONPatch {
    /// The patch in RFC 6902 form: `[{"op":"replace","path":"/todos/0/isComplete","value":true}, ...]`.
    public var jsonValue: JSONValue {
        .array(
            operations.map { operation in
                switch operation {
                case .add(let path, let value):
                    .object(["op": .string("add"), "path": .string(path.pointer), "value": value])
                case .remove(let path):
                    .object(["op": .string("remove"), "path": .string(path.pointer)])
                case .replace(let path, let value):
                    .object(["op": .string("replace"), "path": .string(path.pointer), "value": value])
                }
            })
    }
}
