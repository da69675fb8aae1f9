/// A strict RFC 8259 JSON parser that reads UTF-8 bytes into a ``JSONValue``.
///
/// The parser works directly on the input's contiguous bytes and accepts exactly the JSON grammar: one value,
/// optionally surrounded by whitespace. It rejects what lenient parsers let through, because a session file that
/// parses differently in two tools is worse than one that does not parse:
/// trailing data, leading zeros, `NaN` and `Infinity`, unescaped control characters in strings, invalid UTF-8,
/// unpaired UTF-16 surrogates in `\u` escapes, duplicate object keys, and nesting deeper than
/// ``Limits-swift.struct/maxDepth``.
///
/// Two keys of one object are duplicates when they are equal as Swift strings, which compare by canonical
/// equivalence: `"é"` precomposed (U+00E9) and `"e"` followed by U+0301 are the same key, and the object is
/// refused. An object's members are a `[String: JSONValue]`, which could hold only one of them; refusing the
/// object keeps either member from silently replacing the other.
///
/// Numbers without a fraction or an exponent become ``JSONValue/integer(_:)`` when they fit `Int64`,
/// ``JSONValue/unsignedInteger(_:)`` when they fit `UInt64`, and ``JSONValue/bigInteger(_:)`` with their exact
/// digits otherwise, so that two different integers never read as equal. Numbers with
/// a fraction or an exponent become ``JSONValue/double(_:)``, except an integer beyond 2^53 that the double's
/// canonical text does not stand for: `9007199254740993.0` and `90071992547409930e-1` become the integer
/// `9007199254740993` (a double holds only `9007199254740992`), while `1e+23`, the canonical text of its double,
/// stays that double. Any number beyond the range of a finite `Double` (about 1.8e308) is an error, as the daemon's
/// line check says.
/// `-0` is the integer `0`.
///
/// ```swift
/// let value = try JSONParser().parse(Array(#"{"id": 3}"#.utf8))
/// ```
public struct JSONParser: Sendable {
    /// Bounds the parser enforces so that hostile input cannot exhaust the stack.
    public struct Limits: Sendable, Hashable {
        /// The deepest nesting of arrays and objects accepted. `[[1]]` has depth 2.
        public var maxDepth: Int

        /// Creates limits.
        /// - Parameter maxDepth: The deepest nesting of arrays and objects accepted; 512 unless told.
        public init(maxDepth: Int = 512) {
            self.maxDepth = maxDepth
        }
    }

    /// The limits this parser enforces.
    public var limits: Limits

    /// Creates a parser.
    /// - Parameter limits: The limits to enforce; the defaults unless told.
    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Parses one JSON document.
    /// - Parameter bytes: The document as UTF-8. Contiguous collections (`[UInt8]`, `Data`, `String.UTF8View`)
    ///   are read in place; others are copied first.
    /// - Returns: The document's value.
    /// - Throws: ``JSONParseError`` for the first problem found, with its byte offset.
    public func parse(_ bytes: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
        let result = bytes.withContiguousStorageIfAvailable { buffer in
            parseBuffer(buffer)
        }
        if let result {
            return try result.get()
        }
        let copy = Array(bytes)
        return try copy.withUnsafeBufferPointer { parseBuffer($0) }.get()
    }

    /// Parses one JSON document like ``parse(_:)``, starting from what earlier documents taught the parser and
    /// leaving what this one adds in `memory`: many documents of the same kind (a session's lines, a replay's
    /// states) then reuse their object shapes and short strings instead of learning them again each time.
    /// - Throws: ``JSONParseError`` for the first problem found, with its byte offset.
    public func parse(_ bytes: some Collection<UInt8>, memory: inout JSONParserMemory) throws(JSONParseError) -> JSONValue {
        try parse(bytes, memory: &memory, locating: nil).value
    }

    /// Parses one JSON document like ``parse(_:memory:)``, and says where the value of the top-level object's
    /// member `key` lies in `bytes` (offsets from the first byte), so that a caller can compare those bytes as they
    /// are; `nil` when the document is not an object with that member.
    /// - Parameter key: A key of at most 16 bytes of UTF-8 without escapes.
    /// - Throws: ``JSONParseError`` for the first problem found, with its byte offset.
    public func parse(
        _ bytes: some Collection<UInt8>, memory: inout JSONParserMemory, locatingMember key: String
    ) throws(JSONParseError) -> (value: JSONValue, member: Range<Int>?) {
        var key = key
        let short = key.withUTF8 { buffer in ShortKey(base: buffer.baseAddress!, range: 0..<buffer.count, inputCount: buffer.count) }
        precondition(short != nil, "locatingMember takes a key of at most 16 bytes, not '\(key)'")
        return try parse(bytes, memory: &memory, locating: short)
    }

    private func parse(
        _ bytes: some Collection<UInt8>, memory: inout JSONParserMemory, locating key: ShortKey?
    ) throws(JSONParseError) -> (value: JSONValue, member: Range<Int>?) {
        let result = bytes.withContiguousStorageIfAvailable { buffer in
            parseBuffer(buffer, memory: &memory, locating: key)
        }
        if let result {
            return try result.get()
        }
        let copy = Array(bytes)
        return try copy.withUnsafeBufferPointer { parseBuffer($0, memory: &memory, locating: key) }.get()
    }

    private func parseBuffer(_ buffer: UnsafeBufferPointer<UInt8>) -> Result<JSONValue, JSONParseError> {
        var memory = JSONParserMemory()
        return parseBuffer(buffer, memory: &memory, locating: nil).map(\.value)
    }

    private func parseBuffer(
        _ buffer: UnsafeBufferPointer<UInt8>, memory: inout JSONParserMemory, locating key: ShortKey?
    ) -> Result<(value: JSONValue, member: Range<Int>?), JSONParseError> {
        guard let base = buffer.baseAddress, !buffer.isEmpty else {
            return .failure(JSONParseError(offset: 0, message: "unexpected end of input (expected a value)"))
        }
        var reader = ByteReader(base: base, count: buffer.count, maxDepth: limits.maxDepth, memory: memory)
        memory = JSONParserMemory()  // The reader holds the only references, so its tables change in place.
        defer { memory = reader.memoryForNextDocument() }
        reader.locatedKey = key
        do throws(JSONParseError) {
            let value = try reader.parseDocument()
            return .success((value, reader.locatedRange))
        } catch {
            return .failure(error)
        }
    }
}

/// What a ``JSONParser`` learned from the documents it parsed, for the next one
/// (``JSONParser/parse(_:memory:)``): the shapes of the objects it saw and the short strings it made. Starts empty.
public struct JSONParserMemory: Sendable {
    var scratch: [UInt8] = []
    var shapeSlots: [ShapeSlot] = []
    var shortStrings: [ShortString] = []

    /// Memory of nothing yet.
    public init() {}
}

extension JSONValue {
    /// Parses a JSON document from UTF-8 bytes with the default ``JSONParser``.
    /// - Parameter bytes: The document as UTF-8.
    /// - Throws: ``JSONParseError`` for the first problem found.
    public init(parsing bytes: some Collection<UInt8>) throws(JSONParseError) {
        self = try JSONParser().parse(bytes)
    }

    /// Parses a JSON document from a string with the default ``JSONParser``.
    /// - Parameter string: The document.
    /// - Throws: ``JSONParseError`` for the first problem found; offsets count the string's UTF-8 bytes.
    public init(parsing string: String) throws(JSONParseError) {
        var string = string
        let result = string.withUTF8 { buffer in
            Result { () throws(JSONParseError) -> JSONValue in try JSONParser().parse(buffer) }
        }
        self = try result.get()
    }
}

// MARK: - The reader

private enum ASCII {
    static let quote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")
    static let slash = UInt8(ascii: "/")
    static let comma = UInt8(ascii: ",")
    static let colon = UInt8(ascii: ":")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let minus = UInt8(ascii: "-")
    static let plus = UInt8(ascii: "+")
    static let dot = UInt8(ascii: ".")
    static let zero = UInt8(ascii: "0")
    static let nine = UInt8(ascii: "9")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let newline = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
}

/// The parsing state over one contiguous input. Everything here is internal to the parser.
private struct ByteReader {
    let base: UnsafePointer<UInt8>
    let count: Int
    let maxDepth: Int
    var index = 0
    var depth = 0
    /// Reused buffer for strings that contain escapes.
    var scratch: [UInt8] = []
    /// The keys of the objects being parsed, outermost first: each object pushes its short keys and pops them
    /// when it ends.
    var keyStack: [ShortKey] = []
    /// The object shapes learned so far, by a hash of their first key; empty until the first object.
    var shapeSlots: [ShapeSlot] = []
    /// Short strings made so far, by a hash of their bytes: values such as `"USD"` repeat, and a hit costs no
    /// allocation or validation. Empty until the first short string.
    var shortStrings: [ShortString] = []
    /// The key of the top-level member whose value's place is wanted, if any.
    var locatedKey: ShortKey?
    /// Where the value of the top-level member ``locatedKey`` lies, once parsed.
    var locatedRange: Range<Int>?

    init(base: UnsafePointer<UInt8>, count: Int, maxDepth: Int, memory: JSONParserMemory) {
        self.base = base
        self.count = count
        self.maxDepth = maxDepth
        self.scratch = memory.scratch
        self.shapeSlots = memory.shapeSlots
        self.shortStrings = memory.shortStrings
    }

    /// What this reader learned, handed over to the next document's reader.
    mutating func memoryForNextDocument() -> JSONParserMemory {
        var memory = JSONParserMemory()
        swap(&memory.scratch, &scratch)
        swap(&memory.shapeSlots, &shapeSlots)
        swap(&memory.shortStrings, &shortStrings)
        return memory
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        let value = try parseValue()
        skipWhitespace()
        if index < count {
            throw JSONParseError(offset: index, message: "unexpected data after the top-level value")
        }
        return value
    }

    // MARK: Helpers

    @inline(__always)
    mutating func skipWhitespace() {
        while index < count {
            let byte = base[index]
            guard byte == ASCII.space || byte == ASCII.newline || byte == ASCII.carriageReturn || byte == ASCII.tab
            else { return }
            index += 1
        }
    }

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= ASCII.zero && byte <= ASCII.nine
    }

    /// An error at the current position; at the end of input the message says so.
    func failure(_ expectation: String) -> JSONParseError {
        if index >= count {
            return JSONParseError(offset: count, message: "unexpected end of input (\(expectation))")
        }
        return JSONParseError(offset: index, message: expectation)
    }

    func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(start: base + range.lowerBound, count: range.count), as: UTF8.self)
    }

    func hasPrefix(_ literal: StaticString, at position: Int) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard position + length <= count else { return false }
        let pointer = literal.utf8Start
        for offset in 0..<length where base[position + offset] != pointer[offset] {
            return false
        }
        return true
    }

    // MARK: Values

    @inline(__always)
    mutating func parseValue() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        guard index < count else { throw failure("expected a value") }
        switch base[index] {
        case ASCII.openBrace:
            return try parseObject()
        case ASCII.openBracket:
            return try parseArray()
        case ASCII.quote:
            return .string(try parseString())
        case UInt8(ascii: "t"):
            try parseLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try parseLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try parseLiteral("null")
            return .null
        case ASCII.minus, ASCII.zero...ASCII.nine:
            return try parseNumber()
        case UInt8(ascii: "N"), UInt8(ascii: "I"):
            if hasPrefix("NaN", at: index) || hasPrefix("Infinity", at: index) {
                throw JSONParseError(offset: index, message: "NaN and Infinity are not valid JSON numbers")
            }
            throw failure("expected a value")
        default:
            throw failure("expected a value")
        }
    }

    mutating func parseLiteral(_ literal: StaticString) throws(JSONParseError) {
        guard hasPrefix(literal, at: index) else {
            throw JSONParseError(offset: index, message: "invalid literal, expected '\(literal)'")
        }
        index += literal.utf8CodeUnitCount
    }

    @inline(__always)
    mutating func enterContainer() throws(JSONParseError) {
        depth += 1
        if depth > maxDepth {
            throw JSONParseError(offset: index, message: "nesting deeper than the limit of \(maxDepth)")
        }
    }

    /// Parses an object at its `{`.
    ///
    /// Records usually repeat the keys of the object before them, so an object whose first key is the first key
    /// of a learned ``ObjectShape`` follows that shape: see ``parseMembers(following:)``.
    mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        index += 1  // {
        skipWhitespace()
        if index < count && base[index] == ASCII.closeBrace {
            index += 1
            depth -= 1
            return .object(.init())
        }
        guard index < count && base[index] == ASCII.quote else { throw failure("expected a string key or '}'") }
        let firstKey = try scanKey()
        var slot: Int?
        if let short = firstKey.short {
            let firstSlot = shapeSlot(for: short)
            if let shape = shapeSlots[firstSlot].shape, shape.keys[0] == short {
                return try parseMembers(following: shape)
            }
            slot = firstSlot
        }
        var members: [String: JSONValue] = .init()
        members.reserveCapacity(8)
        return try parseMembers(into: &members, from: firstKey, keysStart: keyStack.count, slot: slot)
    }

    /// Parses the members of an object from just after its first key, which is `shape`'s first key, to its `}`.
    ///
    /// The object starts as a copy of the shape's template and, while its keys are the shape's, stores each value
    /// at the index the shape knows: no key is turned into a string or hashed. At the first key that differs, or
    /// at a `}` before the shape's last key, it goes on as a plain dictionary of the members so far.
    mutating func parseMembers(following shape: ObjectShape) throws(JSONParseError) -> JSONValue {
        var members = shape.template
        var memberCount = 0
        while true {
            try skipColon()
            members.values[shape.indices[memberCount]] = try parseMemberValue(key: shape.keys[memberCount])
            memberCount += 1
            guard try skipMemberSeparator() else {
                if memberCount == shape.keys.count {
                    shapeSlots[shape.slot].candidateSignature = nil
                    depth -= 1
                    return .object(members)
                }
                let keysStart = keyStack.count
                keyStack.append(contentsOf: shape.keys[..<memberCount])
                return finishObject(
                    shape.plainMembers(members, count: memberCount), keysStart: keysStart, allKeysShort: true,
                    slot: shape.slot)
            }
            let key = try scanKey()
            if memberCount == shape.keys.count || shape.keys[memberCount] != key.short {
                let keysStart = keyStack.count
                keyStack.append(contentsOf: shape.keys[..<memberCount])
                var plain = shape.plainMembers(members, count: memberCount)
                return try parseMembers(into: &plain, from: key, keysStart: keysStart, slot: shape.slot)
            }
        }
    }

    /// Parses the members of an object into a plain dictionary, from just after the key `key` to the `}`.
    /// - Parameters:
    ///   - keysStart: Where the object's keys begin on `keyStack`; those of the members already in `members` are
    ///     there.
    ///   - slot: The shape slot of the object's first key when it is short, where its keys may become a shape.
    mutating func parseMembers(
        into members: inout [String: JSONValue], from key: PendingKey, keysStart: Int, slot: Int?
    ) throws(JSONParseError) -> JSONValue {
        var key = key
        var allKeysShort = true
        while true {
            if let short = key.short {
                keyStack.append(short)
            } else {
                allKeysShort = false
            }
            try skipColon()
            // A key with escapes is in `scratch`, which the value may reuse: it becomes a string first.
            let name = key.content.map { string($0, packed: key.short) } ?? String(decoding: scratch, as: UTF8.self)
            if members.updateValue(try parseMemberValue(key: key.short), forKey: name) != nil {
                throw JSONParseError(offset: key.offset, message: "duplicate key '\(name)'")
            }
            guard try skipMemberSeparator() else {
                return finishObject(members, keysStart: keysStart, allKeysShort: allKeysShort, slot: slot)
            }
            key = try scanKey()
        }
    }

    /// Parses a member's value after its `:`, noting where it lies when it is the top-level member wanted.
    @inline(__always)
    mutating func parseMemberValue(key: ShortKey?) throws(JSONParseError) -> JSONValue {
        guard depth == 1, let locatedKey, key == locatedKey else { return try parseValue() }
        skipWhitespace()
        let start = index
        let value = try parseValue()
        locatedRange = start..<index
        return value
    }

    /// Ends an object built as a plain dictionary, after its `}`: learns its keys as a shape when they are all
    /// short and the first one named a slot, and takes them off `keyStack`.
    mutating func finishObject(
        _ members: [String: JSONValue], keysStart: Int, allKeysShort: Bool, slot: Int?
    ) -> JSONValue {
        if allKeysShort, let slot {
            learnShape(keyStack[keysStart...], slot: slot)
        }
        keyStack.removeLast(keyStack.count - keysStart)
        depth -= 1
        return .object(members)
    }

    /// Reads an object member's key at its opening quote.
    @inline(__always)
    mutating func scanKey() throws(JSONParseError) -> PendingKey {
        let offset = index
        let content = try scanString()
        return PendingKey(
            offset: offset, content: content,
            short: content.flatMap { ShortKey(base: base, range: $0, inputCount: count) })
    }

    /// Moves past the `:` after an object key.
    @inline(__always)
    mutating func skipColon() throws(JSONParseError) {
        skipWhitespace()
        guard index < count && base[index] == ASCII.colon else { throw failure("expected ':' after an object key") }
        index += 1
    }

    /// Moves past the `,` or the `}` after an object member.
    /// - Returns: True after a `,` (the next key's opening quote is then at `index`); false after the `}`.
    @inline(__always)
    mutating func skipMemberSeparator() throws(JSONParseError) -> Bool {
        skipWhitespace()
        guard index < count else { throw failure("expected ',' or '}' after an object member") }
        switch base[index] {
        case ASCII.comma:
            index += 1
            skipWhitespace()
            guard index < count && base[index] == ASCII.quote else {
                throw failure("expected a string key after ','")
            }
            return true
        case ASCII.closeBrace:
            index += 1
            return false
        default:
            throw failure("expected ',' or '}' after an object member")
        }
    }

    /// The slot of ``shapeSlots`` for objects whose first key is `firstKey`; creates the table on first use.
    mutating func shapeSlot(for firstKey: ShortKey) -> Int {
        if shapeSlots.isEmpty {
            shapeSlots = Array(repeating: ShapeSlot(), count: 1 << ShapeSlot.indexBits)
        }
        return firstKey.tableIndex(bits: ShapeSlot.indexBits)
    }

    /// Notes the keys of an object built without a shape; the second object in a row with the same keys in `slot`
    /// makes them the slot's shape.
    mutating func learnShape(_ keys: ArraySlice<ShortKey>, slot: Int) {
        var signature: UInt64 = 0
        for key in keys { signature = key.hashValue(seed: signature) }
        if shapeSlots[slot].candidateSignature == signature {
            shapeSlots[slot] = ShapeSlot(shape: ObjectShape(keys: keys, slot: slot))
        } else {
            shapeSlots[slot].candidateSignature = signature
        }
    }

    mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        index += 1  // [
        skipWhitespace()
        var elements: [JSONValue] = []
        if index < count && base[index] == ASCII.closeBracket {
            index += 1
            depth -= 1
            return .array(elements)
        }
        // Most arrays in states are short lists: one allocation instead of growing 1, 2, 4.
        elements.reserveCapacity(4)
        while true {
            elements.append(try parseValue())
            skipWhitespace()
            guard index < count else { throw failure("expected ',' or ']' after an array element") }
            switch base[index] {
            case ASCII.comma:
                index += 1
            case ASCII.closeBracket:
                index += 1
                depth -= 1
                return .array(elements)
            default:
                throw failure("expected ',' or ']' after an array element")
            }
        }
    }

    // MARK: Numbers

    mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        var negative = false
        if base[index] == ASCII.minus {
            negative = true
            index += 1
            if hasPrefix("Infinity", at: index) {
                throw JSONParseError(offset: start, message: "NaN and Infinity are not valid JSON numbers")
            }
        }
        guard index < count && Self.isDigit(base[index]) else { throw failure("expected a digit after '-'") }

        // The digits of the integer part and then of the fraction, as one integer while it fits `UInt64`.
        var significand: UInt64 = 0
        var overflow = false
        if base[index] == ASCII.zero {
            index += 1
            if index < count && Self.isDigit(base[index]) {
                throw JSONParseError(offset: start, message: "leading zeros are not allowed in numbers")
            }
        } else {
            accumulateDigits(into: &significand, overflow: &overflow)
        }

        var isInteger = true
        var fractionDigits = 0
        if index < count && base[index] == ASCII.dot {
            isInteger = false
            index += 1
            guard index < count && Self.isDigit(base[index]) else { throw failure("expected a digit after '.'") }
            let fractionStart = index
            accumulateDigits(into: &significand, overflow: &overflow)
            fractionDigits = index - fractionStart
        }
        var exponent = 0
        if index < count && (base[index] == UInt8(ascii: "e") || base[index] == UInt8(ascii: "E")) {
            isInteger = false
            index += 1
            var negativeExponent = false
            if index < count && (base[index] == ASCII.plus || base[index] == ASCII.minus) {
                negativeExponent = base[index] == ASCII.minus
                index += 1
            }
            guard index < count && Self.isDigit(base[index]) else {
                throw failure("expected a digit in the exponent")
            }
            while index < count {
                let digit = base[index] &- ASCII.zero
                guard digit < 10 else { break }
                // Saturates far beyond any exponent a double can use, so that a long run of digits cannot overflow.
                if exponent < 100_000 { exponent = exponent * 10 + Int(digit) }
                index += 1
            }
            if negativeExponent { exponent = -exponent }
        }

        if isInteger && !overflow {
            if !negative {
                if significand <= UInt64(Int64.max) { return .integer(Int64(significand)) }
                return .unsignedInteger(significand)
            }
            if significand <= UInt64(Int64.max) { return .integer(-Int64(significand)) }
            if significand == UInt64(Int64.max) + 1 { return .integer(.min) }
        }
        if isInteger {
            // Beyond 64 bits: kept exactly, within the range of a finite double like every other number.
            let digits = text(start..<index)
            guard let double = Double(digits), double.isFinite else {
                throw JSONParseError(offset: start, message: "number \(digits) is too large for a double")
            }
            return .bigInteger(digits)
        }
        if !overflow,
            let magnitude = DecimalFastPath.double(significand: significand, exponent: exponent - fractionDigits)
        {
            return exactNumber(negative ? -magnitude : magnitude, start: start)
        }
        let literal = text(start..<index)
        guard let double = Double(literal), double.isFinite else {
            throw JSONParseError(offset: start, message: "number \(literal) is too large for a double")
        }
        return exactNumber(double, start: start)
    }

    /// The number with a fraction or an exponent from `start` to here, whose nearest double is `double`: that
    /// double, unless the number's value is an integer beyond 2^53 other than the one the double's canonical text
    /// stands for (`9007199254740993.0`, whose double is `9007199254740992.0`), which becomes that exact integer.
    private func exactNumber(_ double: Double, start: Int) -> JSONValue {
        guard double.magnitude >= 0x1p53,
            let digits = IntegralDecimal.digits(of: UnsafeBufferPointer(start: base + start, count: index - start)),
            digits != IntegralDecimal.digits(ofWhole: double)
        else { return .double(double) }
        return JSONValue(integerDigits: digits)
    }

    /// Reads a run of decimal digits, appending them to `value`; sets `overflow` once `value` no longer fits.
    @inline(__always)
    mutating func accumulateDigits(into value: inout UInt64, overflow: inout Bool) {
        while index < count {
            let digit = base[index] &- ASCII.zero
            guard digit < 10 else { return }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
            value = sum
            overflow = overflow || overflow1 || overflow2
            index += 1
        }
    }

    // MARK: Strings

    /// Parses a string starting at its opening quote, validating UTF-8 and decoding escapes.
    mutating func parseString() throws(JSONParseError) -> String {
        if let content = try scanString() {
            return string(content)
        }
        return String(decoding: scratch, as: UTF8.self)
    }

    /// The string of the UTF-8 in `range`, which the parser has validated; short ones come from ``shortStrings``.
    @inline(__always)
    mutating func string(_ range: Range<Int>) -> String {
        string(range, packed: ShortKey(base: base, range: range, inputCount: count))
    }

    /// The string of the UTF-8 in `range`, whose bytes `packed` holds when there are at most 16 of them.
    @inline(__always)
    mutating func string(_ range: Range<Int>, packed: ShortKey?) -> String {
        guard let key = packed else { return text(range) }
        if shortStrings.isEmpty {
            shortStrings = Array(repeating: ShortString(), count: 1 << ShortString.indexBits)
        }
        let slot = key.tableIndex(bits: ShortString.indexBits)
        if shortStrings[slot].bytes == key {
            return shortStrings[slot].string
        }
        let string = text(range)
        shortStrings[slot] = ShortString(bytes: key, string: string)
        return string
    }

    /// Reads a string starting at its opening quote, validating UTF-8, and moves past its closing quote.
    /// - Returns: The range of its content between the quotes when it has no escapes; otherwise `nil`, with the
    ///   decoded content in `scratch`.
    @inline(__always)
    mutating func scanString() throws(JSONParseError) -> Range<Int>? {
        let openingQuote = index
        index += 1
        let contentStart = index
        if try moveToQuoteOrBackslash(openingQuote: openingQuote) == ASCII.quote {
            index += 1
            return contentStart..<(index - 1)
        }
        scratch.removeAll(keepingCapacity: true)
        try scanEscapedString(openingQuote: openingQuote, segmentStart: contentStart)
        return nil
    }

    /// Finishes a string at its first backslash, decoding it into `scratch`, and moves past its closing quote.
    /// - Parameter segmentStart: Where the content not yet copied to `scratch` begins.
    mutating func scanEscapedString(openingQuote: Int, segmentStart: Int) throws(JSONParseError) {
        var segmentStart = segmentStart
        while true {
            appendSegment(segmentStart..<index)
            guard base[index] == ASCII.backslash else {
                index += 1  // the closing quote
                return
            }
            try parseEscape(openingQuote: openingQuote)
            segmentStart = index
            _ = try moveToQuoteOrBackslash(openingQuote: openingQuote)
        }
    }

    /// Moves to the next `"` or `\` of the string whose opening quote is at `openingQuote`, checking the bytes it
    /// passes, and returns that byte.
    /// - Throws: At the end of the input, for a control character, or for invalid UTF-8.
    @inline(__always)
    mutating func moveToQuoteOrBackslash(openingQuote: Int) throws(JSONParseError) -> UInt8 {
        while true {
            skipPlainASCII()
            guard index < count else {
                throw JSONParseError(offset: openingQuote, message: "unterminated string")
            }
            let byte = base[index]
            if byte == ASCII.quote || byte == ASCII.backslash { return byte }
            try skipSpecialStringByte()
        }
    }

    /// Moves past the plain ASCII at `index` (printable, neither `"` nor `\`), eight bytes at a time while eight
    /// remain; stops at the first other byte, or before the last seven bytes of the input.
    @inline(__always)
    mutating func skipPlainASCII() {
        while index &+ 8 <= count {
            let word = UInt64(littleEndian: JSONStringBytes.word(at: base + index))
            let special = JSONStringBytes.specialBytes(in: word)
            if special != 0 {
                index &+= special.trailingZeroBitCount &>> 3
                return
            }
            index &+= 8
        }
    }

    /// Moves past the byte at `index` inside a string, which is neither `"` nor `\`: one plain ASCII byte or a
    /// whole valid UTF-8 sequence.
    /// - Throws: For a control character or invalid UTF-8.
    @inline(__always)
    mutating func skipSpecialStringByte() throws(JSONParseError) {
        let byte = base[index]
        if byte < 0x20 {
            throw JSONParseError(
                offset: index, message: "control character \(Unicode.Scalar(byte).notation) must be escaped in a string")
        } else if byte < 0x80 {
            index += 1
        } else {
            index += try utf8SequenceLength()
        }
    }

    mutating func appendSegment(_ range: Range<Int>) {
        scratch.append(contentsOf: UnsafeBufferPointer(start: base + range.lowerBound, count: range.count))
    }

    /// Parses one escape starting at its backslash and appends its UTF-8 to `scratch`.
    mutating func parseEscape(openingQuote: Int) throws(JSONParseError) {
        let escapeOffset = index
        index += 1
        guard index < count else { throw JSONParseError(offset: openingQuote, message: "unterminated string") }
        let byte = base[index]
        index += 1
        switch byte {
        case ASCII.quote: scratch.append(ASCII.quote)
        case ASCII.backslash: scratch.append(ASCII.backslash)
        case ASCII.slash: scratch.append(ASCII.slash)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(ASCII.newline)
        case UInt8(ascii: "r"): scratch.append(ASCII.carriageReturn)
        case UInt8(ascii: "t"): scratch.append(ASCII.tab)
        case UInt8(ascii: "u"):
            let unit = try parseHex4(escapeOffset: escapeOffset)
            let scalarValue: UInt32
            switch unit {
            case 0xD800...0xDBFF:
                guard hasPrefix("\\u", at: index) else { throw loneSurrogate(unit, at: escapeOffset) }
                let lowOffset = index
                index += 2
                let low = try parseHex4(escapeOffset: lowOffset)
                guard (0xDC00...0xDFFF).contains(low) else { throw loneSurrogate(unit, at: escapeOffset) }
                scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            case 0xDC00...0xDFFF:
                throw loneSurrogate(unit, at: escapeOffset)
            default:
                scalarValue = UInt32(unit)
            }
            // Every value here is a valid scalar: surrogates were handled above.
            let scalar = Unicode.Scalar(scalarValue) ?? "\u{FFFD}"
            scratch.append(contentsOf: UTF8.encode(scalar)!)
        default:
            let shown = byte >= 0x20 && byte < 0x7F ? "'\\\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(Self.hex2(byte))"
            throw JSONParseError(offset: escapeOffset, message: "invalid escape \(shown) in a string")
        }
    }

    static func hex2(_ byte: UInt8) -> String {
        let hex = String(byte, radix: 16, uppercase: true)
        return hex.count == 1 ? "0" + hex : hex
    }

    func loneSurrogate(_ unit: UInt16, at offset: Int) -> JSONParseError {
        JSONParseError(
            offset: offset, message: "lone surrogate '\\u\(String(unit, radix: 16, uppercase: true))' in a string")
    }

    /// Reads the four hex digits after `\u`.
    mutating func parseHex4(escapeOffset: Int) throws(JSONParseError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard index < count else {
                throw JSONParseError(offset: escapeOffset, message: "invalid \\u escape: expected 4 hex digits")
            }
            let byte = base[index]
            let digit: UInt8
            switch byte {
            case ASCII.zero...ASCII.nine: digit = byte - ASCII.zero
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default:
                throw JSONParseError(offset: escapeOffset, message: "invalid \\u escape: expected 4 hex digits")
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    /// Validates the multi-byte UTF-8 sequence at `index` (Unicode Table 3-7) and returns its length.
    func utf8SequenceLength() throws(JSONParseError) -> Int {
        guard let (length, secondRange) = UTF8LeadByte.sequence(startingWith: base[index]) else { throw invalidUTF8() }
        guard index + length <= count, secondRange.contains(base[index + 1]) else { throw invalidUTF8() }
        for offset in 2..<length where base[index + offset] & 0xC0 != 0x80 {
            throw invalidUTF8()
        }
        return length
    }

    func invalidUTF8() -> JSONParseError {
        JSONParseError(offset: index, message: "invalid UTF-8 byte 0x\(Self.hex2(base[index])) in a string")
    }
}
