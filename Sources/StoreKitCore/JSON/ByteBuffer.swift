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

    func append(_ byte: UInt8) {
        reserve(1)
        storage.pointee.base[storage.pointee.count] = byte
        storage.pointee.count += 1
    }

    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (storage.pointee.base + storage.pointee.count).update(from: source, count: bytes.count)
        storage.pointee.count += bytes.count
    }

    func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// Appends `text`'s UTF-8 bytes as they are.
    func append(utf8 text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// Appends `text` as a JSON string literal with minimal escapes.
    func appendJSONString(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            append(UInt8(ascii: "\""))
            if !JSONValue.needsEscaping(utf8) {
                append(utf8)
            } else {
                var escaped: [UInt8] = []
                JSONValue.writeEscaped(utf8, to: &escaped)
                append(escaped)
            }
            append(UInt8(ascii: "\""))
        }
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

    /// Forgets every byte written, keeping the memory.
    func removeAll() {
        storage.pointee.count = 0
    }

    /// Forgets the bytes from `start` to the end.
    func removeTail(from start: Int) {
        storage.pointee.count = start
    }
}
