import Foundation
import StoreKitCore
import StoreKitReplay
import Testing

/// A store with a secret in its state and one in an action.
private enum Vault {
    struct State: Codable, Equatable, Sendable {
        var owner = ""
        var apiKey = ""
        var unlocks = 0
    }

    enum Action: Codable, Equatable, Sendable {
        case unlock(owner: String, apiKey: String)
    }

    static let reducer = Reducer<State, Action> { state, action in
        switch action {
        case .unlock(let owner, let apiKey):
            state.owner = owner
            state.apiKey = apiKey
            state.unlocks += 1
        }
    }
}

@Suite struct ReplaydRedactionTests {
    @Test func redactedSecretsReachNeitherTheDaemonNorItsFilesNorItsLog() async throws {
        // Given a running daemon and an app that marks its API key secret
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let daemon = try await DaemonProcess(folder: folder)
        let secret = "sk-live-0123456789abcdef"
        let store = Store(initialState: Vault.State(apiKey: secret), reducer: Vault.reducer)
        let redaction = Redaction(state: ["apiKey"], actions: ["unlock.apiKey"])
        let recorder = store.startRecording(
            .init(storeID: "vault", app: AppInfo(name: "VaultApp"), redaction: redaction),
            to: UnixSocketTransport(path: folder.socket))

        // When it records through the Unix socket
        for _ in 0..<20 { store.dispatch(.unlock(owner: "grace", apiKey: secret)) }
        let statistics = try await onOwnThread { recorder.finish(timeout: .seconds(120)) }
        #expect(statistics.isFinished)
        #expect(statistics.actionsWritten == 20)
        #expect(await daemon.stop() == 0)

        // Then the stored session has every action but no byte of the secret, nor has the daemon's log
        let files = folder.sessionFiles()
        try #require(files.count == 1)
        let stored = try String(contentsOfFile: folder.sessions + "/" + files[0], encoding: .utf8)
        #expect(!stored.contains(secret))
        #expect(!daemon.log.contains(secret))
        #expect(stored.contains(#""owner":"grace""#))
        let report = try ReplayEngine(stores: [ReplayableStore(id: "vault", reducer: Vault.reducer)])
            .replay(path: folder.sessions + "/" + files[0])
        #expect(report.verdict == .match)
        #expect(report.stepsMatched == 20)
    }
}
