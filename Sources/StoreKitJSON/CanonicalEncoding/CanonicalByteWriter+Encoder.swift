/// The `Encoder` and containers through which `encode(to:)` implementations write into a ``CanonicalByteWriter``.
///
/// Each container remembers its frame by id; writing to it finishes the containers opened after it.
extension CanonicalByteWriter {
    struct ByteEncoder: Encoder {
        let writer: CanonicalByteWriter
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            let frame = writer.openFrame(isObject: true, keyType: type)
            return KeyedEncodingContainer(KeyedWriter<Key>(writer: writer, frame: frame))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            UnkeyedWriter(writer: writer, frame: writer.openFrame(isObject: false))
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            SingleWriter(writer: writer)
        }
    }

    struct KeyedWriter<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let writer: CanonicalByteWriter
        let frame: Int
        var codingPath: [any CodingKey] { [] }

        // Each member is begun, written and ended in line: through a closure, the compiler called the write out of
        // line for every member.
        @inline(__always)
        private func begin(_ key: Key) throws {
            try writer.beginMember(key.stringValue, inFrame: frame)
        }

        @inline(__always)
        private func integer(_ value: Int64, _ key: Key) throws {
            try begin(key)
            writer.writeInteger(value)
            writer.endMember()
        }

        @inline(__always)
        private func unsigned(_ value: UInt64, _ key: Key) throws {
            try begin(key)
            writer.writeUnsigned(value)
            writer.endMember()
        }

        mutating func encodeNil(forKey key: Key) throws {
            try begin(key)
            writer.writeNull()
            writer.endMember()
        }

        mutating func encode(_ value: Bool, forKey key: Key) throws {
            try begin(key)
            writer.writeBool(value)
            writer.endMember()
        }

        mutating func encode(_ value: String, forKey key: Key) throws {
            try begin(key)
            writer.writeString(value)
            writer.endMember()
        }

        mutating func encode(_ value: Double, forKey key: Key) throws {
            try begin(key)
            try writer.writeDouble(value)
            writer.endMember()
        }

        mutating func encode(_ value: Float, forKey key: Key) throws {
            try begin(key)
            try writer.writeFloat(value)
            writer.endMember()
        }

        mutating func encode(_ value: Int, forKey key: Key) throws { try integer(Int64(value), key) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { try integer(Int64(value), key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { try integer(Int64(value), key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { try integer(Int64(value), key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { try integer(value, key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { try unsigned(UInt64(value), key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { try integer(Int64(value), key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { try integer(Int64(value), key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { try integer(Int64(value), key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { try unsigned(value, key) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try begin(key)
            try writer.writeValue(value)
            writer.endMember()
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            let nested = writer.openNested(
                isObject: true, keyType: keyType, key: key.stringValue, inFrame: frame)
            return KeyedEncodingContainer(KeyedWriter<NestedKey>(writer: writer, frame: nested))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let nested = writer.openNested(isObject: false, keyType: nil, key: key.stringValue, inFrame: frame)
            return UnkeyedWriter(writer: writer, frame: nested)
        }

        mutating func superEncoder() -> any Encoder { UnavailableEncoder(writer: writer) }
        mutating func superEncoder(forKey key: Key) -> any Encoder { UnavailableEncoder(writer: writer) }
    }

    struct UnkeyedWriter: UnkeyedEncodingContainer {
        let writer: CanonicalByteWriter
        let frame: Int
        var codingPath: [any CodingKey] { [] }
        private(set) var count = 0

        init(writer: CanonicalByteWriter, frame: Int) {
            self.writer = writer
            self.frame = frame
        }

        private mutating func beginElement() throws {
            try writer.beginElement(inFrame: frame)
            count += 1
        }

        mutating func encodeNil() throws { try beginElement(); writer.writeNull() }
        mutating func encode(_ value: Bool) throws { try beginElement(); writer.writeBool(value) }
        mutating func encode(_ value: String) throws { try beginElement(); writer.writeString(value) }
        mutating func encode(_ value: Double) throws { try beginElement(); try writer.writeDouble(value) }
        mutating func encode(_ value: Float) throws { try beginElement(); try writer.writeFloat(value) }
        mutating func encode(_ value: Int) throws { try beginElement(); writer.writeInteger(Int64(value)) }
        mutating func encode(_ value: Int8) throws { try beginElement(); writer.writeInteger(Int64(value)) }
        mutating func encode(_ value: Int16) throws { try beginElement(); writer.writeInteger(Int64(value)) }
        mutating func encode(_ value: Int32) throws { try beginElement(); writer.writeInteger(Int64(value)) }
        mutating func encode(_ value: Int64) throws { try beginElement(); writer.writeInteger(value) }
        mutating func encode(_ value: UInt) throws { try beginElement(); writer.writeUnsigned(UInt64(value)) }
        mutating func encode(_ value: UInt8) throws { try beginElement(); writer.writeInteger(Int64(value)) }
        mutating func encode(_ value: UInt16) throws { try beginElement(); writer.writeInteger(Int64(value)) }
        mutating func encode(_ value: UInt32) throws { try beginElement(); writer.writeInteger(Int64(value)) }
        mutating func encode(_ value: UInt64) throws { try beginElement(); writer.writeUnsigned(value) }
        mutating func encode<T: Encodable>(_ value: T) throws { try beginElement(); try writer.writeElement(value) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            count += 1
            let nested = writer.openNestedElement(isObject: true, keyType: keyType, inFrame: frame)
            return KeyedEncodingContainer(KeyedWriter<NestedKey>(writer: writer, frame: nested))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            count += 1
            return UnkeyedWriter(writer: writer, frame: writer.openNestedElement(isObject: false, keyType: nil, inFrame: frame))
        }

        mutating func superEncoder() -> any Encoder { UnavailableEncoder(writer: writer) }
    }

    struct SingleWriter: SingleValueEncodingContainer {
        let writer: CanonicalByteWriter
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil() throws { writer.writeNull() }
        mutating func encode(_ value: Bool) throws { writer.writeBool(value) }
        mutating func encode(_ value: String) throws { writer.writeString(value) }
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

    /// An encoder for a super encoder, which the fast path does not follow: the encoding fails.
    struct UnavailableEncoder: Encoder {
        let writer: CanonicalByteWriter
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        init(writer: CanonicalByteWriter) {
            self.writer = writer
            writer.markFailed()
        }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            KeyedEncodingContainer(KeyedWriter<Key>(writer: writer, frame: writer.closedFrame()))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            UnkeyedWriter(writer: writer, frame: writer.closedFrame())
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            SingleWriter(writer: CanonicalByteWriter())
        }
    }
}
