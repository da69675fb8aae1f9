import StoreKitSystem

/// A fast validating scan of one JSON object: checks the grammar and the UTF-8 by the same rules as
/// ``JSONParser`` without building any value, and reports the object's top-level members.
///
/// The daemon checks every line it stores with it, so it touches each byte once and allocates nothing per line.
/// It answers only "valid or not"; for the reason, parse the rejected line with ``JSONParser``, which names the
/// problem and its offset.
///
/// Keys must be distinct in every object, at any depth, as the parser requires. The parser compares keys as Swift
/// strings (canonically equivalent spellings are equal); the scanner compares bytes, which proves keys distinct only
/// when they are plain ASCII without escapes. So it accepts an object only when it can prove that, and gives up on
/// any key with a `\` or a byte above 0x7F: the line is then not accepted, ``metUncomparableKey`` is set, and only
/// the parser can tell.
package struct JSONLineScanner {
    /// The type of a member's value.
    package enum ValueType: Sendable, Equatable, BitwiseCopyable {
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
    /// After a scan that found the line to be the memory's last one with only some of its string, number, `true`,
    /// `false` or `null` values replaced: the top-level members whose values were replaced, bit `i` for member `i`
    /// (a line of at most 64 members). The others hold the same bytes as in that last line. `nil` after any other
    /// scan.
    package private(set) var replacedMembers: UInt64?
    /// The keys of the objects open during a scan, reused from line to line.
    private let keys = OpenObjectKeys()

    /// Creates a scanner.
    package init(maxDepth: Int = JSONParser.Limits().maxDepth) {
        self.maxDepth = maxDepth
        members.reserveCapacity(16)
    }

    /// True when the last scan stopped at a key it cannot compare by bytes (one with an escape or a byte above
    /// 0x7F): its `false` then says nothing about the line's validity, which only ``JSONParser`` can tell.
    package var metUncomparableKey: Bool { keys.contents.pointee.metUncomparableKey }

    /// Scans `line`, which must hold exactly one JSON object (surrounding whitespace allowed).
    /// - Parameters:
    ///   - line: The line's bytes.
    ///   - memory: The memory of the last valid line of the stream `line` comes from, which spares checking again
    ///     the nested objects and arrays this line repeats byte for byte; it then remembers this line if it is
    ///     valid. The verdict is the same with or without it.
    /// - Returns: True when the line is a valid object whose keys, in every object, are plain ASCII without
    ///   escapes and distinct; ``members`` then lists its top-level members. False when it is not valid, or when a
    ///   key could not be compared (see ``metUncomparableKey``).
    package mutating func scanObject(_ line: UnsafeBufferPointer<UInt8>, memory: JSONLineMemory? = nil) -> Bool {
        keys.contents.pointee.begin()
        replacedMembers = nil
        guard let start = line.baseAddress else {
            members.removeAll(keepingCapacity: true)
            return false
        }
        // An object's line ends in `}` once trailing whitespace is cut; that byte is the cursor's sentinel.
        var end = start + line.count
        while end > start, end[-1].isJSONWhitespace { end -= 1 }
        guard end > start, end[-1] == UInt8(ascii: "}") else {
            members.removeAll(keepingCapacity: true)
            return false
        }
        memory?.contents.pointee.begin(lineLength: line.count)
        let cursor = ScanCursor(start: start, end: end, maxDepth: maxDepth, memory: memory?.contents, keys: keys.contents)
        if let memory = memory?.contents, cursor.replacesScalarsOnly(of: memory) {
            replacedMembers = memory.pointee.commitReplacing(line, end: end - start)
            copyMembers(memory.pointee.members)
            return true
        }
        members.removeAll(keepingCapacity: true)
        let open = ScanCursor.token(at: start)
        let valid = open[0] == UInt8(ascii: "{") && cursor.object(at: open, depth: 1, members: &members) == end
        if valid { memory?.contents.pointee.commit(line, end: end - start, maxDepth: maxDepth, members: members) }
        return valid
    }
}

extension JSONLineScanner {
    /// Makes ``members`` the `remembered` ones, overwriting them in place when there are as many: the scanner's
    /// array is its own, so that takes no allocation.
    private mutating func copyMembers(_ remembered: JSONLineMemory.GrowingBuffer<JSONLineMemory.MemberPlace>) {
        let count = remembered.count
        if members.count != count {
            members = Array(repeating: Member(key: 0..<0, value: 0..<0, type: .null), count: count)
        }
        members.withUnsafeMutableBufferPointer { scanned in
            for index in 0..<count {
                let member = remembered.storage[index]
                // The remembered places are ordered; no need to check them again.
                scanned[index] = Member(
                    key: Range(uncheckedBounds: (member.keyStart, member.keyEnd)),
                    value: Range(uncheckedBounds: (member.valueStart, member.valueEnd)), type: member.type)
            }
        }
    }
}

/// The keys of the objects open during one scan, innermost last, as offsets in the line: each object checks its own
/// for duplicates when it closes and then drops them. Storage of its own, reached through one pointer as
/// ``JSONLineMemory`` is, kept from line to line.
final class OpenObjectKeys {
    /// One key's content (between the quotes) in the line.
    struct Key {
        var start: Int
        var count: Int
    }

    /// The keys and what the scan met.
    struct Contents {
        /// The keys of the open objects.
        var keys = JSONLineMemory.GrowingBuffer<Key>()
        /// Set when a key could not be compared by its bytes.
        var metUncomparableKey = false

        /// Prepares for the scan of a line.
        mutating func begin() {
            keys.count = 0
            metUncomparableKey = false
        }

        /// Whether two of the keys from `first` on are equal, in the line at `base`; drops them either way.
        mutating func closeObject(keysFrom first: Int, in base: UnsafePointer<UInt8>) -> Bool {
            defer { keys.count = first }
            let count = keys.count - first
            guard count > 1 else { return false }
            var objectKeys = UnsafeMutableBufferPointer(start: keys.storage + first, count: count)
            // Most objects are small: every pair, most told apart by their lengths. Larger ones: sorted, then
            // neighbours compared, so a large dictionary costs n log n, not n squared.
            if count <= Self.pairwiseLimit {
                for later in 1..<count {
                    for earlier in 0..<later where Self.same(objectKeys[earlier], objectKeys[later], in: base) {
                        return true
                    }
                }
                return false
            }
            objectKeys.sort { a, b in
                a.count != b.count ? a.count < b.count : memcmp(base + a.start, base + b.start, a.count) < 0
            }
            for index in 1..<count where Self.same(objectKeys[index - 1], objectKeys[index], in: base) { return true }
            return false
        }

        /// The most keys an object compares pair by pair.
        static let pairwiseLimit = 12

        /// Whether two keys have the same bytes.
        @inline(__always)
        static func same(_ a: Key, _ b: Key, in base: UnsafePointer<UInt8>) -> Bool {
            a.count == b.count && memcmp(base + a.start, base + b.start, a.count) == 0
        }
    }

    let contents: UnsafeMutablePointer<Contents>

    init() {
        contents = .allocate(capacity: 1)
        contents.initialize(to: Contents())
    }

    deinit {
        contents.pointee.keys.deallocate()
        contents.deinitialize(count: 1)
        contents.deallocate()
    }
}

/// What an object does with the places of its members: the outermost object lists them, nested ones drop them.
protocol MemberRecorder {
    /// Notes a member by the offsets in the line of its key's content and of its value, and its value's type.
    mutating func record(keyStart: Int, keyEnd: Int, valueStart: Int, valueEnd: Int, type: JSONLineScanner.ValueType)
}

extension Array: MemberRecorder where Element == JSONLineScanner.Member {
    mutating func record(
        keyStart: Int, keyEnd: Int, valueStart: Int, valueEnd: Int, type: JSONLineScanner.ValueType
    ) {
        append(.init(key: keyStart..<keyEnd, value: valueStart..<valueEnd, type: type))
    }
}

/// The recorder of nested objects' members, which keeps nothing.
struct NestedMembers: MemberRecorder {
    func record(keyStart: Int, keyEnd: Int, valueStart: Int, valueEnd: Int, type: JSONLineScanner.ValueType) {}
}

/// The scan of one line whose last byte (trailing whitespace cut) is a `}`: each step takes the position of
/// the first byte of what it scans and returns the position just past it, or `nil` when it is invalid.
///
/// That `}` is a sentinel: no whitespace run, number, escape or UTF-8 sequence can take it in, so they read byte
/// by byte without comparing with ``end``. Only what can cross it compares: 8-byte loads and plain bytes in
/// strings, literals, and the byte after a nested container (which may have closed on it).
struct ScanCursor {
    /// The line's first byte, from which member offsets count.
    let start: UnsafePointer<UInt8>
    /// Just past the line's closing `}`.
    let end: UnsafePointer<UInt8>
    /// The 8 bytes from a position before this one lie within the line (`start` on a shorter line: none do).
    let wordLimit: UnsafePointer<UInt8>
    /// The deepest nesting accepted, the outermost object being at depth 1.
    let maxDepth: Int
    /// The memory of the stream's last valid line, if the scan has one.
    let memory: UnsafeMutablePointer<JSONLineMemory.Contents>?
    /// The keys of the open objects.
    let keys: UnsafeMutablePointer<OpenObjectKeys.Contents>

    /// A scan of the line from `start` to `end`, the position just past its closing `}`.
    init(
        start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, maxDepth: Int,
        memory: UnsafeMutablePointer<JSONLineMemory.Contents>?, keys: UnsafeMutablePointer<OpenObjectKeys.Contents>
    ) {
        self.start = start
        self.end = end
        wordLimit = end - start >= 8 ? end - 7 : start
        self.maxDepth = maxDepth
        self.memory = memory
        self.keys = keys
    }

    /// The first byte at or after `position` that is not whitespace.
    @inline(__always)
    static func token(at position: UnsafePointer<UInt8>) -> UnsafePointer<UInt8> {
        // Whitespace is at most 0x20, and most tokens follow the last one without any.
        position[0] > 0x20 ? position : afterWhitespace(position)
    }

    /// ``token(at:)``'s loop over whitespace.
    @inline(never)
    static func afterWhitespace(_ position: UnsafePointer<UInt8>) -> UnsafePointer<UInt8> {
        var position = position
        while position[0].isJSONWhitespace { position += 1 }
        return position
    }

    /// Scans the value at `position`, in a container at `depth`; returns where it ends and its type.
    @inline(__always)
    func value(
        at position: UnsafePointer<UInt8>, depth: Int
    ) -> (end: UnsafePointer<UInt8>, type: JSONLineScanner.ValueType)? {
        let first = position[0]
        guard first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else {
            guard let scalar = scalar(at: position) else { return nil }
            memory?.pointee.noteScalar(start: position - start, end: scalar.end - start)
            return scalar
        }
        guard let end = insideLine(container(at: position, depth: depth + 1)) else { return nil }
        return (end, first == UInt8(ascii: "{") ? .object : .array)
    }

    /// Scans the string, number, `true`, `false` or `null` at `position`; returns where it ends and its type, or
    /// `nil` when it is invalid or something else.
    @inline(__always)
    func scalar(at position: UnsafePointer<UInt8>) -> (end: UnsafePointer<UInt8>, type: JSONLineScanner.ValueType)? {
        let first = position[0]
        let end: UnsafePointer<UInt8>?
        let type: JSONLineScanner.ValueType
        // Strings and numbers, most values, before the rest: a jump table would cost them more.
        if first == UInt8(ascii: "\"") {
            (end, type) = (string(from: position + 1), .string)
        } else if first &- UInt8(ascii: "0") < 10 || first == UInt8(ascii: "-") {
            (end, type) = (ScanCursor.number(at: position), .number)
        } else {
            switch first {
            case UInt8(ascii: "t"): (end, type) = (literal("true", at: position), .boolean)
            case UInt8(ascii: "f"): (end, type) = (literal("false", at: position), .boolean)
            case UInt8(ascii: "n"): (end, type) = (literal("null", at: position), .null)
            default: return nil
            }
        }
        guard let end else { return nil }
        return (end, type)
    }

    /// `position`, unless it is the line's end: a nested container that closed on the line's last `}` leaves
    /// none for its parent.
    @inline(__always)
    func insideLine(_ position: UnsafePointer<UInt8>?) -> UnsafePointer<UInt8>? {
        position == end ? nil : position
    }

    /// Scans the nested object or array at `open`, at `depth`: recalled when the memory holds the very same bytes
    /// at that place, else scanned and noted for the next line.
    @inline(__always)
    func container(at open: UnsafePointer<UInt8>, depth: Int) -> UnsafePointer<UInt8>? {
        guard let memory else { return scanContainer(at: open, depth: depth) }
        let offset = open - start
        var counterpart: Int?
        if let close = memory.pointee.recall(
            at: offset, position: open, available: end - open, depth: depth, counterpart: &counterpart)
        {
            return close
        }
        let number = memory.pointee.willScan(at: offset, depth: depth)
        guard let close = scanContainer(at: open, depth: depth) else { return nil }
        memory.pointee.scanned(number, endingAt: close - start, counterpart: counterpart)
        return close
    }

    /// Scans the nested object or array at `open`, at `depth`.
    func scanContainer(at open: UnsafePointer<UInt8>, depth: Int) -> UnsafePointer<UInt8>? {
        guard open[0] == UInt8(ascii: "{") else { return array(at: open, depth: depth) }
        var nested = NestedMembers()
        return object(at: open, depth: depth, members: &nested)
    }

    /// Scans an object at its `{`, at `depth` (1 for the outermost), and notes its members in `members`; `nil`
    /// too when two of its keys are the same or one cannot be compared by its bytes.
    func object<Members: MemberRecorder>(
        at open: UnsafePointer<UInt8>, depth: Int, members: inout Members
    ) -> UnsafePointer<UInt8>? {
        guard depth <= maxDepth else { return nil }
        var keyQuote = ScanCursor.token(at: open + 1)
        if keyQuote[0] == UInt8(ascii: "}") { return keyQuote + 1 }
        var index = 0
        let firstKey = keys.pointee.keys.count
        while true {
            guard keyQuote[0] == UInt8(ascii: "\""), let keyEnd = plainKey(from: keyQuote + 1) else { return nil }
            keys.pointee.keys.append(.init(start: keyQuote + 1 - start, count: keyEnd - 1 - (keyQuote + 1)))
            let colon = ScanCursor.token(at: keyEnd)
            guard colon[0] == UInt8(ascii: ":") else { return nil }
            let valueStart = ScanCursor.token(at: colon + 1)
            if depth == 1, let memory { memory.pointee.alignMember(index, valueAt: valueStart - start) }
            index += 1
            guard let value = value(at: valueStart, depth: depth) else { return nil }
            members.record(
                keyStart: keyQuote + 1 - start, keyEnd: keyEnd - 1 - start, valueStart: valueStart - start,
                valueEnd: value.end - start, type: value.type)
            let separator = ScanCursor.token(at: value.end)
            if separator[0] == UInt8(ascii: "}") {
                return keys.pointee.closeObject(keysFrom: firstKey, in: start) ? nil : separator + 1
            }
            guard separator[0] == UInt8(ascii: ",") else { return nil }
            keyQuote = ScanCursor.token(at: separator + 1)
        }
    }

    /// Scans an array at its `[`, at `depth`.
    func array(at open: UnsafePointer<UInt8>, depth: Int) -> UnsafePointer<UInt8>? {
        guard depth <= maxDepth else { return nil }
        var element = ScanCursor.token(at: open + 1)
        if element[0] == UInt8(ascii: "]") { return element + 1 }
        while true {
            guard let value = value(at: element, depth: depth) else { return nil }
            let separator = ScanCursor.token(at: value.end)
            if separator[0] == UInt8(ascii: "]") { return separator + 1 }
            guard separator[0] == UInt8(ascii: ",") else { return nil }
            element = ScanCursor.token(at: separator + 1)
        }
    }

    /// Scans `true`, `false` or `null`, as `word` says.
    func literal(_ word: StaticString, at position: UnsafePointer<UInt8>) -> UnsafePointer<UInt8>? {
        let length = word.utf8CodeUnitCount
        guard end - position >= length, memcmp(position, word.utf8Start, length) == 0 else { return nil }
        return position + length
    }

    /// The first byte at or after `position` that is not a digit.
    @inline(__always)
    static func afterDigits(_ position: UnsafePointer<UInt8>) -> UnsafePointer<UInt8> {
        var position = position
        while position[0] &- UInt8(ascii: "0") < 10 { position += 1 }
        return position
    }

    /// Scans a number by RFC 8259's grammar (no leading zeros, no NaN or Infinity).
    @inline(__always)
    static func number(at numberStart: UnsafePointer<UInt8>) -> UnsafePointer<UInt8>? {
        let integerStart = numberStart[0] == UInt8(ascii: "-") ? numberStart + 1 : numberStart
        guard integerStart[0] &- UInt8(ascii: "0") < 10 else { return nil }
        var position = integerStart[0] == UInt8(ascii: "0") ? integerStart + 1 : afterDigits(integerStart + 1)
        let integerDigits = position - integerStart
        if position[0] == UInt8(ascii: ".") {
            guard position[1] &- UInt8(ascii: "0") < 10 else { return nil }
            position = afterDigits(position + 2)
        }
        if position[0] | 0x20 == UInt8(ascii: "e") { return afterExponent(at: position, numberStart: numberStart) }
        // Only an exponent or a very long integer part can overflow a Double; the parser rejects those that do.
        return integerDigits <= 300 || isFiniteDouble(from: numberStart, to: position) ? position : nil
    }

    /// Scans a number's exponent at its `e` or `E`, and checks the whole number fits a Double.
    @inline(never)
    static func afterExponent(
        at exponent: UnsafePointer<UInt8>, numberStart: UnsafePointer<UInt8>
    ) -> UnsafePointer<UInt8>? {
        var position = exponent + 1
        if position[0] == UInt8(ascii: "+") || position[0] == UInt8(ascii: "-") { position += 1 }
        guard position[0] &- UInt8(ascii: "0") < 10 else { return nil }
        position = afterDigits(position)
        return isFiniteDouble(from: numberStart, to: position) ? position : nil
    }

    /// Whether the number between the two positions is within a Double's range.
    @inline(never)
    static func isFiniteDouble(from numberStart: UnsafePointer<UInt8>, to numberEnd: UnsafePointer<UInt8>) -> Bool {
        let text = String(decoding: UnsafeBufferPointer(start: numberStart, count: numberEnd - numberStart), as: UTF8.self)
        return Double(text)?.isFinite == true
    }

    /// Scans a key from just after its opening quote to just after its closing one, when it is plain ASCII without
    /// escapes; else `nil`, noting when that is because of an escape or a non-ASCII byte, which only the parser can
    /// compare.
    @inline(__always)
    func plainKey(from contentStart: UnsafePointer<UInt8>) -> UnsafePointer<UInt8>? {
        guard let position = firstSpecialByte(from: contentStart) else { return nil }
        if position[0] == UInt8(ascii: "\"") { return position + 1 }
        if position[0] == UInt8(ascii: "\\") || position[0] >= 0x80 { keys.pointee.metUncomparableKey = true }
        return nil
    }

    /// Scans a string from just after its opening quote to just after its closing one: valid UTF-8, no raw control
    /// characters, valid escapes and surrogate pairs.
    @inline(__always)
    func string(from contentStart: UnsafePointer<UInt8>) -> UnsafePointer<UInt8>? {
        var position = contentStart
        while true {
            guard let special = firstSpecialByte(from: position) else { return nil }
            if special[0] == UInt8(ascii: "\"") { return special + 1 }
            guard let next = ScanCursor.afterEscapeOrMultibyteSequence(at: special) else { return nil }
            position = next
        }
    }

    /// The first byte at or after `position` inside a string that is not plain ASCII (a quote, a backslash, a
    /// control character or a non-ASCII byte), skipping plain bytes 8 at a time; `nil` at the end of the line.
    @inline(__always)
    func firstSpecialByte(from start: UnsafePointer<UInt8>) -> UnsafePointer<UInt8>? {
        var position = start
        while true {
            if position < wordLimit {
                let special = JSONStringBytes.specialBytes(in: JSONStringBytes.word(at: position))
                guard special != 0 else {
                    position += 8
                    continue
                }
                return position + (special.trailingZeroBitCount &>> 3)
            }
            guard position < end else { return nil }
            if !JSONStringBytes.isPlain(position[0]) { return position }
            position += 1
        }
    }

    /// Scans the escape or multi-byte UTF-8 sequence at `position` in a string; `nil` when it is invalid, or when
    /// the byte there is a raw control character.
    @inline(never)
    static func afterEscapeOrMultibyteSequence(at position: UnsafePointer<UInt8>) -> UnsafePointer<UInt8>? {
        if position[0] == UInt8(ascii: "\\") { return afterEscape(at: position) }
        guard let length = utf8SequenceLength(at: position) else { return nil }
        return position + length
    }

    /// Scans the escape at `backslash`.
    static func afterEscape(at backslash: UnsafePointer<UInt8>) -> UnsafePointer<UInt8>? {
        switch backslash[1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return backslash + 2
        case UInt8(ascii: "u"):
            guard let unit = hex4(at: backslash + 2) else { return nil }
            let position = backslash + 6
            switch unit {
            case 0xD800...0xDBFF:
                guard position[0] == UInt8(ascii: "\\"), position[1] == UInt8(ascii: "u"),
                    let low = hex4(at: position + 2), (0xDC00...0xDFFF).contains(low)
                else { return nil }
                return position + 6
            case 0xDC00...0xDFFF:
                return nil
            default:
                return position
            }
        default:
            return nil
        }
    }

    /// The value of the four hex digits at `position`, or `nil`; reads no further than the first byte that is not
    /// one.
    static func hex4(at position: UnsafePointer<UInt8>) -> UInt16? {
        var value: UInt16 = 0
        for offset in 0..<4 {
            let byte = position[offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    /// The length of the valid multi-byte UTF-8 sequence at `position` (Unicode Table 3-7), or `nil`.
    static func utf8SequenceLength(at position: UnsafePointer<UInt8>) -> Int? {
        guard let (length, second) = UTF8LeadByte.sequence(startingWith: position[0]) else { return nil }
        // Byte by byte, each only after the one before is a continuation byte and so not the closing `}`.
        guard second.contains(position[1]) else { return nil }
        for offset in 2..<length where position[offset] & 0xC0 != 0x80 { return nil }
        return length
    }
}

extension UInt8 {
    /// Whether the byte is JSON whitespace: space, tab, line feed or carriage return.
    fileprivate var isJSONWhitespace: Bool {
        self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D
    }
}
