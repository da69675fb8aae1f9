// The parser's tables: the keys of objects it has seen, so that records of one shape are read without hashing
// their keys, and short strings it has made, so that repeated values cost no allocation.

/// An object member's key as read from the input, before it is needed as a string.
struct PendingKey {
    /// The offset of its opening quote.
    var offset: Int
    /// Its content between the quotes; `nil` when it has escapes, and is decoded in the reader's `scratch`.
    var content: Range<Int>?
    /// Its bytes, when it has no escapes and at most 16 bytes.
    var short: ShortKey?
}

/// The UTF-8 of a string of at most 16 bytes, packed into two little-endian words: compared and hashed without
/// a loop.
struct ShortKey: Equatable, Sendable {
    /// Bytes 0 to 7, the first in the lowest bits; bytes past the end are zero.
    var low: UInt64
    /// Bytes 8 to 15, likewise.
    var high: UInt64
    /// How many bytes, 0 to 16.
    var length: Int

    /// Packs the bytes of `range`, or returns `nil` when there are more than 16.
    /// - Parameter inputCount: The input's length: no byte at or past it is read.
    @inline(__always)
    init?(base: UnsafePointer<UInt8>, range: Range<Int>, inputCount: Int) {
        length = range.count
        guard length <= 16 else { return nil }
        let start = base + range.lowerBound
        if range.lowerBound + 16 <= inputCount {
            low = UInt64(littleEndian: JSONStringBytes.word(at: start))
            high = UInt64(littleEndian: JSONStringBytes.word(at: start + 8))
        } else {
            low = 0
            high = 0
            for offset in 0..<length {
                let shifted = UInt64(start[offset]) &<< UInt64((offset & 7) &* 8)
                if offset < 8 { low |= shifted } else { high |= shifted }
            }
        }
        low &= length >= 8 ? .max : (1 &<< UInt64(length &* 8)) &- 1
        high &= length >= 16 ? .max : length <= 8 ? 0 : (1 &<< UInt64((length &- 8) &* 8)) &- 1
    }

    /// The bytes as a string; they are valid UTF-8, as the parser checked them.
    var string: String {
        withUnsafeBytes(of: (low.littleEndian, high.littleEndian)) { bytes in
            String(decoding: bytes.prefix(length), as: UTF8.self)
        }
    }

    /// A cheap mix of the bytes and `seed` (not `Hashable`: this is for the parser's own tables). Every byte
    /// reaches the highest bits.
    @inline(__always)
    func hashValue(seed: UInt64) -> UInt64 {
        ((seed ^ low) &* 0x9E37_79B9_7F4A_7C15 ^ high ^ UInt64(length)) &* 0xC2B2_AE3D_27D4_EB4F
    }

    /// An index into a table of `1 << bits` entries, from the highest bits of the hash.
    @inline(__always)
    func tableIndex(bits: Int) -> Int {
        Int(truncatingIfNeeded: hashValue(seed: 0) &>> UInt64(64 - bits))
    }
}

/// The keys of a kind of object, in order, with a dictionary that has them all (every value `null`) and where
/// each one lies in it. Copies of the template take values at those indices without hashing a key. Every parser
/// shares the template for the same keys (see ``ShapeTemplates``).
final class ObjectShape: Sendable {
    /// The keys in the order they appear in the input; distinct.
    let keys: [ShortKey]
    /// A dictionary with every key, each value `null`.
    let template: [String: JSONValue]
    /// The index of each key of ``keys`` in ``template``, and so in every copy of it.
    let indices: [Dictionary<String, JSONValue>.Index]
    /// The slot of the reader's shape table that holds this shape.
    let slot: Int

    init(keys: ArraySlice<ShortKey>, slot: Int) {
        self.keys = Array(keys)
        let template = ShapeTemplates.template(for: self.keys)
        self.template = template.members
        self.indices = template.indices
        self.slot = slot
    }

    /// The first `count` members of `members`, a copy of the template that took values in key order, as a
    /// dictionary of its own: for an object that turned out to have other keys.
    func plainMembers(_ members: [String: JSONValue], count: Int) -> [String: JSONValue] {
        var plain: [String: JSONValue] = [:]
        plain.reserveCapacity(Swift.max(8, count + 1))
        for index in indices[..<count] {
            let (key, value) = members[index]
            plain[key] = value
        }
        return plain
    }
}

/// One entry of the reader's table of object shapes.
struct ShapeSlot: Sendable {
    /// The table has `1 << indexBits` slots.
    static let indexBits = 6

    /// The shape objects whose first key falls in this slot are expected to have.
    var shape: ObjectShape?
    /// A hash of the keys of the last object in this slot that did not follow ``shape``; `nil` after one that did.
    var candidateSignature: UInt64?
}

/// One entry of the reader's table of short strings.
struct ShortString: Sendable {
    /// The table has `1 << indexBits` entries.
    static let indexBits = 7

    /// The string's bytes; `nil` in an empty entry.
    var bytes: ShortKey?
    var string = ""
}
