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

    /// After every score, posts the new score and reports the outcome as an action.
    public static func postScore(to server: any ScoreServer) -> Effect<State, Action> {
        .dispatchingOne { action, state in
            switch action {
            case .homeScored, .awayScored:
                do {
                    return .scorePosted(receipt: try await server.post(home: state.home, away: state.away))
                } catch {
                    return .postFailed(reason: "\(error)")
                }
            default:
                return nil
            }
        }
    }
}
