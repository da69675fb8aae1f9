import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitTestFixtures
import StoreKitReplay
import Testing

/// A feature with secrets: a session token, card numbers, and a password in the login action.
enum Account {
    struct Card: Codable, Equatable, Sendable {
        var number: String
        var label: String
    }

    struct State: Codable, Equatable, Sendable {
        var user = ""
        var token = ""
        var pin = 0
        var cards: [Card] = []
        var logins = 0
    }

    enum Action: Codable, Equatable, Sendable {
        case login(user: String, password: String)
        case addCard(number: String, label: String)
        case setPin(Int)
    }

    static let reducer = Reducer<State, Action> { state, action in
        switch action {
        case .login(let user, let password):
            state.user = user
            state.token = "tok-" + password  // derived from a secret, and itself secret
            state.logins += 1
        case .addCard(let number, let label):
            state.cards.append(Card(number: number, label: label))
        case .setPin(let pin):
            state.pin = pin
        }
    }

    static let redaction = Redaction(state: ["token", "pin", "cards[].number"], actions: ["login.password", "addCard.number", "setPin._0"])
    static let secrets = ["hunter2-PASSWORD", "4111111111111111", "tok-hunter2", "987654"]
    /// The ``actions`` recorded from an empty state into memory, with ``redaction``.
    static func recordedSession() throws -> Session {
        let transport = MemoryTransport()
        let store = Store(initialState: State(), reducer: reducer)
        let recorder = store.startRecording(.init(storeID: "account", app: AppInfo(name: "Bank"), redaction: redaction), to: transport)
        for action in actions { store.dispatch(action) }
        recorder.finishWaitingGenerously()
        return try transport.session()
    }

    static let actions: [Action] = [
        .login(user: "ada", password: "hunter2-PASSWORD"), .addCard(number: "4111111111111111", label: "work"),
        .setPin(987654), .login(user: "ada", password: "hunter2-PASSWORD"),
    ]
}

/// A transport that keeps every byte handed to it, as a socket or a file would receive them.
private final class SpyTransport: SessionTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var received: [UInt8] = []
    var bytes: [UInt8] { lock.withLock { received } }
    func start(header: [UInt8]) throws -> Int? {
        lock.withLock { received += header }
        return nil
    }
    func write(_ lines: [UInt8]) throws { lock.withLock { received += lines } }
    func close() throws {}
}

private func contains(_ haystack: [UInt8], _ needle: String) -> Bool {
    let needle = Array(needle.utf8)
    guard haystack.count >= needle.count else { return false }
    return (0...(haystack.count - needle.count)).contains { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
}

@Suite struct RedactionTests {
    @Test func pathsReplaceValuesKeepingTheirJSONType() throws {
        let state = try JSONValue(parsing: #"{"a":{"b":"x","n":5},"list":[{"s":"1","t":true},{"s":"2"}],"m":{"k1":{"v":1.5},"k2":{"v":null}}}"#)
        let redacted = Redaction(state: ["a.b", "a.n", "list[].s", "list[].t", "m.*.v", "no.such.path"]).redactingState(state)
        #expect(redacted == (try JSONValue(parsing: #"{"a":{"b":"<redacted>","n":0},"list":[{"s":"<redacted>","t":false},{"s":"<redacted>"}],"m":{"k1":{"v":0.0},"k2":{"v":null}}}"#)))
        // A whole object or array keeps its shape, every leaf replaced.
        #expect(Redaction(state: ["a"]).redactingState(state)["a"] == (try JSONValue(parsing: #"{"b":"<redacted>","n":0}"#)))
        #expect(Redaction().redactingState(state) == state)
    }

    @Test(arguments: [SnapshotPolicy.full, .delta(keyframeInterval: 2)])
    func noSecretByteReachesTheTransport(snapshots: SnapshotPolicy) throws {
        // Given a store whose state and actions carry secrets, recorded with those paths redacted
        let transport = SpyTransport()
        let store = Store(initialState: Account.State(token: "tok-initial-SECRET"), reducer: Account.reducer)
        let recorder = store.startRecording(
            .init(storeID: "account", app: AppInfo(name: "Bank"), snapshots: snapshots, redaction: Account.redaction),
            to: transport)

        // When the user logs in, adds a card and sets a PIN
        for action in Account.actions { store.dispatch(action) }
        recorder.finishWaitingGenerously()

        // Then none of the secrets is in any byte handed to the transport, but the rest of the state is
        let bytes = transport.bytes
        for secret in Account.secrets + ["tok-initial-SECRET"] {
            #expect(!contains(bytes, secret), "\(secret) leaked")
        }
        #expect(contains(bytes, #""user":"ada""#))
        #expect(contains(bytes, #""label":"work""#))
        let session = try Session(ndjson: bytes, source: "spy")
        #expect(session.header.redaction == Account.redaction)
        #expect(session.actions.count == 4)
    }

    @Test func aRedactedSessionReplaysAsAMatchAndKeepsSecretsOutOfTheReport() throws {
        // Given a session recorded with secrets redacted
        let session = try Account.recordedSession()

        // When it is replayed (the reducer derives the token from the redacted password)
        let report = ReplayEngine(stores: [ReplayableStore(id: "account", reducer: Account.reducer)])
            .replay(session)

        // Then the secrets cause no divergence, and the replayed state holds placeholders only
        #expect(report.verdict == .match, "\(report.explanation(source: "account"))")
        #expect(report.stepsMatched == 4)
        #expect(report.finalState?["token"] == .string(Redaction.placeholder))
        #expect(report.finalState?["logins"] == .integer(2))
    }

    @Test func aRealChangeOutsideTheSecretsStillDiverges() throws {
        let session = try Account.recordedSession()
        let regressed = Reducer<Account.State, Account.Action> { state, action in
            Account.reducer.reduce(&state, action)
            if case .login = action { state.logins = 0 }
        }
        let report = ReplayEngine(stores: [ReplayableStore(id: "account", reducer: regressed)]).replay(session)
        guard case .diverged(let divergence) = report.verdict else {
            Issue.record("expected a divergence, got \(report.verdict.name)")
            return
        }
        #expect(divergence.step == 1)
        #expect(divergence.diff.changes.map(\.path.description) == ["logins"])
    }
}

@Suite struct RedactionPathsAsDiffsPrintThemTests {
    @Test func aPathWithoutTheUnlabelledPayloadKeyReachesInsideIt() throws {
        // Given a state whose screen is an enum case with an unlabelled payload, written under _0
        let state = try JSONValue(parsing: Array(#"{"screens":[{"login":{"_0":{"password":"hunter2","user":"ada"}}}]}"#.utf8))

        // When the secret's path is written as a diff prints it, without _0, and with [*] for the elements
        let redacted = Redaction(state: ["screens[*].login.password"]).redactingState(state)
        let second = try JSONValue(parsing: Array(#"{"pair":{"_0":"public","_1":"secret"}}"#.utf8))

        // Then the password inside the payload is replaced, and nothing else
        #expect(
            redacted
                == (try JSONValue(
                    parsing: Array(#"{"screens":[{"login":{"_0":{"password":"<redacted>","user":"ada"}}}]}"#.utf8))))
        #expect(
            Redaction(state: ["pair.1"]).redactingState(second)
                == (try JSONValue(parsing: Array(#"{"pair":{"_0":"public","_1":"<redacted>"}}"#.utf8))))
    }
}
