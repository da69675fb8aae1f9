import StoreKitJSON

/// The values decoded last (the least recently met makes room) and the JSON each was decoded from, so that a value met again is taken from here
/// instead of being decoded again.
///
/// A session repeats a few kinds of action over and over (`increment`, a timer's tick, a toggle of the same todo),
/// and decoding one through `Codable` costs far more than comparing its JSON with a few met before
/// (docs/performance.md). What a value decodes to is taken to be a function of its JSON, as it is for every
/// synthesized `init(from:)`. The values are kept in memory allocated once, as a ``ValueSlot`` keeps its value, so
/// that generic code reads them without asking the Swift runtime for metadata. Used by one thread at a time.
final class RecentDecodings<Value> {
    /// How many are kept; the one met least recently makes room for the next.
    static var capacity: Int { 4 }
    private let values = UnsafeMutablePointer<Value>.allocate(capacity: capacity)
    /// The JSON of each value held, at its index.
    private var keys: [JSONValue] = []
    /// The hash of each key: a JSON met for the first time is told apart from those held by its hash, without
    /// comparing it with each of them member by member.
    private var hashes: [Int] = []
    /// When each value was last met, by ``clock``: the least recent makes room for the next.
    private var lastMet: [Int] = []
    private var clock = 0

    init() {
        keys.reserveCapacity(Self.capacity)
        hashes.reserveCapacity(Self.capacity)
        lastMet.reserveCapacity(Self.capacity)
    }

    deinit {
        values.deinitialize(count: keys.count)
        values.deallocate()
    }

    /// The index of the value decoded from `json`, when it is one of those held; `hash` is `json`'s hash value.
    func index(of json: JSONValue, hash: Int) -> Int? {
        for index in hashes.indices where hashes[index] == hash && keys[index] == json {
            clock += 1
            lastMet[index] = clock
            return index
        }
        return nil
    }

    /// The value at `index`.
    func value(at index: Int) -> Value {
        values[index]
    }

    /// Holds `value`, decoded from `json` whose hash value is `hash`, in place of the one met least recently when
    /// all are taken; returns its index.
    func remember(_ value: Value, decodedFrom json: JSONValue, hash: Int) -> Int {
        clock += 1
        guard keys.count == Self.capacity else {
            (values + keys.count).initialize(to: value)
            keys.append(json)
            hashes.append(hash)
            lastMet.append(clock)
            return keys.count - 1
        }
        let index = lastMet.indices.min { lastMet[$0] < lastMet[$1] } ?? 0
        values[index] = value
        keys[index] = json
        hashes[index] = hash
        lastMet[index] = clock
        return index
    }
}
