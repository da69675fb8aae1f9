import Foundation

/// Encodes an `Encodable` value straight into canonical JSON bytes, without building a tree.
///
/// Members are written as they come; when an object closes, its members are reordered by key. Codable has no
/// "container finished" call, so a container counts as finished when the `encode(to:)` call that opened it
/// returns, or when its parent is written to again. Anything this cannot follow exactly (a write to a container
/// that was already finished, a super encoder, a key written twice) and every error throws ``Unavailable``, and
/// the caller falls back to the tree encoder, which gives the same bytes and precise errors.
///
/// It runs once per recorded action on the whole state, so it allocates little and goes around `Codable` where
/// the bytes are known without it: open containers and the spans of their members live on raw stacks; the
/// canonical order of an object's keys is worked out once per `CodingKey` type and reused, with the keys ready
/// as JSON, for every later object of that type that writes the same keys; arrays, sets and dictionaries written as
/// keyed pairs are written element by element without an unkeyed container (sets and pairs in place, then
/// reordered); and strings, integers, doubles, UUIDs and durations are written straight from their bits. Tests
/// compare every such path with the tree encoder, which goes through each type's own `encode(to:)`.
final class CanonicalByteWriter {
    /// The fast path cannot encode this value; use the tree encoder.
    struct Unavailable: Error {}

    /// An open container: plain data, on a raw stack.
    struct Frame {
        /// Identifies the frame while it is open; containers refer to their frame by it.
        let id: Int
        let isObject: Bool
        /// Whether it is the array of a dictionary written as keyed pairs, whose values lie at
        /// ``EncodedTypeNotes/Step/pairValue``.
        let holdsPairs: Bool
        /// Whether the container is the value of its parent's member on top of the member stack, whose end is
        /// set when the container closes.
        let isMemberValue: Bool
        /// Where the container's content begins, after its `{` or `[`.
        let contentStart: Int
        /// How many members or elements were begun.
        var count = 0
        /// Where this frame's members begin in the member stack, and the keys of those that did not follow the
        /// key order in the stack of such keys.
        let firstMember: Int
        let firstUnmatchedKey: Int
        /// For an object: where the key order of its `CodingKey` type is kept (-1 for an array), and the order
        /// kept there when it opened, if any.
        let keyOrderSlot: Int
        let keyOrder: Unmanaged<KeyOrder>?
        /// Whether every member so far had the key at its position in `keyOrder`; if not, how many members did
        /// before the first that did not.
        var followsKeyOrder: Bool
        var matchedCount = 0
        /// Where the container lies among the noted places (-1 until a note below it needs it).
        var place = -1
        /// The place of its element, or of the member at ``childPlaceMember`` (its index plus one, as `count`
        /// counts), once a note needed it; -1 until then.
        var childPlace = -1
        var childPlaceMember = -1
    }

    /// Where the bytes of a member of an open object (key included) lie in the buffer. Its key is the one at its
    /// position in its frame's key order, or else in the stack of unmatched keys.
    struct Member {
        let start: Int
        var end: Int
    }

    /// The keys of an object of a `CodingKey` type in the order written, each also as JSON ready to write
    /// (`"key":`), and the order that sorts them (`nil` when they were written sorted). An object of the same type
    /// usually has the same keys in the same order, so the next one reuses it. Never changed once made: an open
    /// frame may refer to it while a newer order replaces it.
    final class KeyOrder {
        let keys: [String]
        let sortingPermutation: [Int]?
        /// The positions from the first to the last the permutation moves; the members outside stay where they are.
        let moved: Range<Int>
        /// Every key as `"key":`, one after another, and where each lies among them.
        private let encodedKeys: UnsafeMutablePointer<UInt8>
        private let encodedKeyRanges: UnsafeMutablePointer<(start: Int, count: Int)>

        init(keys: [String], sortingPermutation: [Int]?) {
            self.keys = keys
            self.sortingPermutation = sortingPermutation
            moved = sortingPermutation.map(Self.moved) ?? 0..<0
            var encoded: [UInt8] = []
            encodedKeyRanges = .allocate(capacity: keys.count)
            for (index, key) in keys.enumerated() {
                let start = encoded.count
                JSONValue.writeString(key, to: &encoded)
                encoded.append(UInt8(ascii: ":"))
                (encodedKeyRanges + index).initialize(to: (start, encoded.count - start))
            }
            encodedKeys = .allocate(capacity: encoded.count)
            encodedKeys.initialize(from: encoded, count: encoded.count)
        }

        deinit {
            encodedKeys.deallocate()
            encodedKeyRanges.deallocate()
        }

        /// The positions from the first to the last that `permutation` moves (empty when it moves none).
        static func moved(_ permutation: [Int]) -> Range<Int> {
            guard let first = permutation.indices.first(where: { permutation[$0] != $0 }),
                let last = permutation.indices.last(where: { permutation[$0] != $0 })
            else { return 0..<0 }
            return first..<(last + 1)
        }

        /// Appends key `index` as `"key":` to `buffer` when it is `key`; returns whether it was.
        @inline(__always)
        func appendKey(at index: Int, ifItIs key: String, to buffer: ByteBuffer) -> Bool {
            guard index < keys.count, keys[index] == key else { return false }
            let range = encodedKeyRanges[index]
            buffer.append(UnsafeBufferPointer(start: encodedKeys + range.start, count: range.count))
            return true
        }
    }

    /// How the writer writes a value of a type that is none of the scalars it knows.
    enum ValueKind {
        /// Through its own `encode(to:)`.
        case composite
        /// An `Array`, element by element; a `Set`, its elements sorted; a dictionary written as alternating keys
        /// and values, its pairs sorted by key.
        case elementwise(any ElementwiseEncodable.Type)
    }

    /// The id of a frame that was never open: writes to it make the encoding unavailable.
    static let closedFrameID = -1

    let buffer = ByteBuffer()
    /// Bytes of an object being reordered.
    private let scratch = ByteBuffer()
    /// The members of an object being reordered, for the memo to move the parts inside them along.
    @exclusivity(unchecked) private var movedMembers: [EncodingMemo.MovedMember] = []
    private let frames = WriterStack<Frame>()
    private let members = WriterStack<Member>()
    private let unmatchedKeys = WriterStack<String>()
    /// Where the key of each pair of the open keyed-pair arrays ends, beside the pair on the member stack.
    private let pairKeyEnds = WriterStack<Int>()
    /// Above zero while writing what the tree encoder writes apart and notes nothing of: a set's elements and a
    /// keyed pair's key.
    @exclusivity(unchecked) private var notesSuspended = 0
    // These are touched for every value of the state and never reached from two places at once.
    /// The key order last met for each `CodingKey` type, by slot.
    @exclusivity(unchecked) private var keyOrders: [KeyOrder?] = []
    @exclusivity(unchecked) private var keyOrderSlots = TypeTable<Int>()
    /// Key orders replaced during this value, kept alive for the frames that still refer to them.
    @exclusivity(unchecked) private var replacedKeyOrders: [KeyOrder] = []
    @exclusivity(unchecked) private var nextFrameID = 0
    /// How each type met so far is written, so the costly conformance checks run once per type.
    @exclusivity(unchecked) private var valueKinds = TypeTable<ValueKind>()
    /// Whether the elements of each type met in an array are looked into for the member that holds their id.
    @exclusivity(unchecked) private var identifiedTypes = IdentityMemberSearch.ElementTypes()
    /// Where the values encoded so far held dictionaries written as keyed pairs, dates, durations and sets, and
    /// the members that identify the elements of their arrays (kept from value to value).
    private(set) var typeNotes = EncodedTypeNotes()
    /// The places met while noting, with what ``typeNotes`` holds at each of them.
    @exclusivity(unchecked) private var notedPlaces = NotedPlaces()
    /// Whether what only a reader of the notes needs is noted too: dates, durations, sets, and the member that
    /// holds the id of the `Identifiable` elements of each array where it is not `id`. Finding a value's path costs
    /// a little for each, and the search for an identity member encodes and parses the first elements of an array
    /// again, which an app's recorder, which never reads the notes, does not pay.
    let notesForReading: Bool
    /// Set when the value used Codable in a way the fast path does not follow.
    @exclusivity(unchecked) private(set) var failed = false

    /// Creates a writer with an empty buffer.
    /// - Parameter notesForReading: Whether ``typeNotes`` gets dates, durations, sets and identity members too
    ///   (dictionaries written as keyed pairs are always noted).
    init(notesForReading: Bool = false) {
        self.notesForReading = notesForReading
    }

    /// Parts of the last value encoded, for reuse, during an encoding that has them; `nil` encodes everything.
    private var memo: EncodingMemo?

    /// Encodes `value` and returns its canonical bytes. With a memo, the bytes of parts equal to the ones it
    /// remembers are copied, and its writer is reused, with its buffer and the key orders it learned; without
    /// one, a writer kept from an earlier encoding is, when one is free (see ``takeSpareWriter()``).
    static func encode(_ value: some Encodable, memo: EncodingMemo? = nil) throws(Unavailable) -> [UInt8] {
        if let memo { return try encode(value, writer: memo.writer, memo: memo) }
        let writer = takeSpareWriter()
        defer { keepSpare(writer) }
        return try encode(value, writer: writer, memo: nil)
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
        frames.truncate(to: 0)
        members.truncate(to: 0)
        unmatchedKeys.truncate(to: 0)
        pairKeyEnds.truncate(to: 0)
        notesSuspended = 0
        replacedKeyOrders.removeAll(keepingCapacity: true)
        failed = false
    }

    // MARK: Values

    /// Writes one whole value at the current position.
    func writeValue<T: Encodable>(_ value: T) throws {
        // Metatype comparisons, not casts: this runs for every value of the state.
        if T.self == String.self {
            writeString(unsafeBitCast(value, to: String.self))
        } else if T.self == Int.self {
            buffer.appendDecimal(Int64(unsafeBitCast(value, to: Int.self)))
        } else if T.self == Double.self {
            try writeDouble(unsafeBitCast(value, to: Double.self))
        } else if T.self == Bool.self {
            writeBool(unsafeBitCast(value, to: Bool.self))
        } else if T.self == UUID.self {
            // `UUID`'s own `encode(to:)` writes its `uuidString`.
            buffer.appendJSONString(uuid: unsafeBitCast(value, to: UUID.self))
        } else if T.self == [String].self {
            // Common enough to skip the lookup of its kind (and the memo, which re-encoding it costs little more).
            writeScalars(unsafeBitCast(value, to: [String].self)) { buffer.appendJSONString($0) }
        } else if T.self == Date.self {
            try writeDouble(unsafeBitCast(value, to: Date.self).timeIntervalSince1970)
            if notesForReading && notesSuspended == 0 { try noteCurrentPlace(as: .dates) }
        } else if T.self == Duration.self {
            // Its own `Codable` writes `[high, low]`, noted so that a diff compares and shows it as one value.
            if notesForReading && notesSuspended == 0 { try noteCurrentPlace(as: .durations) }
            let duration = unsafeBitCast(value, to: Duration.self)
            buffer.append(UInt8(ascii: "["))
            buffer.appendDecimal(duration._high)
            buffer.append(UInt8(ascii: ","))
            buffer.appendDecimal(duration._low)
            buffer.append(UInt8(ascii: "]"))
        } else if T.self == JSONValue.self {
            var bytes: [UInt8] = []
            unsafeBitCast(value, to: JSONValue.self).writeCanonical(to: &bytes)
            buffer.append(bytes)
        } else if T.self == Data.self {
            buffer.appendJSONString(unsafeBitCast(value, to: Data.self).base64EncodedString())
        } else if T.self == URL.self {
            buffer.appendJSONString(unsafeBitCast(value, to: URL.self).absoluteString)
        } else if T.self == Decimal.self {
            throw Unavailable()
        } else {
            try writeOther(value, as: valueKind(of: T.self))
        }
    }

    /// Writes a value of a type that is none of the scalars ``writeValue(_:)`` knows.
    private func writeOther<T: Encodable>(_ value: T, as kind: ValueKind) throws {
        if let (memo, type) = rememberedType(of: T.self) {
            guard !memo.writeRemembered(value, type: type, to: buffer) else { return }
            let place = memo.begin(value, type: type)
            let mark = buffer.count
            try writeBody(value, as: kind)
            memo.end(place, bytes: mark..<buffer.count)
        } else {
            try writeBody(value, as: kind)
        }
    }

    /// Writes a collection element by element, or anything else through its own `encode(to:)`.
    @inline(__always)
    private func writeBody<T: Encodable>(_ value: T, as kind: ValueKind) throws {
        if case .elementwise(let collection) = kind {
            try withUnsafePointer(to: value) { try collection.writeElements(of: $0, with: self) }
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

    /// Writes `elements` as an array, as `Array`'s `encode(to:)` would through an unkeyed container.
    func writeElements<Element: Encodable>(_ elements: [Element]) throws {
        // Arrays of common scalars in a loop of their own: nothing inside them opens a frame or is noted. (An array
        // of strings never gets here: ``writeValue(_:)`` writes it.)
        if Element.self == Int.self {
            return writeScalars(unsafeBitCast(elements, to: [Int].self)) { buffer.appendDecimal(Int64($0)) }
        } else if Element.self == Double.self {
            return try writeScalars(unsafeBitCast(elements, to: [Double].self)) { try writeDouble($0) }
        } else if Element.self == UUID.self {
            return writeScalars(unsafeBitCast(elements, to: [UUID].self)) { buffer.appendJSONString(uuid: $0) }
        }
        let depth = frames.count
        _ = openFrame(isObject: false)
        var searchedPlace = notesForReading ? try identitySearchPlace(of: Element.self, inArrayFrameAt: depth) : nil
        if searchedPlace == nil, let (memo, type) = rememberedType(of: Element.self) {
            try writeElements(elements, rememberedAs: type, in: memo, inArrayFrameAt: depth)
            return closeFrames(above: depth)
        }
        for element in elements {
            startElement(inArrayFrameAt: depth)
            if let place = searchedPlace {
                searchedPlace = try writeExamined(element, inArrayAt: place) ? place : nil
            } else {
                try writeValue(element)
            }
        }
        closeFrames(above: depth)
    }

    /// Writes `elements` into the array frame at `depth`, each unchanged one copied from the memo as
    /// ``writeOther(_:as:)`` would copy it, but compared where the array holds it: an element is copied out of the
    /// array only to be written. (An element of a type ``writeValue(_:)`` writes itself has no remembered parts, so
    /// it is never copied, and is written as before.)
    private func writeElements<Element: Encodable>(
        _ elements: [Element], rememberedAs type: Int, in memo: EncodingMemo, inArrayFrameAt depth: Int
    ) throws {
        try elements.withUnsafeBufferPointer { elements in
            guard let first = elements.baseAddress else { return }
            for index in elements.indices {
                startElement(inArrayFrameAt: depth)
                guard !memo.writeRemembered(at: first + index, type: type, to: buffer) else { continue }
                try writeValue(elements[index])
            }
        }
    }

    /// Counts the next element (or `counting` of them: a keyed pair's key and value) of the array frame at `depth`,
    /// after a comma unless it is the first. Each element closes what it opened, so that frame is on top again; the
    /// stack may have grown and moved meanwhile, so the frame is looked up each time.
    @inline(__always)
    private func startElement(inArrayFrameAt depth: Int, counting elements: Int = 1) {
        let frame = frames.pointer(at: depth)
        if frame.pointee.count > 0 { buffer.append(UInt8(ascii: ",")) }
        frame.pointee.count += elements
    }

    /// The memo and the index in it of `Element`, when the memo copies unchanged values of it written at this depth
    /// (below the root, at most ``EncodingMemo/maxDepth`` levels down).
    @inline(__always)
    private func rememberedType<Element>(of _: Element.Type) -> (memo: EncodingMemo, type: Int)? {
        guard let memo, memo.reusesUnchangedParts, (1...EncodingMemo.maxDepth).contains(frames.count),
            let type = memo.typeIndex(of: Element.self)
        else { return nil }
        return (memo, type)
    }

    /// Writes `element` into the array frame on top, begun by an unkeyed container, looking into it while the
    /// identity member of the arrays at its place is searched for.
    @inline(__always)
    func writeElement<Element: Encodable>(_ element: Element) throws {
        guard notesForReading, let place = try identitySearchPlace(of: Element.self, inArrayFrameAt: frames.count - 1)
        else { return try writeValue(element) }
        _ = try writeExamined(element, inArrayAt: place)
    }

    /// The place of the array in the frame at `index` while the member that holds the id of its elements, of type
    /// `Element`, is searched for there; `nil` when the elements are not `Identifiable`, when they are not noted
    /// (inside a set or a keyed pair's key), or when the search there ended.
    private func identitySearchPlace<Element>(
        of _: Element.Type, inArrayFrameAt index: Int
    ) throws(Unavailable) -> Int? {
        guard notesSuspended == 0, identifiedTypes.looksInto(Element.self) else { return nil }
        let place = try place(ofFrameAt: index)
        return notedPlaces.identitySearchEnded(at: place) ? nil : place
    }

    /// Writes `element` and narrows the search for the identity member of the arrays at `place` with what it
    /// wrote, noting the member when the search ends with one; returns whether the search goes on.
    private func writeExamined<Element: Encodable>(_ element: Element, inArrayAt place: Int) throws -> Bool {
        let start = buffer.count
        try writeValue(element)
        // What a value the fast path does not follow wrote is not read: the tree encoder notes it again.
        guard !failed else { return false }
        let encoded = try JSONValue(parsing: buffer[start..<buffer.count])
        if let found = notedPlaces.examine(element, encoded: encoded, inArrayAt: place) {
            typeNotes.identityKeys[found.path] = found.member
        }
        return !notedPlaces.identitySearchEnded(at: place)
    }

    /// Writes `elements` as an array, each with `write`.
    @inline(__always)
    private func writeScalars<Element>(_ elements: [Element], _ write: (Element) throws -> Void) rethrows {
        buffer.append(UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: ",")) }
            try write(element)
        }
        buffer.append(UInt8(ascii: "]"))
    }

    /// Writes `elements` as an array sorted by their canonical bytes, as ``UnorderedEncodable`` has it, and notes
    /// where it is when noting for reading: each is written in place, then the elements are reordered. Nothing
    /// inside them is noted.
    func writeSortedElements<Element: Encodable>(_ elements: Set<Element>) throws {
        let depth = frames.count
        _ = openFrame(isObject: false)
        let first = members.count
        notesSuspended += 1
        for element in elements {
            startElement(inArrayFrameAt: depth)
            let start = buffer.count
            try writeValue(element)
            members.push(Member(start: start, end: buffer.count))
        }
        notesSuspended -= 1
        sortMembers(from: first, count: members.count - first) { left, right in
            bytes(of: first + left).lexicographicallyPrecedes(bytes(of: first + right))
        }
        closeFrames(above: depth)
        if notesForReading && notesSuspended == 0 { try noteCurrentPlace(as: .sets) }
    }

    /// Writes `dictionary` as its alternating keys and values with its pairs sorted by their keys' canonical bytes,
    /// as ``PairEncodedDictionary`` has it, and notes where it is: each pair is written in place, then the pairs are
    /// reordered. What is inside a key is not noted; what is inside a value is, below
    /// ``EncodedTypeNotes/Step/pairValue``.
    func writeSortedPairs<Key: Encodable, Value: Encodable>(_ dictionary: [Key: Value]) throws {
        let depth = frames.count
        _ = openFrame(isObject: false, holdsPairs: true)
        let first = members.count
        let firstKeyEnd = pairKeyEnds.count
        for (key, value) in dictionary {
            startElement(inArrayFrameAt: depth, counting: 2)
            let start = buffer.count
            notesSuspended += 1
            try writeValue(key)
            notesSuspended -= 1
            pairKeyEnds.push(buffer.count)
            buffer.append(UInt8(ascii: ","))
            try writeValue(value)
            members.push(Member(start: start, end: buffer.count))
        }
        let count = members.count - first
        func key(_ index: Int) -> UnsafeBufferPointer<UInt8> {
            buffer[members.pointer(at: first + index).pointee.start..<pairKeyEnds.pointer(at: firstKeyEnd + index).pointee]
        }
        sortMembers(from: first, count: count) { key($0).lexicographicallyPrecedes(key($1)) }
        pairKeyEnds.truncate(to: firstKeyEnd)
        closeFrames(above: depth)
        if notesSuspended == 0 { try noteCurrentPlace(as: .keyedPairArrays) }
    }

    /// Puts the `count` members (or elements, or pairs) from `first` on the member stack in the order `precedes` gives
    /// their indices, from 0. Fewer than two (most sets and dictionaries in most states) are in order as written.
    private func sortMembers(from first: Int, count: Int, by precedes: (Int, Int) -> Bool) {
        guard count > 1 else { return }
        let sorted = (0..<count).sorted(by: precedes)
        reorder(first, by: sorted, moving: KeyOrder.moved(sorted))
    }

    /// The bytes of the member or element at `index` on the member stack.
    private func bytes(of index: Int) -> UnsafeBufferPointer<UInt8> {
        let member = members.pointer(at: index)
        return buffer[member.pointee.start..<member.pointee.end]
    }

    /// How values of `type` are written, found once per type.
    @inline(__always)
    private func valueKind(of type: Any.Type) -> ValueKind {
        if let kind = valueKinds[type] { return kind }
        var kind = ValueKind.composite
        if let collection = type as? any ElementwiseEncodable.Type {
            if let dictionary = type as? any PairEncodedDictionary.Type {
                if dictionary.encodesAsPairs { kind = .elementwise(collection) }
            } else {
                kind = .elementwise(collection)
            }
        }
        valueKinds.set(kind, for: type)
        return kind
    }

    /// Forgets the places noted so far.
    func forgetTypeNotes() {
        typeNotes = EncodedTypeNotes()
        notedPlaces = NotedPlaces()
    }

    /// How many bytes its buffers hold room for.
    var heldBytes: Int { buffer.capacity + scratch.capacity }

    /// Adds places found by the tree encoder, for a value this writer could not follow.
    func note(_ notes: EncodedTypeNotes) {
        typeNotes.formUnion(notes)
    }

    /// Notes a place of `kind` where the value being written lies, unless one was noted there already.
    /// - Throws: ``Unavailable`` when that place has no name (a value written into an object outside a member).
    private func noteCurrentPlace(as kind: EncodedTypeNotes.Kind) throws(Unavailable) {
        let place = frames.isEmpty ? NotedPlaces.root : try placeInside(frameAt: frames.count - 1)
        if let path = notedPlaces.markNoted(kind, at: place) { typeNotes.insert(path, as: kind) }
    }

    /// The place of what is being written in the open frame at `index`: its generalised path is the key of each
    /// open object's current member, and ``EncodedTypeNotes/Step/element`` (or ``EncodedTypeNotes/Step/pairValue``)
    /// for each open array. Each frame keeps its own place and its current member's, so the next note in it looks
    /// up at most one step.
    private func placeInside(frameAt index: Int) throws(Unavailable) -> Int {
        let frame = frames.pointer(at: index)
        if frame.pointee.childPlace >= 0,
            !frame.pointee.isObject || frame.pointee.childPlaceMember == frame.pointee.count
        {
            return frame.pointee.childPlace
        }
        let place = try place(ofFrameAt: index)
        let step: EncodedTypeNotes.Step
        if frame.pointee.isObject {
            step = .member(try currentMemberKey(of: frame.pointee))
        } else {
            step = frame.pointee.holdsPairs ? .pairValue : .element
        }
        let child = notedPlaces.child(of: place, step)
        frame.pointee.childPlace = child
        frame.pointee.childPlaceMember = frame.pointee.count
        return child
    }

    /// Where the container in the open frame at `index` lies among the noted places.
    private func place(ofFrameAt index: Int) throws(Unavailable) -> Int {
        let frame = frames.pointer(at: index)
        if frame.pointee.place < 0 {
            frame.pointee.place = index == 0 ? NotedPlaces.root : try placeInside(frameAt: index - 1)
        }
        return frame.pointee.place
    }

    /// The key of the member of object `frame` begun last: the one at its position in the frame's key order while
    /// the members follow it, else the one kept on the stack of unmatched keys.
    private func currentMemberKey(of frame: Frame) throws(Unavailable) -> String {
        let index = frame.count - 1
        guard index >= 0 else { throw Unavailable() }
        if frame.followsKeyOrder, let order = frame.keyOrder {
            return order._withUnsafeGuaranteedRef { $0.keys[index] }
        }
        let unmatched = frame.firstUnmatchedKey + index - frame.matchedCount
        guard unmatched >= frame.firstUnmatchedKey, unmatched < unmatchedKeys.count else { throw Unavailable() }
        return unmatchedKeys.pointer(at: unmatched).pointee
    }

    /// Appends `value` as a JSON string, escaped as canonical JSON escapes it.
    package func writeString(_ value: String) {
        buffer.appendJSONString(value)
    }

    func writeBool(_ value: Bool) {
        buffer.append(value ? Self.trueBytes : Self.falseBytes)
    }

    func writeInteger(_ value: Int64) {
        buffer.appendDecimal(value)
    }

    func writeUnsigned(_ value: UInt64) {
        buffer.appendDecimal(value)
    }

    func writeDouble(_ value: Double) throws {
        guard value.isFinite else { throw Unavailable() }
        buffer.appendCanonicalNumber(value)
    }

    func writeFloat(_ value: Float) throws {
        guard value.isFinite else { throw Unavailable() }
        try writeDouble(Double(value.description) ?? Double(value))
    }

    func writeNull() {
        buffer.append(Self.nullBytes)
    }

    // MARK: Containers

    /// Opens an object (with the keys of `keyType`) or an array container at the current position and returns
    /// its frame's id. `isMemberValue`: it is the value of the member just begun in its parent object.
    func openFrame(
        isObject: Bool, keyType: (any CodingKey.Type)? = nil, isMemberValue: Bool = false, holdsPairs: Bool = false
    ) -> Int {
        buffer.append(isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
        let id = nextFrameID
        nextFrameID += 1
        var slot = -1
        var order: Unmanaged<KeyOrder>?
        if let keyType {
            slot = keyOrderSlot(of: keyType)
            order = keyOrders[slot].map { Unmanaged.passUnretained($0) }
        }
        frames.push(Frame(
            id: id, isObject: isObject, holdsPairs: holdsPairs, isMemberValue: isMemberValue, contentStart: buffer.count,
            firstMember: members.count, firstUnmatchedKey: unmatchedKeys.count, keyOrderSlot: slot, keyOrder: order,
            followsKeyOrder: order != nil))
        return id
    }

    /// Where the key order of `keyType` is kept.
    private func keyOrderSlot(of keyType: any CodingKey.Type) -> Int {
        if let slot = keyOrderSlots[keyType] { return slot }
        keyOrders.append(nil)
        keyOrderSlots.set(keyOrders.count - 1, for: keyType)
        return keyOrders.count - 1
    }

    /// Makes frame `id` the one written to now, finishing frames opened after it; throws if it already finished.
    @inline(__always)
    func activate(_ id: Int) throws(Unavailable) {
        guard frames.isEmpty || frames.top.pointee.id != id else { return }
        try activateFinishing(id)
    }

    private func activateFinishing(_ id: Int) throws(Unavailable) {
        guard id != Self.closedFrameID else { throw Unavailable() }
        while !frames.isEmpty, frames.top.pointee.id > id { closeTop() }
        guard !frames.isEmpty, frames.top.pointee.id == id else { throw Unavailable() }
    }

    /// Starts a keyed member of frame `id`: writes the comma before it when needed, and its key.
    func beginMember(_ key: String, inFrame id: Int) throws(Unavailable) {
        try activate(id)
        let frame = frames.top
        let index = frame.pointee.count
        if index > 0 { buffer.append(UInt8(ascii: ",")) }
        frame.pointee.count = index + 1
        let start = buffer.count
        let known = frame.pointee.followsKeyOrder
            && frame.pointee.keyOrder!._withUnsafeGuaranteedRef { $0.appendKey(at: index, ifItIs: key, to: buffer) }
        if !known {
            if frame.pointee.followsKeyOrder {
                frame.pointee.followsKeyOrder = false
                frame.pointee.matchedCount = index
            }
            buffer.appendJSONString(key)
            buffer.append(UInt8(ascii: ":"))
            unmatchedKeys.push(key)
        }
        members.push(Member(start: start, end: start))
    }

    /// Ends the keyed member begun last.
    @inline(__always)
    func endMember() {
        members.top.pointee.end = buffer.count
    }

    /// Starts an element of array frame `id`: writes the comma before it when needed.
    func beginElement(inFrame id: Int) throws(Unavailable) {
        try activate(id)
        startElement(inArrayFrameAt: frames.count - 1)
    }

    /// Opens a nested container as the member `key` of frame `id`.
    func openNested(isObject: Bool, keyType: (any CodingKey.Type)?, key: String, inFrame id: Int) -> Int {
        guard (try? beginMember(key, inFrame: id)) != nil else { return closedFrame() }
        return openFrame(isObject: isObject, keyType: keyType, isMemberValue: true)
    }

    /// Opens a nested container as an element of frame `id`.
    func openNestedElement(isObject: Bool, keyType: (any CodingKey.Type)?, inFrame id: Int) -> Int {
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
        while frames.count > depth { closeTop() }
    }

    /// Finishes the top frame: sorts an object's members, closes the bracket, and ends the member it is the
    /// value of.
    private func closeTop() {
        let frame = frames.pop()
        if frame.isObject {
            sortMembers(of: frame)
            buffer.append(UInt8(ascii: "}"))
        } else {
            buffer.append(UInt8(ascii: "]"))
        }
        members.truncate(to: frame.firstMember)
        unmatchedKeys.truncate(to: frame.firstUnmatchedKey)
        if frame.isMemberValue { endMember() }
    }

    /// Rewrites an object's members in canonical key order when they were written in another order.
    private func sortMembers(of frame: Frame) {
        let memberCount = members.count - frame.firstMember
        guard memberCount > 0 else { return }
        if frame.followsKeyOrder,
            let known = frame.keyOrder?._withUnsafeGuaranteedRef({ $0.keys.count == memberCount ? $0 : nil })
        {
            if let permutation = known.sortingPermutation {
                reorder(frame.firstMember, by: permutation, moving: known.moved)
            }
        } else if let permutation = learnKeyOrder(of: frame, memberCount: memberCount) {
            reorder(frame.firstMember, by: permutation, moving: KeyOrder.moved(permutation))
        }
    }

    /// Rewrites the ranges from `first` on the member stack (members or elements, in the buffer one after another
    /// with a comma between) in the order `permutation` gives. Only the positions in `moved` change: their ranges
    /// trade places among themselves, so what lies before and after them stays where it is.
    ///
    /// The moved ranges are gathered in their new order and written back over the old; where they outweigh the
    /// rest of the buffer (an object near the root whose large member moves), the rest is gathered around them
    /// instead and the two buffers trade places, which copies the moved ranges once.
    private func reorder(_ first: Int, by permutation: [Int], moving moved: Range<Int>) {
        guard !moved.isEmpty else { return }
        let from = members.pointer(at: first + moved.lowerBound).pointee.start
        let to = members.pointer(at: first + moved.upperBound - 1).pointee.end
        let gathersWholeBuffer = buffer.count - (to - from) < to - from
        // The memo's parts inside the moved members move with them; in its old order, each member's new place.
        let movesRememberedParts = memo?.reusesUnchangedParts == true
        if movesRememberedParts {
            movedMembers.removeAll(keepingCapacity: true)
            for index in moved {
                let member = members.pointer(at: first + index).pointee
                movedMembers.append(.init(start: member.start, end: member.end, newStart: 0))
            }
        }
        scratch.removeAll()
        if gathersWholeBuffer { scratch.append(buffer[0..<from]) }
        let scratchStart = gathersWholeBuffer ? 0 : from
        for index in moved {
            if index > moved.lowerBound { scratch.append(UInt8(ascii: ",")) }
            let member = members.pointer(at: first + permutation[index])
            if movesRememberedParts { movedMembers[permutation[index] - moved.lowerBound].newStart = scratchStart + scratch.count }
            scratch.append(buffer[member.pointee.start..<member.pointee.end])
        }
        if movesRememberedParts { movedMembers.withUnsafeBufferPointer { memo?.membersMoved($0) } }
        if gathersWholeBuffer {
            scratch.append(buffer[to..<buffer.count])
            assert(scratch.count == buffer.count)
            buffer.swapContents(with: scratch)
        } else {
            assert(scratch.count == to - from)
            buffer.overwrite(at: from, with: scratch[0..<scratch.count])
        }
    }

    /// The order that sorts `frame`'s members by key, or `nil` when they are sorted already; kept for the next
    /// object of its `CodingKey` type unless a key was written twice, which fails the encoding.
    private func learnKeyOrder(of frame: Frame, memberCount: Int) -> [Int]? {
        let matchedCount = frame.followsKeyOrder ? memberCount : frame.matchedCount
        var keys = frame.keyOrder.map { $0.takeUnretainedValue().keys.prefix(matchedCount) }.map(Array.init) ?? []
        unmatchedKeys.withElements(from: frame.firstUnmatchedKey) { keys += $0 }
        let sorted = keys.indices.sorted { keys[$0].utf8.lexicographicallyPrecedes(keys[$1].utf8) }
        let permutation = sorted.elementsEqual(keys.indices) ? nil : sorted
        // A key written twice: the tree encoder keeps the last value, as Foundation's encoder does.
        if zip(sorted, sorted.dropFirst()).contains(where: { keys[$0] == keys[$1] }) {
            markFailed()
            return permutation
        }
        guard frame.keyOrderSlot >= 0 else { return permutation }
        if let replaced = keyOrders[frame.keyOrderSlot] { replacedKeyOrders.append(replaced) }
        keyOrders[frame.keyOrderSlot] = KeyOrder(keys: keys, sortingPermutation: permutation)
        return permutation
    }

    private static let trueBytes = Array("true".utf8)
    private static let falseBytes = Array("false".utf8)
    private static let nullBytes = Array("null".utf8)
    private static let emptyObject = Array("{}".utf8)
}
