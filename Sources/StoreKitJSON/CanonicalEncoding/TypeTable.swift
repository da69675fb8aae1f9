/// A map from types to what the byte writer learned about them, looked up by the address of the type's metadata
/// with open addressing: the writer asks it for almost every value it writes, and a `Dictionary` would hash each
/// `ObjectIdentifier` with SipHash.
struct TypeTable<Value> {
    private var keys: [ObjectIdentifier?]
    private var values: [Value?]
    private var used = 0

    /// Creates an empty table.
    init() {
        keys = Array(repeating: nil, count: 64)
        values = Array(repeating: nil, count: 64)
    }

    /// What is held for `type`, if anything.
    @inline(__always)
    subscript(type: Any.Type) -> Value? {
        let id = ObjectIdentifier(type)
        var index = Self.start(of: id, in: keys.count)
        while let key = keys[index] {
            if key == id { return values[index] }
            index = (index + 1) & (keys.count - 1)
        }
        return nil
    }

    /// Holds `value` for `type`, replacing what was held.
    mutating func set(_ value: Value, for type: Any.Type) {
        let id = ObjectIdentifier(type)
        if used * 2 >= keys.count { grow() }
        var index = Self.start(of: id, in: keys.count)
        while let key = keys[index], key != id { index = (index + 1) & (keys.count - 1) }
        if keys[index] == nil { used += 1 }
        keys[index] = id
        values[index] = value
    }

    private mutating func grow() {
        let old = zip(keys, values)
        keys = Array(repeating: nil, count: keys.count * 2)
        values = Array(repeating: nil, count: values.count * 2)
        for case (let key?, let value?) in old {
            var index = Self.start(of: key, in: keys.count)
            while keys[index] != nil { index = (index + 1) & (keys.count - 1) }
            keys[index] = key
            values[index] = value
        }
    }

    /// Where the search for `id` begins in a table of `size` (a power of two) slots: its address, scrambled by a
    /// multiplication so that metadata laid out at regular intervals spreads over the slots.
    @inline(__always)
    private static func start(of id: ObjectIdentifier, in size: Int) -> Int {
        let scrambled = UInt64(UInt(bitPattern: id)) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: scrambled >> 32) & (size - 1)
    }
}
