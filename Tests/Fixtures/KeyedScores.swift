import Foundation
import StoreKitCore
import StoreKitReplay
import Testing

/// A feature whose state holds a dictionary keyed by a struct, which `Codable` writes as alternating keys and values.
package enum KeyedScores {
    /// A player's id: a struct wrapping a UUID, encoded as the UUID's string.
    package struct PlayerID: Hashable, Codable, Sendable {
        package let uuid: UUID

        package init(_ text: String) {
            uuid = UUID(uuidString: text)!
        }

        package init(from decoder: any Decoder) throws {
            uuid = try decoder.singleValueContainer().decode(UUID.self)
        }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(uuid)
        }
    }

    package struct State: Codable, Equatable, Sendable {
        package var counts: [PlayerID: Int] = [:]
        package var title = "league"

        package init() {}
    }

    package enum Action: Codable, Equatable, Sendable {
        case score(PlayerID)
    }

    package static let ada = PlayerID("3F2504E0-4F89-11D3-9A0C-0305E82C3301")
    package static let bob = PlayerID("A1B2C3D4-0000-4000-8000-000000000002")
    package static let cy = PlayerID("0E1F2A3B-0000-4000-8000-000000000003")
    package static let players = [ada, bob, cy]

    package static let reducer = Reducer<State, Action> { state, action in
        guard case .score(let player) = action else { return }
        state.counts[player, default: 0] += 1
    }

    /// Scores two for Ada's third goal.
    package static let broken = Reducer<State, Action> { state, action in
        guard case .score(let player) = action else { return }
        state.counts[player, default: 0] += player == ada && state.counts[player] == 2 ? 2 : 1
    }

    package static let actions: [Action] = [.score(ada), .score(bob), .score(cy), .score(ada), .score(bob), .score(ada)]

    package static func recordedSession() throws -> Session {
        let transport = MemoryTransport()
        let store = Store(initialState: State(), reducer: reducer)
        let recorder = store.startRecording(.init(storeID: "scores", app: AppInfo(name: "League")), to: transport)
        for action in actions { store.dispatch(action) }
        recorder.finishWaitingGenerously()
        return try transport.session()
    }
}
