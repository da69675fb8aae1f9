/// An `Encoder` that takes every call a type's `encode(to:)` makes and writes nothing: what the standard library's
/// `Codable` calls alone cost, the floor under any encoder that goes through them, as the recorder's does.
///
/// It takes the same shortcuts as the canonical writer, so the floor is not raised by work that writer skips: an
/// array is walked element by element (its own `encode(to:)` would box an unkeyed container in an existential),
/// the types that are arrays are found once per encoding, and strings and numbers are taken as they come.
enum CodableCallsOnly {
    /// Runs every call of `value`'s `encode(to:)`; returns a count of what it saw, so the work cannot be left out.
    @inline(never)
    static func encode(_ value: any Encodable) throws -> Int {
        let sink = Sink()
        try value.encode(to: NothingEncoder(sink: sink))
        return sink.count
    }

    /// What the calls leave behind: a count, and which types were arrays.
    final class Sink {
        var count = 0
        private var walkers: [ObjectIdentifier: (any ElementWalker.Type)?] = [:]

        /// The walker of `type` when it is an array, found once per type in an encoding.
        func walker<T>(of type: T.Type) -> (any ElementWalker.Type)? {
            let id = ObjectIdentifier(type)
            if let known = walkers[id] { return known }
            let found = type as? any ElementWalker.Type
            walkers[id] = found
            return found
        }

        /// Runs the calls of `value`: through an array's elements, or its own `encode(to:)`.
        func take<T: Encodable>(_ value: T) throws {
            if let walker = walker(of: T.self) {
                try withUnsafePointer(to: value) { try walker.walkElements(of: UnsafeRawPointer($0), into: self) }
            } else {
                try value.encode(to: NothingEncoder(sink: self))
            }
        }
    }

    /// An array, walked element by element.
    protocol ElementWalker {
        static func walkElements(of collection: UnsafeRawPointer, into sink: Sink) throws
    }

    struct NothingEncoder: Encoder {
        let sink: Sink
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            KeyedEncodingContainer(Keyed<Key>(sink: sink))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer { Unkeyed(sink: sink) }
        func singleValueContainer() -> any SingleValueEncodingContainer { Single(sink: sink) }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let sink: Sink
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil(forKey key: Key) throws { sink.count += 1 }
        mutating func encode(_ value: Bool, forKey key: Key) throws { sink.count += 1 }
        mutating func encode(_ value: String, forKey key: Key) throws { sink.count += value.utf8.count }
        mutating func encode(_ value: Double, forKey key: Key) throws { sink.count += 1 }
        mutating func encode(_ value: Int, forKey key: Key) throws { sink.count += 1 }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try sink.take(value) }
        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(Keyed<NestedKey>(sink: sink))
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { Unkeyed(sink: sink) }
        mutating func superEncoder() -> any Encoder { NothingEncoder(sink: sink) }
        mutating func superEncoder(forKey key: Key) -> any Encoder { NothingEncoder(sink: sink) }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let sink: Sink
        var codingPath: [any CodingKey] { [] }
        var count = 0

        mutating func encodeNil() throws { count += 1 }
        mutating func encode(_ value: Bool) throws { count += 1 }
        mutating func encode(_ value: String) throws { sink.count += value.utf8.count; count += 1 }
        mutating func encode(_ value: Double) throws { count += 1 }
        mutating func encode(_ value: Int) throws { count += 1 }
        mutating func encode<T: Encodable>(_ value: T) throws { try sink.take(value); count += 1 }
        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type
        ) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(Keyed<NestedKey>(sink: sink))
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { Unkeyed(sink: sink) }
        mutating func superEncoder() -> any Encoder { NothingEncoder(sink: sink) }
    }

    struct Single: SingleValueEncodingContainer {
        let sink: Sink
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil() throws { sink.count += 1 }
        mutating func encode(_ value: Bool) throws { sink.count += 1 }
        mutating func encode(_ value: String) throws { sink.count += value.utf8.count }
        mutating func encode(_ value: Double) throws { sink.count += 1 }
        mutating func encode(_ value: Int) throws { sink.count += 1 }
        mutating func encode<T: Encodable>(_ value: T) throws { try sink.take(value) }
    }
}

extension Array: CodableCallsOnly.ElementWalker where Element: Encodable {
    static func walkElements(of collection: UnsafeRawPointer, into sink: CodableCallsOnly.Sink) throws {
        if Element.self == String.self {
            for string in collection.assumingMemoryBound(to: [String].self).pointee { sink.count += string.utf8.count }
            return
        }
        for element in collection.assumingMemoryBound(to: [Element].self).pointee { try sink.take(element) }
    }
}
