/// A fast validating scan of one JSON object: checks the grammar and the UTF-8 by the same rules as
/// ``JSONParser`` without building any value, and reports the object's top-level members.
///
/// The daemon checks every line it stores with it, so it touches each byte once and allocates nothing per line.
/// It answers only "valid or not"; for the reason, parse the rejected line with ``JSONParser``, which names the
/// problem and its offset. Unlike the parser it does not look for duplicate keys below the top level.
package struct JSONLineScanner {
    /// The type of a member's value.
    package enum ValueType: Sendable, Equatable {
        case object, array, string, number, boolean, null
    }

    /// One top-level member: where its key's content (between the quotes) and its value lie in the line.
    package struct Member: Sendable, Equatable {
        /// The key's bytes between the quotes, escapes undecoded.
        package var key: Range<Int>
        /// The value's bytes.
        package var value: Range<Int>
        /// The value's type.
        package var type: ValueType
    }

    /// The deepest nesting accepted, as ``JSONParser/Limits-swift.struct/maxDepth``.
    package var maxDepth: Int
    /// The top-level members of the last object scanned.
    package private(set) var members: [Member] = []

    /// Creates a scanner.
    package init(maxDepth: Int = JSONParser.Limits().maxDepth) {
        self.maxDepth = maxDepth
        members.reserveCapacity(16)
    }

    /// Scans `line`, which must hold exactly one JSON object (surrounding whitespace allowed).
    /// - Returns: True when the line is a valid object with distinct top-level keys; ``members`` then lists them.
    package mutating func scanObject(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        members.removeAll(keepingCapacity: true)
        guard let base = line.baseAddress else { return false }
        var cursor = Cursor(base: base, count: line.count, maxDepth: maxDepth)
        swap(&cursor.members, &members)
        defer { swap(&cursor.members, &members) }
        cursor.skipWhitespace()
        guard cursor.index < cursor.count, base[cursor.index] == UInt8(ascii: "{"), cursor.object() else {
            return false
        }
        cursor.skipWhitespace()
        return cursor.index == cursor.count && !cursor.hasDuplicateTopLevelKey()
    }

}

/// The scanning state over one line.
private struct Cursor {
    let base: UnsafePointer<UInt8>
    let count: Int
    let maxDepth: Int
    var index = 0
    var depth = 0
    /// The members of the outermost object.
    var members: [JSONLineScanner.Member] = []

    init(base: UnsafePointer<UInt8>, count: Int, maxDepth: Int) {
        self.base = base
        self.count = count
        self.maxDepth = maxDepth
    }

    mutating func skipWhitespace() {
        while index < count {
            switch base[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// Scans the value at `index` and returns its type, or `nil` when it is invalid.
    mutating func value() -> JSONLineScanner.ValueType? {
        guard index < count else { return nil }
        switch base[index] {
        case UInt8(ascii: "{"): return object() ? .object : nil
        case UInt8(ascii: "["): return array() ? .array : nil
        case UInt8(ascii: "\""): return string() ? .string : nil
        case UInt8(ascii: "t"): return literal("true") ? .boolean : nil
        case UInt8(ascii: "f"): return literal("false") ? .boolean : nil
        case UInt8(ascii: "n"): return literal("null") ? .null : nil
        default: return number() ? .number : nil
        }
    }

    func hasDuplicateTopLevelKey() -> Bool {
        for (offset, member) in members.enumerated() {
            for other in members[(offset + 1)...] where other.key.count == member.key.count {
                if memcmp(base + member.key.lowerBound, base + other.key.lowerBound, member.key.count) == 0 {
                    return true
                }
            }
        }
        return false
    }

    /// Scans an object at its `{`; records its members in ``members`` when it is the outermost one.
    mutating func object() -> Bool {
        depth += 1
        guard depth <= maxDepth else { return false }
        defer { depth -= 1 }
        index += 1
        skipWhitespace()
        if index < count && base[index] == UInt8(ascii: "}") {
            index += 1
            return true
        }
        while true {
            guard index < count, base[index] == UInt8(ascii: "\"") else { return false }
            let keyStart = index + 1
            guard string() else { return false }
            let key = keyStart..<(index - 1)
            skipWhitespace()
            guard index < count, base[index] == UInt8(ascii: ":") else { return false }
            index += 1
            skipWhitespace()
            let valueStart = index
            guard let type = value() else { return false }
            if depth == 1 { members.append(.init(key: key, value: valueStart..<index, type: type)) }
            skipWhitespace()
            guard index < count else { return false }
            if base[index] == UInt8(ascii: "}") {
                index += 1
                return true
            }
            guard base[index] == UInt8(ascii: ",") else { return false }
            index += 1
            skipWhitespace()
        }
    }

    mutating func array() -> Bool {
        depth += 1
        guard depth <= maxDepth else { return false }
        defer { depth -= 1 }
        index += 1
        skipWhitespace()
        if index < count && base[index] == UInt8(ascii: "]") {
            index += 1
            return true
        }
        while true {
            guard value() != nil else { return false }
            skipWhitespace()
            guard index < count else { return false }
            if base[index] == UInt8(ascii: "]") {
                index += 1
                return true
            }
            guard base[index] == UInt8(ascii: ",") else { return false }
            index += 1
            skipWhitespace()
        }
    }

    mutating func literal(_ word: StaticString) -> Bool {
        let length = word.utf8CodeUnitCount
        guard index + length <= count, memcmp(base + index, word.utf8Start, length) == 0 else { return false }
        index += length
        return true
    }

    mutating func digits() -> Int {
        let start = index
        while index < count, base[index] &- UInt8(ascii: "0") < 10 { index += 1 }
        return index - start
    }

    /// Scans a number by RFC 8259's grammar (no leading zeros, no NaN or Infinity).
    mutating func number() -> Bool {
        let start = index
        if base[index] == UInt8(ascii: "-") { index += 1 }
        guard index < count else { return false }
        var integerDigits = 1
        if base[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            integerDigits = digits()
            guard integerDigits > 0 else { return false }
        }
        if index < count && base[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return false }
        }
        var hasExponent = false
        if index < count && (base[index] == UInt8(ascii: "e") || base[index] == UInt8(ascii: "E")) {
            hasExponent = true
            index += 1
            if index < count && (base[index] == UInt8(ascii: "+") || base[index] == UInt8(ascii: "-")) { index += 1 }
            guard digits() > 0 else { return false }
        }
        // Only an exponent or a very long integer part can overflow a Double; the parser rejects those that do.
        guard hasExponent || integerDigits > 300 else { return true }
        let text = String(decoding: UnsafeBufferPointer(start: base + start, count: index - start), as: UTF8.self)
        return Double(text)?.isFinite == true
    }

    /// Scans a string at its opening quote: valid UTF-8, no raw control characters, valid escapes and surrogate
    /// pairs.
    mutating func string() -> Bool {
        index += 1
        while index < count {
            // Plain ASCII runs, 8 bytes at a time: no quote, backslash, control character or non-ASCII byte.
            while index &+ 8 <= count,
                !JSONStringBytes.hasSpecialByte(JSONStringBytes.word(at: base + index))
            {
                index &+= 8
            }
            guard index < count else { return false }
            let byte = base[index]
            if byte >= 0x20 && byte < 0x80 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                index += 1
            } else if byte == UInt8(ascii: "\"") {
                index += 1
                return true
            } else if byte == UInt8(ascii: "\\") {
                guard escape() else { return false }
            } else if byte < 0x20 {
                return false
            } else {
                guard let length = utf8SequenceLength() else { return false }
                index += length
            }
        }
        return false
    }

    mutating func escape() -> Bool {
        index += 1
        guard index < count else { return false }
        let byte = base[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return true
        case UInt8(ascii: "u"):
            guard let unit = hex4() else { return false }
            switch unit {
            case 0xD800...0xDBFF:
                guard index + 1 < count, base[index] == UInt8(ascii: "\\"), base[index + 1] == UInt8(ascii: "u") else {
                    return false
                }
                index += 2
                guard let low = hex4() else { return false }
                return (0xDC00...0xDFFF).contains(low)
            case 0xDC00...0xDFFF:
                return false
            default:
                return true
            }
        default:
            return false
        }
    }

    mutating func hex4() -> UInt16? {
        guard index + 4 <= count else { return nil }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = base[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    /// The length of the valid multi-byte UTF-8 sequence at `index` (Unicode Table 3-7), or `nil`.
    func utf8SequenceLength() -> Int? {
        let lead = base[index]
        let length: Int
        var second: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; second = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; second = 0x80...0x9F
        case 0xF0: length = 4; second = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; second = 0x80...0x8F
        default: return nil
        }
        guard index + length <= count, second.contains(base[index + 1]) else { return nil }
        for offset in 2..<length where base[index + offset] & 0xC0 != 0x80 { return nil }
        return length
    }
}
