import Foundation

/// Encodes an `Encodable` value straight into canonical JSON bytes, without building a tree.
///
/// Members are written as they come; when an object closes, its members are reordered by key. Codable has no
/// "container finished" call, so a container counts as finished when the `encode(to:)` call that opened it
/// returns, or when its parent is written to again. Anything this cannot follow exactly (a write to a container
/// that was already finished, a super encoder, a key written twice) and every error throws ``Unavailable``, and
/// the caller falls back to the tree encoder, which gives the same bytes and precise errors.
///
/// It runs once per recorded action on the whole state, so it allocates little: open containers and their
/// members live on two flat stacks, and the canonical order of an object's keys is worked out once per
/// `CodingKey` type and reused for every later object of that type.
final class CanonicalByteWriter {
    /// The fast path cannot encode this value; use the tree encoder.
    struct Unavailable: Error {}

    /// An open container.
    struct Frame {
        /// Identifies the frame while it is open; containers refer to their frame by it.
        let id: Int
        let isObject: Bool
        /// Where the container's content begins, after its `{` or `[`.
        let contentStart: Int
        /// How many members or elements were begun.
        var count = 0
        /// Where this frame's members begin in the member stack.
        let firstMember: Int
        /// For an object: its `CodingKey` type, and where the key order of the last object of that type is kept.
        let keyType: ObjectIdentifier?
        let keyOrderSlot: Int?
        /// For a container nested under a key of its parent: that key, and where the member began.
        let parentKey: String?
        let memberStart: Int
        /// For an object: where its member being written began (its key's `"`), to name it in a path.
        var currentMemberStart = 0
    }

    /// A member of an open object: its key and where its bytes (key included) lie in the buffer.
    struct Member {
        let key: String
        let start: Int
        let end: Int
    }

    /// The keys of the last object of a `CodingKey` type in the order written, each also as JSON ready to write
    /// (`"key":`), and the order that sorts them (`nil` when they were written sorted).
    struct KeyOrder {
        let keys: [String]
        let encodedKeys: [[UInt8]]
        let sortingPermutation: [Int]?
    }

    /// The id of a frame that was never open: writes to it make the encoding unavailable.
    static let closedFrameID = -1

    let buffer = ByteBuffer()
    /// Bytes of an object being reordered.
    private let scratch = ByteBuffer()
    // These are touched for every value of the state and never reached from two places at once.
    @exclusivity(unchecked) private var frames: [Frame] = []
    @exclusivity(unchecked) private var members: [Member] = []
    @exclusivity(unchecked) private var keyOrders: [KeyOrder] = []
    @exclusivity(unchecked) private var keyOrderSlots: [ObjectIdentifier: Int] = [:]
    @exclusivity(unchecked) private var nextFrameID = 0
    /// Types already found to be neither sets nor dictionaries written as pairs, so the costly conformance checks
    /// run once per type.
    @exclusivity(unchecked) private var orderedTypes: [ObjectIdentifier] = []
    /// Where the values encoded so far held dictionaries written as keyed pairs, dates and durations (kept from
    /// value to value).
    private(set) var typeNotes = EncodedTypeNotes()
    /// Whether dates and durations are noted too: finding a value's path costs a little for each, which an app's
    /// recorder, which never reads the notes, does not pay.
    let notesDatesAndDurations: Bool
    /// Set when the value used Codable in a way the fast path does not follow.
    @exclusivity(unchecked) private(set) var failed = false

    /// Creates a writer with an empty buffer.
    /// - Parameter notesDatesAndDurations: Whether ``typeNotes`` gets dates and durations too (dictionaries
    ///   written as keyed pairs are always noted).
    init(notesDatesAndDurations: Bool = false) {
        self.notesDatesAndDurations = notesDatesAndDurations
    }

    /// Parts of the last value encoded, for reuse, during an encoding that has them; `nil` encodes everything.
    private var memo: EncodingMemo?

    /// Encodes `value` and returns its canonical bytes. With a memo, the bytes of parts equal to the ones it
    /// remembers are copied, and its writer is reused, with its buffer and the key orders it learned.
    static func encode(_ value: some Encodable, memo: EncodingMemo? = nil) throws(Unavailable) -> [UInt8] {
        try encode(value, writer: memo?.writer ?? CanonicalByteWriter(), memo: memo)
    }

    /// Encodes `value` with `writer`, which adds to its ``typeNotes``.
    static func encode(
        _ value: some Encodable, writer: CanonicalByteWriter, memo: EncodingMemo?
    ) throws(Unavailable) -> [UInt8] {
        writer.start(memo: memo)
        defer { writer.memo = nil }
        do {
            try writer.writeValue(value)
            if writer.failed { throw Unavailable() }
        } catch {
            memo?.reset()
            throw Unavailable()
        }
        return writer.buffer.bytes
    }

    /// Readies the writer for a new value, keeping what it learned of types and key orders.
    private func start(memo: EncodingMemo?) {
        self.memo = memo
        memo?.beginValue()
        buffer.removeAll()
        frames.removeAll(keepingCapacity: true)
        members.removeAll(keepingCapacity: true)
        failed = false
    }

    // MARK: Values

    /// Writes one whole value at the current position.
    func writeValue<T: Encodable>(_ value: T) throws {
        // Metatype comparisons, not casts: this runs for every value of the state.
        if T.self == String.self {
            buffer.appendJSONString(unsafeBitCast(value, to: String.self))
        } else if T.self == Int.self {
            buffer.appendDecimal(Int64(unsafeBitCast(value, to: Int.self)))
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
            if notesDatesAndDurations { typeNotes.insert(try currentPath(), as: .dates) }
        } else if notesDatesAndDurations && T.self == Duration.self {
            // Its own `Codable` (`[high, low]`), noted so that a diff compares and shows it as one value.
            typeNotes.insert(try currentPath(), as: .durations)
            try writeComposite(value)
        } else if T.self == Data.self {
            buffer.appendJSONString((value as! Data).base64EncodedString())
        } else if T.self == URL.self {
            buffer.appendJSONString((value as! URL).absoluteString)
        } else if T.self == Decimal.self {
            throw Unavailable()
        } else if let order = unorderedKind(of: T.self) {
            // A metatype check, so other values are not boxed into an existential on this hot path.
            switch order {
            case .set: writeArray(try (value as! any UnorderedEncodable).sortedCanonicalElements())
            case .keyedPairs: try writeKeyedPairs(value as! any PairEncodedDictionary)
            }
        } else if let memo, memo.reusesUnchangedParts, frames.count <= EncodingMemo.maxDepth,
            let type = memo.typeIndex(of: T.self)
        {
            guard !memo.writeRemembered(value, type: type, to: buffer) else { return }
            let place = memo.begin(value, type: type)
            let mark = buffer.count
            try writeComposite(value)
            memo.end(place, bytes: buffer[mark..<buffer.count])
        } else {
            try writeComposite(value)
        }
    }

    /// Writes an object, an array, or whatever a type's own `encode(to:)` makes of it.
    private func writeComposite<T: Encodable>(_ value: T) throws {
        let depth = frames.count
        let mark = buffer.count
        try value.encode(to: ByteEncoder(writer: self))
        closeFrames(above: depth)
        if buffer.count == mark { buffer.append(Self.emptyObject) }
    }

    /// What a type that encodes in no particular order is, so the writer must sort it.
    private enum UnorderedKind {
        /// A `Set`: its elements.
        case set
        /// A dictionary written as alternating keys and values: its pairs, by key.
        case keyedPairs
    }

    /// Whether `type` encodes its contents in no particular order, and how; `nil` for every other type.
    private func unorderedKind(of type: Any.Type) -> UnorderedKind? {
        let id = ObjectIdentifier(type)
        if orderedTypes.contains(id) { return nil }
        if type is any UnorderedEncodable.Type { return .set }
        if let dictionary = type as? any PairEncodedDictionary.Type, dictionary.encodesAsPairs { return .keyedPairs }
        if orderedTypes.count < 16 { orderedTypes.append(id) }
        return nil
    }

    /// Adds places found by the tree encoder, for a value this writer could not follow.
    func note(_ notes: EncodedTypeNotes) {
        typeNotes.formUnion(notes)
    }

    /// Writes an array of already encoded elements.
    private func writeArray(_ elements: [[UInt8]]) {
        buffer.append(UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: ",")) }
            buffer.append(element)
        }
        buffer.append(UInt8(ascii: "]"))
    }

    /// Writes a dictionary as its alternating keys and values sorted by key, and notes where it is.
    private func writeKeyedPairs(_ dictionary: any PairEncodedDictionary) throws {
        var inside = EncodedTypeNotes()
        let pairs = try dictionary.sortedCanonicalPairs(inside: &inside)
        writeArray(pairs.flatMap { [$0.key, $0.value] })
        let path = try currentPath()
        typeNotes.insert(path, as: .keyedPairArrays)
        typeNotes.formUnion(inside, below: path + [.pairValue])
    }

    /// The generalised path of the value being written: the key of each open object's current member, and
    /// ``EncodedTypeNotes/Step/element`` for each open array.
    private func currentPath() throws -> [EncodedTypeNotes.Step] {
        try frames.map { frame in
            guard frame.isObject else { return .element }
            // The member's key is in the buffer as JSON, `"key":`; its closing quote is the first one unescaped.
            let text = buffer[frame.currentMemberStart..<buffer.count]
            var end = 1
            while text[end] != UInt8(ascii: "\"") { end += text[end] == UInt8(ascii: "\\") ? 2 : 1 }
            guard case .string(let key) = try JSONValue(parsing: text[...end]) else { throw Unavailable() }
            return .member(key)
        }
    }

    func writeInteger(_ value: Int64) {
        buffer.appendDecimal(value)
    }

    func writeUnsigned(_ value: UInt64) {
        buffer.appendDecimal(value)
    }

    func writeDouble(_ value: Double) throws {
        guard value.isFinite else { throw Unavailable() }
        JSONValue.withCanonicalNumber(value) { buffer.append($0) }
    }

    func writeFloat(_ value: Float) throws {
        guard value.isFinite else { throw Unavailable() }
        try writeDouble(Double(value.description) ?? Double(value))
    }

    func writeNull() {
        buffer.append(Self.nullBytes)
    }

    // MARK: Containers

    /// Opens an object or array container at the current position and returns its frame's id.
    func openFrame(
        isObject: Bool, keyType: ObjectIdentifier? = nil, parentKey: String? = nil, memberStart: Int = 0
    ) -> Int {
        buffer.append(isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
        let id = nextFrameID
        nextFrameID += 1
        frames.append(Frame(
            id: id, isObject: isObject, contentStart: buffer.count, firstMember: members.count, keyType: keyType,
            keyOrderSlot: keyType.flatMap { keyOrderSlots[$0] }, parentKey: parentKey, memberStart: memberStart))
        return id
    }

    /// Makes frame `id` the one written to now, finishing frames opened after it; throws if it already finished.
    func activate(_ id: Int) throws(Unavailable) {
        while let top = frames.last, top.id > id { close(frames.removeLast()) }
        guard frames.last?.id == id else { throw Unavailable() }
    }

    /// Starts a keyed member of frame `id`: writes the comma before it when needed, and its key; returns where it
    /// began.
    func beginMember(_ key: String, inFrame id: Int) throws(Unavailable) -> Int {
        try activate(id)
        let top = frames.count - 1
        let memberIndex = frames[top].count
        if memberIndex > 0 { buffer.append(UInt8(ascii: ",")) }
        frames[top].count += 1
        let start = buffer.count
        frames[top].currentMemberStart = start
        if let slot = frames[top].keyOrderSlot, memberIndex < keyOrders[slot].keys.count,
            keyOrders[slot].keys[memberIndex] == key
        {
            buffer.append(keyOrders[slot].encodedKeys[memberIndex])
        } else {
            buffer.appendJSONString(key)
            buffer.append(UInt8(ascii: ":"))
        }
        return start
    }

    /// Ends the keyed member that began at `start`.
    func endMember(_ key: String, start: Int) {
        members.append(Member(key: key, start: start, end: buffer.count))
    }

    /// Starts an element of array frame `id`: writes the comma before it when needed.
    func beginElement(inFrame id: Int) throws(Unavailable) {
        try activate(id)
        if frames[frames.count - 1].count > 0 { buffer.append(UInt8(ascii: ",")) }
        frames[frames.count - 1].count += 1
    }

    /// Opens a nested container as the member `key` of frame `id`.
    func openNested(isObject: Bool, keyType: ObjectIdentifier?, key: String, inFrame id: Int) -> Int {
        guard let start = try? beginMember(key, inFrame: id) else { return closedFrame() }
        return openFrame(isObject: isObject, keyType: keyType, parentKey: key, memberStart: start)
    }

    /// Opens a nested container as an element of frame `id`.
    func openNestedElement(isObject: Bool, keyType: ObjectIdentifier?, inFrame id: Int) -> Int {
        guard (try? beginElement(inFrame: id)) != nil else { return closedFrame() }
        return openFrame(isObject: isObject, keyType: keyType)
    }

    /// A frame that refuses every write; handing one out marks the whole encoding as failed.
    func closedFrame() -> Int {
        markFailed()
        return Self.closedFrameID
    }

    /// Marks the encoding as one the fast path cannot follow.
    func markFailed() {
        failed = true
    }

    private func closeFrames(above depth: Int) {
        while frames.count > depth { close(frames.removeLast()) }
    }

    private func close(_ frame: Frame) {
        if frame.isObject {
            sortMembers(of: frame)
            buffer.append(UInt8(ascii: "}"))
        } else {
            buffer.append(UInt8(ascii: "]"))
        }
        members.removeLast(members.count - frame.firstMember)
        if let key = frame.parentKey {
            members.append(Member(key: key, start: frame.memberStart, end: buffer.count))
        }
    }

    /// Rewrites an object's members in canonical key order when they were written in another order.
    private func sortMembers(of frame: Frame) {
        guard members.count - frame.firstMember > 1, let permutation = sortingPermutation(of: frame) else { return }
        let contentStart = frame.contentStart
        scratch.removeAll()
        scratch.append(buffer[contentStart..<buffer.count])
        buffer.removeTail(from: contentStart)
        for (index, memberOffset) in permutation.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: ",")) }
            let member = members[frame.firstMember + memberOffset]
            buffer.append(scratch[(member.start - contentStart)..<(member.end - contentStart)])
        }
    }

    /// The order that sorts `frame`'s members by key, or `nil` when they are sorted already. The last object of
    /// the same `CodingKey` type usually had the same keys in the same order, so its answer is reused.
    private func sortingPermutation(of frame: Frame) -> [Int]? {
        let written = members[frame.firstMember...]
        if let slot = frame.keyOrderSlot, keyOrders[slot].keys.count == written.count,
            zip(keyOrders[slot].keys, written).allSatisfy({ $0 == $1.key })
        {
            return keyOrders[slot].sortingPermutation
        }
        let keys = written.map(\.key)
        let sorted = keys.indices.sorted { keys[$0].utf8.lexicographicallyPrecedes(keys[$1].utf8) }
        // A key written twice: the tree encoder keeps the last value, as Foundation's encoder does.
        for (left, right) in zip(sorted, sorted.dropFirst()) where keys[left] == keys[right] { markFailed() }
        let permutation = sorted.elementsEqual(keys.indices) ? nil : sorted
        if let keyType = frame.keyType {
            let encodedKeys = keys.map { key in
                var bytes: [UInt8] = []
                JSONValue.writeString(key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                return bytes
            }
            let order = KeyOrder(keys: keys, encodedKeys: encodedKeys, sortingPermutation: permutation)
            if let slot = keyOrderSlots[keyType] {
                keyOrders[slot] = order
            } else {
                keyOrderSlots[keyType] = keyOrders.count
                keyOrders.append(order)
            }
        }
        return permutation
    }

    private static let trueBytes = Array("true".utf8)
    private static let falseBytes = Array("false".utf8)
    private static let nullBytes = Array("null".utf8)
    private static let emptyObject = Array("{}".utf8)
}
