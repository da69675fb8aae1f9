import CommandLineOptions

/// `check --shard I/N`: the share of a set of sessions that job I of N checks.
///
/// A session goes to the shard its key's 64-bit FNV-1a hash picks (hash mod N), its key being its path relative to
/// the folder argument it was found under (or the file argument as given). So every job of a CI matrix, on any
/// machine and whatever order its file system lists folders in, agrees on the split: the shards are disjoint, and
/// together they are every session.
struct SessionShard: Equatable, Sendable {
    /// Which shard, from 1 to ``count``.
    var index: Int
    /// How many shards there are.
    var count: Int

    /// Reads `I/N` with 1 ≤ I ≤ N; `nil` for anything else.
    init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1,
            (1...count).contains(index)
        else { return nil }
        self.index = index
        self.count = count
    }

    /// Whether the session with `key` falls in this shard.
    func contains(key: String) -> Bool {
        Int(FNV1a.hash(key) % UInt64(count)) == index - 1
    }

    /// `--shard <i/n>`.
    static let option = Option<SessionShard>(
        "--shard", valueName: "<i/n>", expectation: "a shard such as 2/8: its number from 1 to n, then the number of shards",
        help: "check only shard i of n: the sessions whose path, relative to the folder given,\nhashes to it, the same split on every machine (for a CI matrix)",
        convert: SessionShard.init)
}
