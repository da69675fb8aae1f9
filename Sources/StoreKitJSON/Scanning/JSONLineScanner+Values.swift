extension JSONLineScanner {
    /// The value of a top-level member of a line this scanner found valid, the same as ``JSONParser`` would give
    /// for those bytes.
    ///
    /// A reader that needs a few of a line's members, and not the whole object, builds just those: strings without
    /// escapes, literals, and plain integers and decimals directly from their bytes, which the scan already checked;
    /// anything else (escapes, exponents, objects, arrays) through the parser, with `memory`; objects and arrays
    /// met among the `recent` ones are taken from there. `nil` only when the parser refuses the bytes, which a valid
    /// scan rules out.
    package static func value(
        of member: Member, in line: UnsafeBufferPointer<UInt8>, memory: inout JSONParserMemory,
        recent: inout RecentValues
    ) -> JSONValue? {
        let bytes = UnsafeBufferPointer(rebasing: line[member.value])
        switch member.type {
        case .null:
            return .null
        case .boolean:
            return .bool(bytes.count == 4)
        case .string:
            let content = UnsafeBufferPointer(rebasing: bytes.dropFirst().dropLast())
            if !content.contains(UInt8(ascii: "\\")) { return .string(String(decoding: content, as: UTF8.self)) }
        case .number:
            if let number = plainNumber(bytes) { return number }
        case .object, .array:
            return recent.value(for: bytes) { try? JSONParser().parse(bytes, memory: &memory) }
        }
        return try? JSONParser().parse(bytes, memory: &memory)
    }

    /// A number without an exponent whose value the parser takes on its fast path: a non-negative integer of at
    /// most 18 digits, or a decimal with a fraction and at most 19 digits in all; `nil` for any other.
    private static func plainNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONValue? {
        guard let dot = bytes.firstIndex(of: UInt8(ascii: ".")) else {
            return plainInteger(bytes).map(JSONValue.integer)
        }
        guard !bytes[dot...].contains(where: { $0 | 0x20 == UInt8(ascii: "e") }),
            let double = DecimalFastPath.double(plainDecimal: bytes)
        else { return nil }
        return .double(double)
    }

    /// The value of `bytes` when they are a plain decimal integer: one to 18 digits, no sign, fraction or exponent,
    /// so it fits `Int64`; `nil` for anything else.
    @inlinable
    package static func plainInteger(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard !bytes.isEmpty, bytes.count <= 18 else { return nil }
        var value: Int64 = 0
        for byte in bytes {
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value * 10 + Int64(digit)
        }
        return value
    }
}
