import StoreKitSystem

/// The last few objects and arrays built from a stream's bytes, so that the same bytes met again give the very
/// same value, its storage shared, instead of being parsed again.
///
/// A session repeats a few actions over and over (`{"increment":{}}`); parsing one costs far more than comparing its
/// bytes with a few kept, and a value that shares its storage with one met before is equal to it at once (see
/// ``JSONValue/sharesStorage(with:)``), so what was decoded from it can be found without hashing it. Values of more
/// than ``longestKept`` bytes are not kept.
package struct RecentValues: Sendable {
    /// How many are kept; the one met least recently makes room for the next.
    package static var capacity: Int { 4 }
    /// The most bytes a kept value may have.
    package static var longestKept: Int { 1024 }

    private var entries: [(bytes: [UInt8], value: JSONValue, lastMet: Int)] = []
    private var clock = 0

    /// Creates an empty one.
    package init() {}

    /// The value kept for `bytes`, or the one `build` makes now, kept in place of the one met least recently when
    /// all places are taken; `nil` when `build` fails.
    package mutating func value(
        for bytes: UnsafeBufferPointer<UInt8>, build: () -> JSONValue?
    ) -> JSONValue? {
        guard bytes.count <= Self.longestKept, let base = bytes.baseAddress else { return build() }
        clock += 1
        for index in entries.indices where entries[index].bytes.count == bytes.count {
            let same = entries[index].bytes.withUnsafeBufferPointer { kept in memcmp(kept.baseAddress!, base, bytes.count) == 0 }
            if same {
                entries[index].lastMet = clock
                return entries[index].value
            }
        }
        guard let value = build() else { return nil }
        let entry = (Array(bytes), value, clock)
        if entries.count < Self.capacity {
            entries.append(entry)
        } else if let oldest = entries.indices.min(by: { entries[$0].lastMet < entries[$1].lastMet }) {
            entries[oldest] = entry
        }
        return value
    }
}
