import SampleFeatures

/// A score server that replay must never reach, in the spirit of swift-dependencies' `unimplemented`: replay hands a
/// replayable effect its recorded results instead of running its calls, so a post that gets here means replay called
/// the outside world, and the process stops with a message saying so.
struct UnreachableScoreServer: Scoreboard.ScoreServer {
    func post(home: Int, away: Int) async throws -> Int {
        fatalError(
            "replay reached the score server (post \(home)-\(away)): a replayed 'score.post' call must hand back its "
                + "recorded result without running")
    }
}
