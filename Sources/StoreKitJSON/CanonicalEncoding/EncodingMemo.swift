@_spi(Reflection) import Swift
import StoreKitSystem

/// The canonical bytes of the objects and arrays near the root of the last value encoded, so that encoding the
/// next, mostly unchanged value (the state after one more action) copies the bytes of each part that is unchanged
/// since the last value instead of encoding it again.
///
/// A part counts as unchanged when its bits equal those of the part met at the same point last time (matched in
/// the order the encoder meets them, by type, from one to ``maxDepth`` levels below the root), leaving out the padding
/// between the fields of structs, which copies do not keep. The memo keeps a copy of
/// each part, so the arrays, strings and dictionaries inside it are shared and copy-on-write: equal bits mean the
/// same contents. A part's bytes are not copied to be remembered: the memo keeps the whole last value's bytes (its
/// writer's buffer, traded for an empty one) and where each part lies in them, moved along as the writer sorts the
/// members around them. The one thing bits cannot show is a class instance inside a part that was changed in place, so
/// a part that is itself a class is always encoded, and with ``PartReuse/provenValueParts`` so is every part whose
/// type is not proven to hold values only (``ValueOnlyTypes``). Bits that differ (a value rebuilt with equal
/// contents, `0.0` become `-0.0`) only cost an encoding. Used by one thread at a time.
package final class EncodingMemo {
    /// How many levels below the root are remembered: its members, theirs, and one more. The root itself is not:
    /// a state changes at almost every step, so its copy in the memo went unused while costing a copy of all of it.
    package static let maxDepth = 3

    /// Which unchanged parts are copied instead of encoded again.
    package enum PartReuse: Sendable {
        /// None: every value is encoded in full, and the memo only keeps its writer for the next value.
        case never
        /// The parts whose type is proven to hold values only (``ValueOnlyTypes``), which is always right.
        case provenValueParts
        /// Every part but a class instance: right only when no part holds a class instance changed in place.
        case everyPart
    }

    /// One remembered part: its type (an index into ``types``), its value (an index into that type's values),
    /// where its bytes lie (in the writer's buffer while it is written, in ``previousBytes`` once it is the last
    /// value's), and how many remembered parts lie inside it (they follow it).
    private struct Entry {
        let type: Int
        var value: Int
        var bytes: Range<Int>
        var descendants: Int
    }

    /// Where a part being encoded afresh was noted, for ``end(_:bytes:)``.
    struct Place {
        fileprivate let slot: Int
        fileprivate let previous: Int?
    }

    // Touched for every part of every state; one thread at a time.
    @exclusivity(unchecked) private var types: [any RememberedType] = []
    @exclusivity(unchecked) private var typeIDs: [ObjectIdentifier] = []
    @exclusivity(unchecked) private var notRemembered: [ObjectIdentifier] = []
    @exclusivity(unchecked) private var previous: [Entry] = []
    @exclusivity(unchecked) private var current: [Entry] = []
    /// How many of ``previous``'s and of ``current``'s entries are of each type, by type index.
    @exclusivity(unchecked) private var previousEntriesOfType: [Int] = []
    @exclusivity(unchecked) private var currentEntriesOfType: [Int] = []
    /// The bytes of the last value encoded, which the parts of ``previous`` lie in.
    private let previousBytes = ByteBuffer()
    /// The next part of the previous value to compare with.
    @exclusivity(unchecked) private var cursor = 0
    /// The writer that encodes with this memo, kept with its buffer and what it learned of key orders.
    let writer: CanonicalByteWriter
    /// Which unchanged parts are copied.
    let reuse: PartReuse
    /// Whether any unchanged part is copied; when not, the memo only keeps its writer for the next value.
    var reusesUnchangedParts: Bool { reuse != .never }
    /// Where the values encoded with this memo held dictionaries written as keyed pairs, dates, durations and sets,
    /// and the members that identify the elements of their arrays (see ``EncodedTypeNotes``).
    /// Parts copied unchanged are not looked into again; what they held was noted when they were first encoded.
    package var typeNotes: EncodedTypeNotes { writer.typeNotes }

    /// Creates an empty memo: the first value is encoded in full.
    /// - Parameters:
    ///   - reuse: Which unchanged parts are copied; ``PartReuse/never`` reuses only the writer (its buffer and the
    ///     key order of each `CodingKey` type).
    ///   - notesForReading: Whether ``typeNotes`` gets the places of dates and durations and the identity members
    ///     of arrays of `Identifiable` elements too, at a small cost for each (dictionaries written as keyed pairs
    ///     are always noted).
    package init(reuse: PartReuse = .everyPart, notesForReading: Bool = false) {
        self.reuse = reuse
        self.writer = CanonicalByteWriter(notesForReading: notesForReading)
    }

    /// The index of `T` among the remembered types, or `nil` when its values are never reused (a class, or with
    /// ``PartReuse/provenValueParts`` a type not proven to hold values only).
    func typeIndex<T>(of type: T.Type) -> Int? {
        let id = ObjectIdentifier(type)
        if let index = typeIDs.firstIndex(of: id) { return index }
        if notRemembered.contains(id) { return nil }
        guard !(type is AnyClass), reuse == .everyPart || ValueOnlyTypes.contains(type) else {
            notRemembered.append(id)
            return nil
        }
        types.append(RememberedValues<T>())
        typeIDs.append(id)
        previousEntriesOfType.append(0)
        currentEntriesOfType.append(0)
        return types.count - 1
    }

    /// Starts encoding a new value: what the last one remembered becomes what this one is compared with, and the
    /// last value's bytes, still in the writer's buffer, are kept for it (the writer gets the memory of the ones
    /// before).
    func beginValue() {
        swap(&previous, &current)
        previousBytes.swapContents(with: writer.buffer)
        current.removeAll(keepingCapacity: true)
        cursor = 0
        swap(&previousEntriesOfType, &currentEntriesOfType)
        for index in currentEntriesOfType.indices { currentEntriesOfType[index] = 0 }
        // A type's values no part refers to any more are let go of once they outnumber the live ones, so the
        // copies of a large part (an array of thousands of elements) do not pile up.
        for (index, type) in types.enumerated() where type.count > 2 * previousEntriesOfType[index] + 8 {
            compact(index)
        }
    }

    /// Drops the values of type `index` that no remembered part refers to any more.
    private func compact(_ index: Int) {
        // Each value's index once the others are dropped, -1 for a value to drop.
        var newIndex = [Int](repeating: -1, count: types[index].count)
        for entry in previous where entry.type == index { newIndex[entry.value] = 0 }
        var kept = 0
        for value in newIndex.indices where newIndex[value] == 0 {
            newIndex[value] = kept
            kept += 1
        }
        newIndex.withUnsafeBufferPointer { types[index].compact(to: $0) }
        for entry in previous.indices where previous[entry].type == index {
            previous[entry].value = newIndex[previous[entry].value]
        }
    }

    /// Forgets everything, after an encoding that did not finish.
    func reset() {
        previous.removeAll()
        current.removeAll()
        for index in types.indices { (previousEntriesOfType[index], currentEntriesOfType[index]) = (0, 0) }
        for type in types { type.forget() }
        cursor = 0
    }

    /// Appends to `buffer` the remembered bytes of the part met at this point last time, when `value` has its bits,
    /// and remembers it and the parts inside it again; returns false, writing nothing, when it differs.
    func writeRemembered<T>(_ value: T, type: Int, to buffer: ByteBuffer) -> Bool {
        withUnsafePointer(to: value) { writeRemembered(at: UnsafeRawPointer($0), type: type, to: buffer) }
    }

    /// ``writeRemembered(_:type:to:)`` for the value at `value`, of the type at index `type`: an array's element
    /// in its storage, compared without a copy.
    func writeRemembered(at value: UnsafeRawPointer, type: Int, to buffer: ByteBuffer) -> Bool {
        guard cursor < previous.count, previous[cursor].type == type,
            types[type].isUnchanged(value, previous[cursor].value)
        else { return false }
        let first = cursor
        let last = first + previous[first].descendants
        cursor = last + 1
        // The parts inside it lie where they lay in it.
        let shift = buffer.count - previous[first].bytes.lowerBound
        buffer.append(previousBytes[previous[first].bytes])
        for index in first...last {
            var entry = previous[index]
            entry.bytes = (entry.bytes.lowerBound + shift)..<(entry.bytes.upperBound + shift)
            current.append(entry)
            currentEntriesOfType[entry.type] += 1
        }
        return true
    }

    /// Notes that `value` is being encoded afresh.
    func begin<T>(_ value: T, type: Int) -> Place {
        let matched = cursor < previous.count && previous[cursor].type == type ? cursor : nil
        // The parts inside it are compared with the parts inside the previous one at this point.
        if matched != nil { cursor += 1 }
        let valueIndex = withUnsafePointer(to: value) { types[type].remember($0) }
        current.append(Entry(type: type, value: valueIndex, bytes: 0..<0, descendants: 0))
        currentEntriesOfType[type] += 1
        return Place(slot: current.count - 1, previous: matched)
    }

    /// Remembers that the part begun at `place` lies at `bytes` in the writer's buffer.
    func end(_ place: Place, bytes: Range<Int>) {
        current[place.slot].bytes = bytes
        current[place.slot].descendants = current.count - 1 - place.slot
        // Whatever its parts did, the next comparison is with what followed the previous part at this point.
        if let matched = place.previous { cursor = matched + 1 + previous[matched].descendants }
    }
}

extension EncodingMemo {
    /// A member (or element, or keyed pair) of an object the writer is sorting: where it lay in the writer's
    /// buffer, and where it now begins.
    struct MovedMember {
        var start: Int
        var end: Int
        var newStart: Int
    }

    /// Moves along the parts written inside `moved`, the members of an object that the writer wrote again in
    /// another order at the same place, listed in their old order; each part lies inside one of them, or after the
    /// last, where nothing moved.
    func membersMoved(_ moved: UnsafeBufferPointer<MovedMember>) {
        guard let from = moved.first?.start else { return }
        // The parts written since the object began follow every other part but its own and its ancestors' (still
        // being written, so not yet anywhere); those inside its members are the ones from `from` on.
        var index = current.count - 1
        while index >= 0, current[index].bytes.lowerBound >= from {
            let start = current[index].bytes.lowerBound
            // The last member beginning at or before the part.
            var low = 0
            var high = moved.count
            while high - low > 1 {
                let middle = (low + high) / 2
                if moved[middle].start <= start { low = middle } else { high = middle }
            }
            if start < moved[low].end {
                let shift = moved[low].newStart - moved[low].start
                current[index].bytes = (start + shift)..<(current[index].bytes.upperBound + shift)
            }
            index -= 1
        }
    }
}

/// The remembered values of one type. Values are only appended: a part reused from the last value keeps its index,
/// and the values no part refers to any more are dropped now and then by ``compact(to:)``.
private protocol RememberedType: AnyObject {
    /// How many values are held.
    var count: Int { get }
    /// Drops every value.
    func forget()
    /// Whether the value at `value` (of this type) has the bits of the one held at `index`, padding left out.
    func isUnchanged(_ value: UnsafeRawPointer, _ index: Int) -> Bool
    /// Holds a copy of the value at `value`; returns its index.
    func remember(_ value: UnsafeRawPointer) -> Int
    /// Keeps the values whose `newIndex` is not -1, each moved to its new index (kept values keep their order, so
    /// it is never above the old one), and drops the others.
    func compact(to newIndex: UnsafeBufferPointer<Int>)
}

/// The values of one type, in memory of its own: this class is made for a type known only at run time, so its
/// code runs unspecialized, and raw storage spares it a generic array's metadata lookups.
private final class RememberedValues<E>: RememberedType {
    private var base: UnsafeMutablePointer<E>
    private var held = 0
    private var capacity = 64
    /// 0xFF for each byte of an `E` that holds data, 0 for each byte of padding (``DataBytes``), in memory of its
    /// own so that a comparison retains nothing; `nil` when every byte holds data.
    private let mask: UnsafeMutableRawBufferPointer?

    init() {
        base = .allocate(capacity: capacity)
        let mask = DataBytes.mask(of: E.self)
        if mask.allSatisfy({ $0 == 0xFF }) {
            self.mask = nil
        } else {
            let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: mask.count, alignment: 8)
            copy.copyBytes(from: mask)
            self.mask = copy
        }
    }

    deinit {
        base.deinitialize(count: held)
        base.deallocate()
        mask?.deallocate()
    }

    var count: Int { held }

    func forget() {
        base.deinitialize(count: held)
        held = 0
    }

    func isUnchanged(_ value: UnsafeRawPointer, _ index: Int) -> Bool {
        guard let mask else { return memcmp(value, base + index, MemoryLayout<E>.size) == 0 }
        return DataBytes.same(value, UnsafeRawPointer(base + index), where: UnsafeRawBufferPointer(mask))
    }

    func remember(_ value: UnsafeRawPointer) -> Int {
        if held == capacity {
            let grown = UnsafeMutablePointer<E>.allocate(capacity: capacity * 2)
            grown.moveInitialize(from: base, count: held)
            base.deallocate()
            base = grown
            capacity *= 2
        }
        (base + held).initialize(to: value.assumingMemoryBound(to: E.self).pointee)
        held += 1
        return held - 1
    }

    func compact(to newIndex: UnsafeBufferPointer<Int>) {
        // In place and in order: the slot a kept value moves to was emptied before, its value dropped or moved
        // lower. Moving retains and releases nothing; only the dropped values are released.
        var kept = 0
        for old in 0..<held {
            let new = newIndex[old]
            if new < 0 {
                (base + old).deinitialize(count: 1)
            } else {
                if new != old { (base + new).moveInitialize(from: base + old, count: 1) }
                kept += 1
            }
        }
        held = kept
    }
}

/// Which bytes of a type's values hold data, and which are padding between the fields of a struct.
///
/// A copy of a struct writes its fields and may leave the padding between them as the memory held it: the
/// specialized code that hands an array's element to the encoder copies field by field, so two copies of one todo
/// (a `Bool` and then a `Date`: seven bytes of padding) can differ in those bytes. Compared whole, an unchanged part
/// then looked changed. The layout comes from the runtime's field offsets (`_forEachField`): a struct's fields are
/// followed into, and anything else (an enum, a class reference, a type the runtime cannot list) counts as data
/// throughout, which at worst makes an unchanged part look changed, never the other way round.
enum DataBytes {
    /// 0xFF for each byte of a `T` that holds data, 0 for padding.
    static func mask<T>(of type: T.Type) -> [UInt8] {
        var mask = [UInt8](repeating: 0, count: MemoryLayout<T>.size)
        if TypeKind.of(type) != .struct || !markFields(of: type, at: 0, in: &mask) {
            for index in mask.indices { mask[index] = 0xFF }
        }
        return mask
    }

    /// Marks the bytes of the fields of `type`, a struct at `offset`; false when the runtime lists no fields for it
    /// (one it has no field records of).
    private static func markFields(of type: any Any.Type, at offset: Int, in mask: inout [UInt8]) -> Bool {
        var fields: [(offset: Int, type: any Any.Type, kind: _MetadataKind)] = []
        let listed = _forEachField(of: type) { _, fieldOffset, fieldType, kind in
            fields.append((fieldOffset, fieldType, kind))
            return true
        }
        guard listed, !fields.isEmpty || size(of: type) == 0 else { return false }
        for field in fields {
            let start = offset + field.offset
            if field.kind == .struct, markFields(of: field.type, at: start, in: &mask) { continue }
            for index in start..<min(start + size(of: field.type), mask.count) { mask[index] = 0xFF }
        }
        return true
    }

    private static func size<F>(of _: F.Type) -> Int {
        MemoryLayout<F>.size
    }

    /// Whether the bytes at `left` and `right` are the same wherever `mask` is 0xFF.
    static func same(_ left: UnsafeRawPointer, _ right: UnsafeRawPointer, where mask: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset + 8 <= mask.count {
            let difference = left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                ^ right.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            if difference & mask.loadUnaligned(fromByteOffset: offset, as: UInt64.self) != 0 { return false }
            offset += 8
        }
        while offset < mask.count {
            let difference = left.load(fromByteOffset: offset, as: UInt8.self) ^ right.load(fromByteOffset: offset, as: UInt8.self)
            if difference & mask[offset] != 0 { return false }
            offset += 1
        }
        return true
    }
}
