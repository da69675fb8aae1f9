import Foundation
import StoreKitCore
import StoreKitReplay
import Testing

/// A feature whose secret is a typed value: a redacted `UUID` is `"<redacted>"`, which no longer decodes as one.
private enum Vault {
    struct State: Codable, Equatable, Sendable {
        var key: UUID?
        var opened = 0
    }

    enum Action: Codable, Equatable, Sendable {
        case open
    }

    static let redaction = Redaction(state: ["key"])

    /// The reducer as recorded: opening leaves the key unset.
    static let recorded = Reducer<State, Action> { state, _ in state.opened += 1 }

    /// The reducer after a change: opening also sets a key, which the session masks.
    static let changed = Reducer<State, Action> { state, _ in
        state.opened += 1
        state.key = UUID(uuidString: "3F2504E0-4F89-11D3-9A0C-0305E82C3301")
    }

    static func recordedSession() throws -> Session {
        let transport = MemoryTransport()
        let store = Store(initialState: State(), reducer: recorded)
        let recorder = store.startRecording(
            .init(storeID: "vault", app: AppInfo(name: "Vault"), redaction: redaction), to: transport)
        store.dispatch(.open)
        store.dispatch(.open)
        recorder.finishWaitingGenerously()
        return try transport.session()
    }
}

@Suite struct ReplayableStoreTests {
    @Test func aMaskedReplayedStateThatNoLongerDecodesIsUndecodableNotDifferent() throws {
        // Given a session recorded with a secret key path, whose key stayed unset
        let session = try Vault.recordedSession()

        // When it is replayed through a reducer that sets the key, which masking turns into "<redacted>"
        let report = ReplayEngine(stores: [ReplayableStore(id: "vault", reducer: Vault.changed)]).replay(session)

        // Then the verdict says the replayed state does not decode, at the first step, with the path and why
        guard case .undecodable(let failure) = report.verdict else {
            Issue.record("expected undecodable, got \(report.verdict)")
            return
        }
        #expect(failure.step == 1)
        #expect(failure.actionName == "open")
        #expect(failure.part == .replayedState)
        #expect(failure.path == "key")
        #expect(failure.message.hasPrefix("with its redacted paths masked, it does not decode: "))
        #expect(failure.message.count > "with its redacted paths masked, it does not decode: ".count)
        #expect(report.divergences.isEmpty)
    }
}
