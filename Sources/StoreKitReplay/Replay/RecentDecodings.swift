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
    /// For the value at each index: the JSON it was decoded from; that JSON's hash, by which a JSON met for the
    /// first time is told apart from those held without comparing it with each member by member; and when it was
    /// last met, by ``clock``.
    // Not checked for exclusivity at run time (docs/performance.md): used by one thread at a time, and `decode`
    // decodes an app's action, which cannot reach this cache.
    @exclusivity(unchecked) private var entries: [(json: JSONValue, hash: Int, lastMet: Int)] = []
    @exclusivity(unchecked) private var clock = 0

    init() {
        entries.reserveCapacity(Self.capacity)
    }

    deinit {
        values.deinitialize(count: entries.count)
        values.deallocate()
    }

    /// The index of the value decoded from `json`: one held, or the one `decode` makes now, which is then held in
    /// place of the one met least recently when all places are taken.
    func index<Failure: Error>(of json: JSONValue, decode: () throws(Failure) -> Value) throws(Failure) -> Int {
        clock += 1
        // The same JSON read again from the same bytes shares its storage (RecentValues): found without hashing.
        for index in entries.indices where entries[index].json.sharesStorage(with: json) {
            entries[index].lastMet = clock
            return index
        }
        let hash = json.hashValue
        for index in entries.indices where entries[index].hash == hash && entries[index].json == json {
            entries[index].lastMet = clock
            return index
        }
        let value = try decode()
        guard entries.count == Self.capacity else {
            (values + entries.count).initialize(to: value)
            entries.append((json, hash, clock))
            return entries.count - 1
        }
        let index = entries.indices.min { entries[$0].lastMet < entries[$1].lastMet } ?? 0
        values[index] = value
        entries[index] = (json, hash, clock)
        return index
    }

    /// The value at `index`.
    func value(at index: Int) -> Value {
        values[index]
    }
}
