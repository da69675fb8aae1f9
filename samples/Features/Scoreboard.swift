import StoreKitCore

/// A match scoreboard: home and away scores, a reset, and an effect that posts each new score to a server.
public enum Scoreboard {
    /// The id sessions of this feature carry.
    public static let storeID = "scoreboard"

    /// The scoreboard's state.
    public struct State: Codable, Equatable, Sendable {
        /// The home team's points.
        public var home = 0
        /// The away team's points.
        public var away = 0
        /// Everyone who has scored in this match.
        public var scorers: Set<String> = []
        /// The server's receipt for the last posted score.
        public var lastReceipt: Int?
        /// Why the last post failed, if it did.
        public var lastPostError: String?

        /// Creates a scoreboard at 0-0.
        public init() {}
    }

    /// What can happen on the scoreboard.
    public enum Action: Codable, Equatable, Sendable {
        /// The home team scored.
        case homeScored(points: Int, scorer: String)
        /// The away team scored.
        case awayScored(points: Int, scorer: String)
        /// Back to 0-0.
        case reset
        /// The server accepted the posted score (dispatched by the post-score effect).
        case scorePosted(receipt: Int)
        /// The server refused the posted score (dispatched by the post-score effect).
        case postFailed(reason: String)
    }

    /// The scoreboard's reducer.
    public static let reducer = Reducer<State, Action> { state, action in
        switch action {
        case .homeScored(let points, let scorer):
            state.home += points
            state.scorers.insert(scorer)
        case .awayScored(let points, let scorer):
            state.away += points
            state.scorers.insert(scorer)
        case .reset:
            state = State()
        case .scorePosted(let receipt):
            state.lastReceipt = receipt
            state.lastPostError = nil
        case .postFailed(let reason):
            state.lastPostError = reason
        }
    }

    /// The server the post-score effect talks to.
    public protocol ScoreServer: Sendable {
        /// Posts a score and returns the server's receipt number.
        func post(home: Int, away: Int) async throws -> Int
    }

    /// A score as the post-score effect sends it to the server, and as the session records the call's input.
    public struct ScorePost: Codable, Equatable, Sendable {
        /// The home team's points.
        public var home: Int
        /// The away team's points.
        public var away: Int

        /// A score of `home` to `away`.
        public init(home: Int, away: Int) {
            self.home = home
            self.away = away
        }
    }

    /// After every score, posts the current score and reports the outcome as an action: `scorePosted` with the
    /// server's receipt, or `postFailed` with the server's error.
    ///
    /// The effect is replayable: it reads the state and calls the server through its context, so a session records
    /// the score it posted and the server's answer, and replay reruns the effect against them without the server.
    public static func postScore(to server: any ScoreServer) -> Effect<State, Action> {
        Effect("post score", replay: .rerun) { action, context in
            switch action {
            case .homeScored, .awayScored:
                let state = context.state
                do {
                    let receipt = try await context.call(
                        "score.post", with: ScorePost(home: state.home, away: state.away)
                    ) { post in
                        try await server.post(home: post.home, away: post.away)
                    }
                    context.send(.scorePosted(receipt: receipt))
                } catch {
                    context.send(.postFailed(reason: "\(error)"))
                }
            default:
                break
            }
        }
    }
}
