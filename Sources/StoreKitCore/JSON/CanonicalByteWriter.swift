import Foundation

/// Encodes an `Encodable` value straight into canonical JSON bytes, without building a tree.
///
/// Members are written as they come; when an object closes, its members are reordered by key. Codable has no
/// "container finished" call, so a container counts as finished when the `encode(to:)` call that opened it
/// returns, or when its parent is written to again. Anything this cannot follow exactly (a write to a container
/// that was already finished, a super encoder) and every error throws ``Unavailable``, and the caller falls back
/// to the tree encoder, which gives the same bytes and precise errors.
final class CanonicalByteWriter {
    /// The fast path cannot encode this value; use the tree encoder.
    struct Unavailable: Error {}

    final class Frame {
        let isObject: Bool
        let start: Int
        var members: [(key: String, start: Int, end: Int)] = []
        var count = 0
        var isOpen = true
        /// For a nested container: the parent frame and where this member's key began.
        let parent: Frame?
        let memberKey: String?
        let memberStart: Int

        init(isObject: Bool, start: Int, parent: Frame?, memberKey: String?, memberStart: Int) {
            self.isObject = isObject
            self.start = start
            self.parent = parent
            self.memberKey = memberKey
            self.memberStart = memberStart
        }
    }

    let buffer = ByteBuffer()
    private var stack: [Frame] = []
    /// Set when the value used Codable in a way the fast path does not follow.
    private var failed = false


    /// Encodes `value` and returns its canonical bytes.
    static func encode(_ value: some Encodable) throws(Unavailable) -> [UInt8] {
        let writer = CanonicalByteWriter()
        do {
            try writer.writeValue(value)
        } catch {
            throw Unavailable()
        }
        if writer.failed { throw Unavailable() }
        return writer.buffer.bytes
    }

    // MARK: Values

    /// Writes one whole value at the current position.
    func writeValue<T: Encodable>(_ value: T) throws {
        // Metatype comparisons, not casts: this runs for every value of the state.
        if T.self == String.self {
            buffer.appendJSONString(unsafeBitCast(value, to: String.self))
        } else if T.self == Int.self {
            writeInteger(Int64(unsafeBitCast(value, to: Int.self)))
        } else if T.self == Double.self {
            try writeDouble(unsafeBitCast(value, to: Double.self))
        } else if T.self == Bool.self {
            buffer.append(unsafeBitCast(value, to: Bool.self) ? Self.trueBytes : Self.falseBytes)
        } else if T.self == JSONValue.self {
            var bytes: [UInt8] = []
            (value as! JSONValue).writeCanonical(to: &bytes)
            buffer.append(bytes)
        } else if T.self == Date.self {
            try writeDouble((value as! Date).timeIntervalSince1970)
        } else if T.self == Data.self {
            buffer.appendJSONString((value as! Data).base64EncodedString())
        } else if T.self == URL.self {
            buffer.appendJSONString((value as! URL).absoluteString)
        } else if T.self == Decimal.self {
            throw Unavailable()
        } else if T.self is any UnorderedEncodable.Type {
            // A metatype check, so other values are not boxed into an existential on this hot path.
            buffer.append(UInt8(ascii: "["))
            for (index, element) in try (value as! any UnorderedEncodable).sortedCanonicalElements().enumerated() {
                if index > 0 { buffer.append(UInt8(ascii: ",")) }
                buffer.append(element)
            }
            buffer.append(UInt8(ascii: "]"))
        } else {
            let depth = stack.count
            let mark = buffer.count
            try value.encode(to: ByteEncoder(writer: self))
            closeFrames(above: depth)
            if buffer.count == mark { buffer.append(Self.emptyObject) }
        }
    }

    func writeInteger(_ value: Int64) {
        if value >= 0 && value < 10 {
            buffer.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        buffer.append(utf8: String(value))
    }

    func writeUnsigned(_ value: UInt64) {
        buffer.append(utf8: String(value))
    }

    func writeDouble(_ value: Double) throws {
        guard value.isFinite else { throw Unavailable() }
        buffer.append(utf8: JSONValue.canonicalNumber(value))
    }

    func writeFloat(_ value: Float) throws {
        guard value.isFinite else { throw Unavailable() }
        try writeDouble(Double(value.description) ?? Double(value))
    }

    func writeNull() {
        buffer.append(Self.nullBytes)
    }

    // MARK: Containers

    /// Opens an object or array container at the current position.
    func openFrame(isObject: Bool, parent: Frame? = nil, memberKey: String? = nil, memberStart: Int = 0) -> Frame {
        buffer.append(isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
        let frame = Frame(
            isObject: isObject, start: buffer.count, parent: parent, memberKey: memberKey, memberStart: memberStart)
        stack.append(frame)
        return frame
    }

    /// The frame a container may write to now: finishes frames opened after it; throws if it already finished.
    func activate(_ frame: Frame) throws(Unavailable) {
        guard frame.isOpen else { throw Unavailable() }
        while let top = stack.last, top !== frame { close(stack.removeLast()) }
    }

    /// Starts a keyed member: writes the comma before it when needed, and its key; returns where it began.
    func beginMember(_ key: String, in frame: Frame) throws(Unavailable) -> Int {
        try activate(frame)
        if frame.count > 0 { buffer.append(UInt8(ascii: ",")) }
        frame.count += 1
        let start = buffer.count
        buffer.appendJSONString(key)
        buffer.append(UInt8(ascii: ":"))
        return start
    }

    /// Ends a keyed member that began at `start`.
    func endMember(_ key: String, start: Int, in frame: Frame) {
        frame.members.append((key, start, buffer.count))
    }

    /// Starts an array element: writes the comma before it when needed.
    func beginElement(in frame: Frame) throws(Unavailable) {
        try activate(frame)
        if frame.count > 0 { buffer.append(UInt8(ascii: ",")) }
        frame.count += 1
    }

    /// Opens a nested container as a member of `frame`.
    func openNested(isObject: Bool, key: String, in frame: Frame) throws(Unavailable) -> Frame {
        let start = try beginMember(key, in: frame)
        return openFrame(isObject: isObject, parent: frame, memberKey: key, memberStart: start)
    }

    /// Opens a nested container as an element of `frame`.
    func openNestedElement(isObject: Bool, in frame: Frame) throws(Unavailable) -> Frame {
        try beginElement(in: frame)
        return openFrame(isObject: isObject)
    }

    private func closeFrames(above depth: Int) {
        while stack.count > depth { close(stack.removeLast()) }
    }

    private func close(_ frame: Frame) {
        frame.isOpen = false
        if frame.isObject {
            sortMembers(of: frame)
            buffer.append(UInt8(ascii: "}"))
        } else {
            buffer.append(UInt8(ascii: "]"))
        }
        if let parent = frame.parent, let key = frame.memberKey {
            parent.members.append((key, frame.memberStart, buffer.count))
        }
    }

    /// Rewrites an object's members in canonical key order when they were written in another order.
    private func sortMembers(of frame: Frame) {
        let members = frame.members
        guard members.count > 1 else { return }
        let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        if zip(members, sorted).allSatisfy({ $0.start == $1.start }) { return }
        var rewritten: [UInt8] = []
        rewritten.reserveCapacity(buffer.count - frame.start)
        for (index, member) in sorted.enumerated() {
            if index > 0 { rewritten.append(UInt8(ascii: ",")) }
            rewritten.append(contentsOf: buffer[member.start..<member.end])
        }
        buffer.replaceTail(from: frame.start, with: rewritten)
    }

    private static let trueBytes = Array("true".utf8)
    private static let falseBytes = Array("false".utf8)
    private static let nullBytes = Array("null".utf8)
    private static let emptyObject = Array("{}".utf8)

    // MARK: The Encoder

    private struct ByteEncoder: Encoder {
        let writer: CanonicalByteWriter
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            KeyedEncodingContainer(KeyedWriter<Key>(writer: writer, frame: writer.openFrame(isObject: true)))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            UnkeyedWriter(writer: writer, frame: writer.openFrame(isObject: false))
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            SingleWriter(writer: writer)
        }
    }

    private struct KeyedWriter<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let writer: CanonicalByteWriter
        let frame: Frame
        var codingPath: [any CodingKey] { [] }

        private func member(_ key: Key, _ write: () throws -> Void) throws {
            let start = try writer.beginMember(key.stringValue, in: frame)
            try write()
            writer.endMember(key.stringValue, start: start, in: frame)
        }

        mutating func encodeNil(forKey key: Key) throws { try member(key) { writer.writeNull() } }
        mutating func encode(_ value: Bool, forKey key: Key) throws { try member(key) { try writer.writeValue(value) } }
        mutating func encode(_ value: String, forKey key: Key) throws { try member(key) { try writer.writeValue(value) } }
        mutating func encode(_ value: Double, forKey key: Key) throws { try member(key) { try writer.writeDouble(value) } }
        mutating func encode(_ value: Float, forKey key: Key) throws { try member(key) { try writer.writeFloat(value) } }
        mutating func encode(_ value: Int, forKey key: Key) throws { try member(key) { writer.writeInteger(Int64(value)) } }
        mutating func encode(_ value: Int8, forKey key: Key) throws { try member(key) { writer.writeInteger(Int64(value)) } }
        mutating func encode(_ value: Int16, forKey key: Key) throws { try member(key) { writer.writeInteger(Int64(value)) } }
        mutating func encode(_ value: Int32, forKey key: Key) throws { try member(key) { writer.writeInteger(Int64(value)) } }
        mutating func encode(_ value: Int64, forKey key: Key) throws { try member(key) { writer.writeInteger(value) } }
        mutating func encode(_ value: UInt, forKey key: Key) throws { try member(key) { writer.writeUnsigned(UInt64(value)) } }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { try member(key) { writer.writeInteger(Int64(value)) } }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { try member(key) { writer.writeInteger(Int64(value)) } }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { try member(key) { writer.writeInteger(Int64(value)) } }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { try member(key) { writer.writeUnsigned(value) } }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try member(key) { try writer.writeValue(value) }
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            let nested = (try? writer.openNested(isObject: true, key: key.stringValue, in: frame)) ?? writer.closedFrame(true)
            return KeyedEncodingContainer(KeyedWriter<NestedKey>(writer: writer, frame: nested))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let nested = (try? writer.openNested(isObject: false, key: key.stringValue, in: frame)) ?? writer.closedFrame(false)
            return UnkeyedWriter(writer: writer, frame: nested)
        }

        mutating func superEncoder() -> any Encoder { UnavailableEncoder(writer: writer) }
        mutating func superEncoder(forKey key: Key) -> any Encoder { UnavailableEncoder(writer: writer) }
    }

    private struct UnkeyedWriter: UnkeyedEncodingContainer {
        let writer: CanonicalByteWriter
        let frame: Frame
        var codingPath: [any CodingKey] { [] }
        var count: Int { frame.count }

        private func element(_ write: () throws -> Void) throws {
            try writer.beginElement(in: frame)
            try write()
        }

        mutating func encodeNil() throws { try element { writer.writeNull() } }
        mutating func encode(_ value: Bool) throws { try element { try writer.writeValue(value) } }
        mutating func encode(_ value: String) throws { try element { try writer.writeValue(value) } }
        mutating func encode(_ value: Double) throws { try element { try writer.writeDouble(value) } }
        mutating func encode(_ value: Float) throws { try element { try writer.writeFloat(value) } }
        mutating func encode(_ value: Int) throws { try element { writer.writeInteger(Int64(value)) } }
        mutating func encode(_ value: Int8) throws { try element { writer.writeInteger(Int64(value)) } }
        mutating func encode(_ value: Int16) throws { try element { writer.writeInteger(Int64(value)) } }
        mutating func encode(_ value: Int32) throws { try element { writer.writeInteger(Int64(value)) } }
        mutating func encode(_ value: Int64) throws { try element { writer.writeInteger(value) } }
        mutating func encode(_ value: UInt) throws { try element { writer.writeUnsigned(UInt64(value)) } }
        mutating func encode(_ value: UInt8) throws { try element { writer.writeInteger(Int64(value)) } }
        mutating func encode(_ value: UInt16) throws { try element { writer.writeInteger(Int64(value)) } }
        mutating func encode(_ value: UInt32) throws { try element { writer.writeInteger(Int64(value)) } }
        mutating func encode(_ value: UInt64) throws { try element { writer.writeUnsigned(value) } }
        mutating func encode<T: Encodable>(_ value: T) throws { try element { try writer.writeValue(value) } }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            let nested = (try? writer.openNestedElement(isObject: true, in: frame)) ?? writer.closedFrame(true)
            return KeyedEncodingContainer(KeyedWriter<NestedKey>(writer: writer, frame: nested))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let nested = (try? writer.openNestedElement(isObject: false, in: frame)) ?? writer.closedFrame(false)
            return UnkeyedWriter(writer: writer, frame: nested)
        }

        mutating func superEncoder() -> any Encoder { UnavailableEncoder(writer: writer) }
    }

    private struct SingleWriter: SingleValueEncodingContainer {
        let writer: CanonicalByteWriter
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil() throws { writer.writeNull() }
        mutating func encode(_ value: Bool) throws { try writer.writeValue(value) }
        mutating func encode(_ value: String) throws { try writer.writeValue(value) }
        mutating func encode(_ value: Double) throws { try writer.writeDouble(value) }
        mutating func encode(_ value: Float) throws { try writer.writeFloat(value) }
        mutating func encode(_ value: Int) throws { writer.writeInteger(Int64(value)) }
        mutating func encode(_ value: Int8) throws { writer.writeInteger(Int64(value)) }
        mutating func encode(_ value: Int16) throws { writer.writeInteger(Int64(value)) }
        mutating func encode(_ value: Int32) throws { writer.writeInteger(Int64(value)) }
        mutating func encode(_ value: Int64) throws { writer.writeInteger(value) }
        mutating func encode(_ value: UInt) throws { writer.writeUnsigned(UInt64(value)) }
        mutating func encode(_ value: UInt8) throws { writer.writeInteger(Int64(value)) }
        mutating func encode(_ value: UInt16) throws { writer.writeInteger(Int64(value)) }
        mutating func encode(_ value: UInt32) throws { writer.writeInteger(Int64(value)) }
        mutating func encode(_ value: UInt64) throws { writer.writeUnsigned(value) }
        mutating func encode<T: Encodable>(_ value: T) throws { try writer.writeValue(value) }
    }

    /// A frame that refuses every write; handing one out marks the whole encoding as failed.
    func closedFrame(_ isObject: Bool) -> Frame {
        failed = true
        let frame = Frame(isObject: isObject, start: 0, parent: nil, memberKey: nil, memberStart: 0)
        frame.isOpen = false
        return frame
    }

    /// An encoder for a super encoder, which the fast path does not follow: the encoding fails.
    private struct UnavailableEncoder: Encoder {
        let writer: CanonicalByteWriter
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        init(writer: CanonicalByteWriter) {
            self.writer = writer
            writer.failed = true
        }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            KeyedEncodingContainer(KeyedWriter<Key>(writer: writer, frame: writer.closedFrame(true)))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            UnkeyedWriter(writer: writer, frame: writer.closedFrame(false))
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            SingleWriter(writer: CanonicalByteWriter())
        }
    }
}
