import Foundation

/// A growable byte buffer on raw memory, for hot encoding loops: appends go through a pointer, so they pay
/// neither copy-on-write uniqueness checks nor dynamic exclusivity checks.
final class ByteBuffer {
    private struct Storage {
        var base: UnsafeMutablePointer<UInt8>
        var count: Int
        var capacity: Int
    }

    private let storage: UnsafeMutablePointer<Storage>

    init(capacity: Int = 1024) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: Storage(base: .allocate(capacity: capacity), count: 0, capacity: capacity))
    }

    deinit {
        storage.pointee.base.deallocate()
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    /// How many bytes are written.
    var count: Int { storage.pointee.count }

    /// How many bytes it holds room for.
    var capacity: Int { storage.pointee.capacity }

    /// The bytes written, copied into an array.
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: storage.pointee.base, count: storage.pointee.count)) }

    /// The bytes in `range`, copied.
    subscript(range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: storage.pointee.base + range.lowerBound, count: range.count)
    }

    @inline(__always)
    private func reserve(_ extra: Int) {
        if storage.pointee.count + extra > storage.pointee.capacity { grow(toHold: extra) }
    }

    private func grow(toHold extra: Int) {
        let capacity = max(storage.pointee.count + extra, storage.pointee.capacity * 2)
        let base = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        base.update(from: storage.pointee.base, count: storage.pointee.count)
        storage.pointee.base.deallocate()
        storage.pointee.base = base
        storage.pointee.capacity = capacity
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        reserve(1)
        storage.pointee.base[storage.pointee.count] = byte
        storage.pointee.count += 1
    }

    @inline(__always)
    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        let length = bytes.count
        reserve(length)
        let destination = storage.pointee.base + storage.pointee.count
        if length > 16 {
            destination.update(from: source, count: length)
        } else {
            Self.copyShort(from: source, to: destination, count: length)
        }
        storage.pointee.count += length
    }

    /// Copies up to 16 bytes in at most two pairs of (possibly overlapping) word loads and stores: keys, numbers
    /// and short strings are copied this way far more cheaply than through a call to `memmove`.
    @inline(__always)
    private static func copyShort(from source: UnsafePointer<UInt8>, to destination: UnsafeMutablePointer<UInt8>, count: Int) {
        let from = UnsafeRawPointer(source)
        let to = UnsafeMutableRawPointer(destination)
        if count >= 8 {
            let head = from.loadUnaligned(as: UInt64.self)
            let tail = from.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            to.storeBytes(of: head, as: UInt64.self)
            to.storeBytes(of: tail, toByteOffset: count - 8, as: UInt64.self)
        } else if count >= 4 {
            let head = from.loadUnaligned(as: UInt32.self)
            let tail = from.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            to.storeBytes(of: head, as: UInt32.self)
            to.storeBytes(of: tail, toByteOffset: count - 4, as: UInt32.self)
        } else {
            for index in 0..<count { destination[index] = source[index] }
        }
    }

    func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// Appends `text`'s UTF-8 bytes as they are.
    func append(utf8 text: String) {
        Self.withUTF8(of: text) { append($0) }
    }

    /// Appends `text` as a JSON string literal with minimal escapes.
    func appendJSONString(_ text: String) {
        Self.withUTF8(of: text) { appendJSONString(utf8: $0) }
    }

    /// Calls `body` with `text`'s UTF-8 bytes, read where they lie when the string holds them in one piece (a
    /// native string always does). `String.withUTF8` would need a mutable copy of `text`, which retains and
    /// releases its storage: storage that the states a recorder encodes on two threads at once share, so each
    /// such retain contends for it with the other thread.
    @inline(__always)
    private static func withUTF8(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        if text.utf8.withContiguousStorageIfAvailable(body) != nil { return }
        var text = text
        text.withUTF8(body)
    }

    /// Appends the UTF-8 bytes `utf8` as a JSON string literal with minimal escapes. Plain bytes are copied as
    /// they are checked, eight at a time, so a string without escapes is read once.
    func appendJSONString(utf8: UnsafeBufferPointer<UInt8>) {
        let length = utf8.count
        reserve(length + 2)
        let destination = storage.pointee.base + storage.pointee.count
        destination.pointee = UInt8(ascii: "\"")
        var index = 0
        if let source = utf8.baseAddress {
            while index &+ 8 <= length {
                let word = JSONStringBytes.word(at: source + index)
                guard !JSONStringBytes.hasSpecialByte(word) else { break }
                UnsafeMutableRawPointer(destination + 1 + index).storeBytes(of: word, as: UInt64.self)
                index &+= 8
            }
            // Fewer than 8 bytes left: the last word, overlapping bytes already checked, spares a string of 8 bytes
            // or more the byte loop, and two overlapping half words one of 4 to 7 bytes.
            if index < length, length >= 8, length - index < 8 {
                let word = JSONStringBytes.word(at: source + length - 8)
                if !JSONStringBytes.hasSpecialByte(word) {
                    UnsafeMutableRawPointer(destination + 1 + length - 8).storeBytes(of: word, as: UInt64.self)
                    index = length
                }
            } else if length >= 4, length < 8 {
                let head = UnsafeRawPointer(source).loadUnaligned(as: UInt32.self)
                let tail = UnsafeRawPointer(source + length - 4).loadUnaligned(as: UInt32.self)
                // Both halves in one word, so one test covers them.
                if !JSONStringBytes.hasSpecialByte(UInt64(head) | UInt64(tail) << 32) {
                    UnsafeMutableRawPointer(destination + 1).storeBytes(of: head, as: UInt32.self)
                    UnsafeMutableRawPointer(destination + 1 + length - 4).storeBytes(of: tail, as: UInt32.self)
                    index = length
                }
            }
            while index < length {
                let byte = source[index]
                guard byte >= 0x20, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") else { break }
                destination[1 + index] = byte
                index &+= 1
            }
        }
        if index == length {
            destination[1 + length] = UInt8(ascii: "\"")
            storage.pointee.count += length + 2
            return
        }
        storage.pointee.count += 1 + index
        var escaped: [UInt8] = []
        JSONValue.writeEscaped(utf8[index...], to: &escaped)
        append(escaped)
        append(UInt8(ascii: "\""))
    }

    /// Appends `uuid` as a JSON string of its `uuidString` (upper-case hex digits in groups of 8-4-4-4-12), written
    /// from its 16 bytes without making that string.
    func appendJSONString(uuid: UUID) {
        reserve(38)
        let start = storage.pointee.base + storage.pointee.count
        start.pointee = UInt8(ascii: "\"")
        Self.hexPairs.withUnsafeBufferPointer { pairs in
            withUnsafeBytes(of: uuid.uuid) { bytes in
                var position = UnsafeMutableRawPointer(start + 1)
                func hex(_ range: Range<Int>) {
                    for index in range {
                        position.storeBytes(of: pairs[Int(bytes[index])], as: UInt16.self)
                        position += 2
                    }
                }
                func dash() {
                    position.storeBytes(of: UInt8(ascii: "-"), as: UInt8.self)
                    position += 1
                }
                hex(0..<4)
                dash()
                hex(4..<6)
                dash()
                hex(6..<8)
                dash()
                hex(8..<10)
                dash()
                hex(10..<16)
            }
        }
        start[37] = UInt8(ascii: "\"")
        storage.pointee.count += 38
    }

    /// The two upper-case hex digits of each byte, as they lie in memory.
    private static let hexPairs: [UInt16] = (0...255).map { byte in
        let digits = Array(String(byte, radix: 16, uppercase: true).utf8)
        let pair = digits.count == 1 ? [UInt8(ascii: "0"), digits[0]] : digits
        return pair.withUnsafeBytes { $0.loadUnaligned(as: UInt16.self) }
    }

    /// Appends `value` in decimal, as JSON writes an integer.
    func appendDecimal(_ value: Int64) {
        if value < 0 {
            append(UInt8(ascii: "-"))
            appendDecimal(value.magnitude)
        } else {
            appendDecimal(UInt64(value))
        }
    }

    /// Appends `value` in decimal, as JSON writes an integer.
    func appendDecimal(_ value: UInt64) {
        var digitCount = 1
        var rest = value
        while rest >= 10 {
            rest /= 10
            digitCount += 1
        }
        reserve(digitCount)
        var position = storage.pointee.base + storage.pointee.count + digitCount
        rest = value
        repeat {
            position -= 1
            let (quotient, remainder) = rest.quotientAndRemainder(dividingBy: 10)
            position.pointee = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: remainder)
            rest = quotient
        } while rest > 0
        storage.pointee.count += digitCount
    }

    /// Appends the canonical text of `value`, which must be finite (see ``JSONValue/withCanonicalNumber(_:_:)``):
    /// a short decimal is written straight from its digits.
    func appendCanonicalNumber(_ value: Double) {
        guard let decimal = ShortDecimal(value) else {
            // The shortest text that reads back, with `.0` when it has neither a point nor an exponent.
            var text = value.description
            text.withUTF8 { utf8 in
                append(utf8)
                if !utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
                    append(UInt8(ascii: "."))
                    append(UInt8(ascii: "0"))
                }
            }
            return
        }
        let length = decimal.utf8Count
        reserve(length)
        decimal.write(endingAt: storage.pointee.base + storage.pointee.count + length)
        storage.pointee.count += length
    }

    /// Replaces the byte at `offset`, which must be written already.
    @inline(__always)
    func overwrite(at offset: Int, with byte: UInt8) {
        assert(offset < storage.pointee.count)
        storage.pointee.base[offset] = byte
    }

    /// Replaces the bytes from `offset` with `bytes`, which must end within the bytes written.
    @inline(__always)
    func overwrite(at offset: Int, with bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        assert(offset + bytes.count <= storage.pointee.count)
        let destination = storage.pointee.base + offset
        if bytes.count > 16 {
            destination.update(from: source, count: bytes.count)
        } else {
            Self.copyShort(from: source, to: destination, count: bytes.count)
        }
    }

    /// Forgets every byte written, keeping the memory.
    func removeAll() {
        storage.pointee.count = 0
    }

    /// Trades bytes and memory with `other`, copying nothing.
    func swapContents(with other: ByteBuffer) {
        swap(&storage.pointee, &other.storage.pointee)
    }
}
