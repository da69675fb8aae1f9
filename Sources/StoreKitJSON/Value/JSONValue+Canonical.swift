extension JSONValue {
    /// The value as canonical JSON bytes: no whitespace, keys sorted by their UTF-8 bytes, minimal escapes,
    /// integers in decimal, doubles in their shortest round-trip form with a `.` or an exponent.
    ///
    /// Parsing the bytes gives back an equal value. Equal values give equal bytes, except numbers equal by value
    /// but held as different kinds: ``integer(_:)`` `1` is `1`, ``double(_:)`` `1.0` is `1.0`.
    public func canonicalBytes() -> [UInt8] {
        var buffer: [UInt8] = []
        writeCanonical(to: &buffer)
        return buffer
    }

    /// The value as a canonical JSON string (see ``canonicalBytes()``).
    public var canonicalString: String {
        String(decoding: canonicalBytes(), as: UTF8.self)
    }

    /// Appends the canonical JSON of the value to `buffer`.
    public func writeCanonical(to buffer: inout [UInt8]) {
        switch self {
        case .null:
            buffer.append(contentsOf: "null".utf8)
        case .bool(let value):
            buffer.append(contentsOf: (value ? "true" : "false").utf8)
        case .integer(let value):
            buffer.append(contentsOf: String(value).utf8)
        case .unsignedInteger(let value):
            buffer.append(contentsOf: String(value).utf8)
        case .bigInteger(let digits):
            buffer.append(contentsOf: digits.utf8)
        case .double(let value):
            Self.withCanonicalNumber(value) { buffer.append(contentsOf: $0) }
        case .string(let value):
            Self.writeString(value, to: &buffer)
        case .array(let elements):
            buffer.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { buffer.append(UInt8(ascii: ",")) }
                element.writeCanonical(to: &buffer)
            }
            buffer.append(UInt8(ascii: "]"))
        case .object(let members):
            buffer.append(UInt8(ascii: "{"))
            for (index, member) in Self.sortedMembers(members).enumerated() {
                if index > 0 { buffer.append(UInt8(ascii: ",")) }
                Self.writeString(member.key, to: &buffer)
                buffer.append(UInt8(ascii: ":"))
                member.value.writeCanonical(to: &buffer)
            }
            buffer.append(UInt8(ascii: "}"))
        }
    }

    /// The value as indented JSON with sorted keys, for people to read.
    /// - Parameter indent: Spaces per level.
    public func prettyString(indent: Int = 2) -> String {
        var buffer: [UInt8] = []
        writePretty(to: &buffer, indent: indent, level: 0)
        return String(decoding: buffer, as: UTF8.self)
    }

    private func writePretty(to buffer: inout [UInt8], indent: Int, level: Int) {
        switch self {
        case .array(let elements) where !elements.isEmpty:
            buffer.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { buffer.append(UInt8(ascii: ",")) }
                Self.writeLineBreak(indentedBy: indent * (level + 1), to: &buffer)
                element.writePretty(to: &buffer, indent: indent, level: level + 1)
            }
            Self.writeLineBreak(indentedBy: indent * level, to: &buffer)
            buffer.append(UInt8(ascii: "]"))
        case .object(let members) where !members.isEmpty:
            buffer.append(UInt8(ascii: "{"))
            for (index, member) in Self.sortedMembers(members).enumerated() {
                if index > 0 { buffer.append(UInt8(ascii: ",")) }
                Self.writeLineBreak(indentedBy: indent * (level + 1), to: &buffer)
                Self.writeString(member.key, to: &buffer)
                buffer.append(UInt8(ascii: ":"))
                buffer.append(UInt8(ascii: " "))
                member.value.writePretty(to: &buffer, indent: indent, level: level + 1)
            }
            Self.writeLineBreak(indentedBy: indent * level, to: &buffer)
            buffer.append(UInt8(ascii: "}"))
        default:
            writeCanonical(to: &buffer)
        }
    }

    /// Appends a line break and `spaces` spaces.
    private static func writeLineBreak(indentedBy spaces: Int, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\n"))
        buffer.append(contentsOf: repeatElement(UInt8(ascii: " "), count: spaces))
    }

    /// An object's members in canonical order: by their keys' UTF-8 bytes.
    static func sortedMembers(_ members: [String: JSONValue]) -> [(key: String, value: JSONValue)] {
        members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    }

    /// The shortest text that reads back as `value`, always with a `.` or an exponent.
    static func canonicalNumber(_ value: Double) -> String {
        let text = value.description
        if text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
            return text
        }
        return text + ".0"
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Whether `utf8` holds a byte JSON must escape in a string: a control character, a quote or a backslash.
    static func needsEscaping(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = utf8.baseAddress else { return false }
        // Plain ASCII 8 bytes at a time; the rest (and anything non-ASCII) byte by byte.
        var index = 0
        while index &+ 8 <= utf8.count,
            !JSONStringBytes.hasSpecialByte(JSONStringBytes.word(at: base + index))
        {
            index &+= 8
        }
        for byte in utf8[index...] where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
            return true
        }
        return false
    }

    /// Appends `string` as a JSON string literal with minimal escapes.
    package static func writeString(_ string: String, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            if !needsEscaping(utf8) {
                buffer.append(contentsOf: utf8)
            } else {
                writeEscaped(utf8, to: &buffer)
            }
        }
        buffer.append(UInt8(ascii: "\""))
    }

    /// Appends UTF-8 bytes with `"`, `\` and control characters escaped (without the surrounding quotes).
    static func writeEscaped(_ utf8: some Sequence<UInt8>, to buffer: inout [UInt8]) {
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "\""): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x00..<0x20:
                buffer.append(contentsOf: "\\u00".utf8)
                buffer.append(hexDigits[Int(byte >> 4)])
                buffer.append(hexDigits[Int(byte & 0x0F)])
            default: buffer.append(byte)
            }
        }
    }
}
