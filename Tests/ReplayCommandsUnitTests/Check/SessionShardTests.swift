import Testing

@testable import ReplayCommands

/// `check --shard I/N` splits sessions so that the shards are disjoint and together are all of them, the same way
/// on every machine.
@Suite struct SessionShardTests {
    /// Keys as `check` makes them: paths relative to the folder given, some nested.
    private let keys = (0..<1000).map { index in
        index % 3 == 0 ? "nested/folder \(index % 7)/session-\(index).jsonl" : "session-\(index).jsonl"
    }

    @Test(arguments: [1, 2, 3, 8, 64])
    func theShardsAreDisjointAndTogetherHoldEverySession(count: Int) throws {
        // Given every shard of `count`
        let shards = try (1...count).map { try #require(SessionShard("\($0)/\(count)")) }

        // When each takes its share of the keys
        let shares = shards.map { shard in keys.filter { shard.contains(key: $0) } }

        // Then each key is in exactly one share
        for key in keys { #expect(shares.filter { $0.contains(key) }.count == 1, "\(key)") }
        #expect(shares.map(\.count).reduce(0, +) == keys.count)
    }

    @Test func theSplitDependsOnlyOnTheKeyNotOnTheOrderOrTheOtherSessions() throws {
        // Given shard 2 of 4
        let shard = try #require(SessionShard("2/4"))

        // Then its share of a subset, in reverse order, is the subset of its share, and it is the same each time
        let share = Set(keys.filter { shard.contains(key: $0) })
        let subset = Array(keys.reversed().prefix(300))
        #expect(Set(subset.filter { shard.contains(key: $0) }) == share.intersection(subset))
        #expect(!share.isEmpty && share.count < keys.count)
        // And a key lands where its FNV-1a hash puts it, on any machine (values computed apart from this code)
        #expect(SessionShard("2/4")!.contains(key: "session-1.jsonl"))
        #expect(SessionShard("4/4")!.contains(key: "todos/basic.jsonl"))
        #expect(SessionShard("8/8")!.contains(key: "todos/basic.jsonl"))
    }

    @Test(arguments: ["0/3", "4/3", "1/0", "1", "a/b", "1/2/3", "-1/2", "", "/2"])
    func aMalformedShardIsRefused(text: String) {
        #expect(SessionShard(text) == nil)
    }
}
