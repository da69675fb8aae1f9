import SampleFeatures

/// The score server the snippets of docs/testing.md stub: it answers every post with `receipt`.
struct StubScoreServer: Scoreboard.ScoreServer {
    var receipt: Int

    func post(home: Int, away: Int) async throws -> Int { receipt }
}
