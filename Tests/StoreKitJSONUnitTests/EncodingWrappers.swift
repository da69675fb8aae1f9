/// `value` under the key `value`, through the byte writer.
struct Wrapped<Value: Encodable>: Encodable {
    var value: Value
}

/// `value` under the key `value` through a super encoder, which the byte writer hands to the tree encoder: the
/// reference the fast paths' bytes and the writer's notes are compared with.
struct TreeOnly<Value: Encodable>: Encodable {
    var value: Value
    private enum Keys: String, CodingKey { case value }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try value.encode(to: container.superEncoder(forKey: .value))
    }
}
