import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import StoreKitSystem
import StoreKitTestFixtures
import Testing

@Suite struct SessionRecorderEffectTests {
    /// A replayable effect that posts a score, sleeps a second on the store's clock, draws a UUID and sends it.
    private static let postScore = Effect<Tally.State, Tally.Action>("post score", replay: .rerun) { action, context in
        guard case .add(let value) = action else { return }
        do {
            let receipt: Int = try await context.call("score.post", with: value) { $0 * 10 }
            try await context.clock.sleep(for: .seconds(1))
            let id = context.uuid()
            context.send(.label("\(receipt) \(id.uuidString)"))
        } catch {}
    }

    /// A store with `effects`, recorded to `transport` held up, with room for one event and the first action stuck
    /// in a write: the next action fills the queue.
    private static func recordingWithItsQueueFull(
        effects: [Effect<Tally.State, Tally.Action>], to transport: ControlledTransport
    ) -> (Store<Tally.State, Tally.Action>, SessionRecorder<Tally.State, Tally.Action>) {
        let store = Store(initialState: Tally.State(), reducer: Tally.reducer, effects: effects)
        transport.hold()
        let recorder = store.startRecording(
            .init(storeID: "tally", app: AppInfo(name: "T"), bufferCapacity: 1), to: transport)
        store.dispatch(.add(1))
        #expect(transport.waitUntilWriteIsHeld())
        return (store, recorder)
    }

    /// Each line without its `time` (and an action's `state`), canonically.
    private func linesWithoutTime(_ transport: MemoryTransport) throws -> [String] {
        try transport.lines.map { line in
            guard case .object(var members) = try JSONValue(parsing: Array(line.utf8)) else { return line }
            members["time"] = nil
            members["state"] = nil
            return String(decoding: JSONValue.object(members).canonicalBytes(), as: UTF8.self)
        }
    }

    @Test func writesEachCallBeforeTheActionTheEffectSendsAfterItAndTheRunsEndLast() async throws {
        // Given a store with a replayable effect, on a clock that never waits, recorded to memory
        let transport = MemoryTransport()
        let store = Store(
            initialState: Tally.State(), reducer: Tally.reducer, effects: [Self.postScore], clock: SteppingClock())
        let recorder = store.startRecording(.init(storeID: "tally", app: AppInfo(name: "T")), to: transport)

        // When one action starts the effect and it has run
        store.dispatch(.add(1))
        try await store.waitForEffects(timeout: .seconds(60))
        let statistics = recorder.finishWaitingGenerously()

        // Then the header is format 2 and names the effect, and the lines are exactly these, in this order
        let session = try transport.session()
        #expect(session.header.formatVersion == 2)
        #expect(session.header.effects == ["post score"])
        let label = try #require(session.actions.last?.action["label"]?["_0"]?.stringValue)
        let uuid = String(label.dropFirst(3))
        #expect(try linesWithoutTime(transport).dropFirst() == [
            #"{"action":{"add":{"_0":1}},"kind":"action","name":"add","origin":"app","seq":1}"#,
            #"{"cause":1,"effect":"post score","index":0,"input":1,"kind":"call","name":"score.post","result":{"value":10}}"#,
            #"{"cause":1,"effect":"post score","index":1,"input":{"for":1000000000},"kind":"call","name":"$clock.sleep","result":{"value":null}}"#,
            #"{"cause":1,"effect":"post score","index":2,"kind":"call","name":"$uuid","result":{"value":"\#(uuid)"}}"#,
            #"{"action":{"label":{"_0":"10 \#(uuid)"}},"cause":1,"effect":"post score","kind":"action","name":"label","origin":"effect","seq":2}"#,
            #"{"calls":3,"cause":1,"effect":"post score","kind":"effectEnd","outcome":"finished","sent":1}"#,
            #"{"actions":2,"dropped":0,"kind":"end","reason":"finished"}"#,
        ])
        #expect(statistics.effectLinesWritten == 4)
        #expect(statistics.effectLinesDropped == 0)
    }

    @Test func recordsTheUUIDsTheStoresGeneratorMade() async throws {
        // Given a store whose effects draw incrementing UUIDs, recorded to memory
        let transport = MemoryTransport()
        let store = Store(
            initialState: Tally.State(), reducer: Tally.reducer, effects: [Self.postScore], clock: SteppingClock(),
            uuid: .incrementing)
        let recorder = store.startRecording(.init(storeID: "tally", app: AppInfo(name: "T")), to: transport)

        // When two actions start the effect and it has run for both
        store.dispatch(.add(1))
        try await store.waitForEffects(timeout: .seconds(60))
        store.dispatch(.add(2))
        try await store.waitForEffects(timeout: .seconds(60))
        recorder.finishWaitingGenerously()

        // Then the effect sent, and the session holds, the generator's UUIDs in turn
        let session = try transport.session()
        let labels = session.actions.compactMap { $0.action["label"]?["_0"]?.stringValue }
        #expect(labels == ["10 00000000-0000-0000-0000-000000000000", "20 00000000-0000-0000-0000-000000000001"])
        let drawn = session.events.compactMap { event -> String? in
            guard case .call(let call) = event, call.name == "$uuid", case .value(let drawn) = call.result else { return nil }
            return drawn.stringValue
        }
        #expect(drawn == ["00000000-0000-0000-0000-000000000000", "00000000-0000-0000-0000-000000000001"])
    }

    @Test func numbersAnEffectsLinesInTheSessionWhenTheRecordingBeganAfterTheStoresFirstActions() async throws {
        // Given a store with a replayable effect that has run for two actions before a recording began
        let transport = MemoryTransport()
        let store = Store(
            initialState: Tally.State(), reducer: Tally.reducer, effects: [Self.postScore], clock: SteppingClock())
        store.dispatch(.add(1))
        store.dispatch(.add(2))
        try await store.waitForEffects(timeout: .seconds(60))
        let recorder = store.startRecording(.init(storeID: "tally", app: AppInfo(name: "T")), to: transport)

        // When the store's fifth action (its first two and the two the effect sent came before) starts the effect
        store.dispatch(.add(3))
        try await store.waitForEffects(timeout: .seconds(60))
        recorder.finishWaitingGenerously()

        // Then its calls, the action it sent and its end name the action by its number in the session, 1
        let causes = try transport.session().events.compactMap { event -> Int? in
            switch event {
            case .call(let call): call.cause
            case .effectEnd(let end): end.cause
            case .action(let action): if case .effect(let cause) = action.origin { cause } else { nil }
            case .header, .gap, .note, .end: nil
            }
        }
        #expect(causes == [1, 1, 1, 1, 1])
    }

    @Test func recordsAThrownErrorAndACancellationAsSuch() async throws {
        // Given a replayable effect whose first call throws and whose second waits until it is cancelled
        let transport = MemoryTransport()
        let waiting = Locked(false)
        let fetch = Effect<Tally.State, Tally.Action>("fetch", replay: .rerun) { _, context in
            _ = try? await context.call("fails") { () async throws -> Int in throw Boom(code: 7) }
            waiting.withLock { $0 = true }
            _ = try? await context.call("waits") { () async throws -> Int in
                try await Task.sleep(for: .seconds(600))
                return 0
            }
        }
        let store = Store(initialState: Tally.State(), reducer: Tally.reducer, effects: [fetch])
        let recorder = store.startRecording(.init(storeID: "tally", app: AppInfo(name: "T")), to: transport)

        // When the effect is cancelled while it waits
        store.dispatch(.clear)
        try await pollUntil { waiting.withLock { $0 } }
        store.cancelEffects()
        try await store.waitForEffects(timeout: .seconds(60))
        await recorder.finishWaitingGenerouslyOffThePool()

        // Then the error, the cancellation and the cancelled run are recorded
        let events = try transport.session().events
        let calls = events.compactMap { if case .call(let call) = $0 { call } else { nil } }
        #expect(calls.map(\.name) == ["fails", "waits"])
        guard case .error(let error) = calls.first?.result else {
            Issue.record("the first call's result is \(String(describing: calls.first?.result)), not an error")
            return
        }
        #expect(error.type.hasSuffix("Boom"))
        #expect(error.value == .object(["code": .integer(7)]))
        #expect(calls.last?.result == .cancelled)
        let ends = events.compactMap { if case .effectEnd(let end) = $0 { end } else { nil } }
        #expect(ends.map(\.outcome) == [.cancelled])
        #expect(ends.map(\.calls) == [2])
    }

    @Test func recordsTheCallsOfASkippedEffectButNoEndForIt() async throws {
        // Given a store with a replayable effect and a skipped one that also calls through its context
        let transport = MemoryTransport()
        let log = Effect<Tally.State, Tally.Action>("log") { action, context in
            guard case .add = action else { return }
            _ = try? await context.call("log.write") { 1 }
        }
        let store = Store(
            initialState: Tally.State(), reducer: Tally.reducer, effects: [Self.postScore, log], clock: SteppingClock())
        let recorder = store.startRecording(.init(storeID: "tally", app: AppInfo(name: "T")), to: transport)

        // When an action starts both
        store.dispatch(.add(2))
        try await store.waitForEffects(timeout: .seconds(60))
        recorder.finishWaitingGenerously()

        // Then the skipped effect's call is in the session, and only the replayable effect's run has an end
        let events = try transport.session().events
        let calls = events.compactMap { if case .call(let call) = $0 { call } else { nil } }
        #expect(calls.filter { $0.effect == "log" }.map(\.name) == ["log.write"])
        let ends = events.compactMap { if case .effectEnd(let end) = $0 { end } else { nil } }
        #expect(ends.map(\.effect) == ["post score"])
        #expect(try transport.session().header.effects == ["post score"])
    }

    @Test func aFullQueueDropsEffectLinesAndCountsThemWithoutBlockingTheEffect() async throws {
        // Given a recorder with room for one event whose transport is held up
        let transport = ControlledTransport()
        let draws = Effect<Tally.State, Tally.Action>("draws", replay: .rerun) { action, context in
            guard case .label("go") = action else { return }
            for _ in 0..<3 { _ = context.uuid() }
        }
        let (store, recorder) = Self.recordingWithItsQueueFull(effects: [draws], to: transport)

        // When an action fills the queue and its effect draws three UUIDs
        store.dispatch(.label("go"))
        try await store.waitForEffects(timeout: .seconds(60))

        // Then the effect ran to its end while the transport was stuck, its three calls and its end were dropped
        // and counted, and the session still reads
        #expect(recorder.statistics.effectLinesDropped == 4)
        transport.release()
        let statistics = recorder.finishWaitingGenerously()
        #expect(statistics.effectLinesWritten == 0)
        let session = try transport.session()
        #expect(session.actions.map(\.sequence) == [1, 2])
        #expect(!session.events.contains { if case .call = $0 { true } else { false } })
    }

    @Test func theFirstActionARunSendsAfterItLostALineIsDroppedSoAGapTellsReplayTheRunIsCut() async throws {
        // Given a recorder with room for one event whose transport is held up, and an effect that draws a UUID,
        // waits until the test lets it go on, and sends an action
        let transport = ControlledTransport()
        let goOn = Locked(false)
        let drawsThenSends = Effect<Tally.State, Tally.Action>("draws", replay: .rerun) { action, context in
            guard case .label("go") = action else { return }
            _ = context.uuid()
            try? await pollUntil { goOn.withLock { $0 } }
            context.send(.label("sent"))
            context.send(.label("again"))
        }
        let (store, recorder) = Self.recordingWithItsQueueFull(effects: [drawsThenSends], to: transport)

        // When an action fills the queue, its effect's UUID is dropped, the queue empties, and then the effect sends
        // (the test waits without holding a thread, which the effect's task may need)
        store.dispatch(.label("go"))
        try await pollUntil { recorder.statistics.effectLinesDropped > 0 }
        transport.release()
        try await pollUntil { recorder.statistics.actionsWritten >= 2 }
        goOn.withLock { $0 = true }
        try await store.waitForEffects(timeout: .seconds(60))
        let statistics = recorder.finishWaitingGenerously()

        // Then the first action it sent is not in the session but in a gap, which tells replay the run is cut, and
        // the next is
        let session = try transport.session()
        #expect(session.actions.map(\.sequence) == [1, 2, 4])
        let gaps = session.events.compactMap { if case .gap(let gap) = $0 { gap } else { nil } }
        #expect(gaps.map { $0.firstSequence...$0.lastSequence } == [3...3])
        #expect(gaps.map(\.reason) == [GapEvent.Reason.bufferFull])
        #expect(statistics.droppedBufferFull == 1)
        #expect(statistics.effectLinesDropped == 2)
        #expect(!session.events.contains { if case .call = $0 { true } else { false } })
    }

    @Test func redactsTheSecretsOfACallsInputAndResult() async throws {
        // Given a login effect whose call passes a password and returns a token, recorded with call paths
        struct Credentials: Codable, Sendable { var user: String, password: String }
        struct Login: Codable, Sendable { var user: String, token: String }
        let transport = MemoryTransport()
        let login = Effect<Tally.State, Tally.Action>("login", replay: .rerun) { action, context in
            guard case .clear = action else { return }
            _ = try? await context.call("auth.login", with: Credentials(user: "ann", password: "hunter2")) {
                Login(user: $0.user, token: "t0ps3cret")
            }
        }
        let store = Store(initialState: Tally.State(), reducer: Tally.reducer, effects: [login])
        let redaction = Redaction(calls: ["auth.login:result.value.token", "auth.login:input.password"])
        let recorder = store.startRecording(
            .init(storeID: "tally", app: AppInfo(name: "T"), redaction: redaction), to: transport)

        // When the call is made
        store.dispatch(.clear)
        try await store.waitForEffects(timeout: .seconds(60))
        recorder.finishWaitingGenerously()

        // Then neither secret is written, the rest is, and the header lists the call paths
        #expect(!transport.lines.contains { $0.contains("hunter2") || $0.contains("t0ps3cret") })
        let session = try transport.session()
        #expect(session.header.redaction.callPaths == redaction.callPaths)
        let call = try #require(session.events.compactMap { if case .call(let call) = $0 { call } else { nil } }.first)
        #expect(call.input == .object(["user": .string("ann"), "password": .string(Redaction.placeholder)]))
        #expect(call.result == .value(.object(["user": .string("ann"), "token": .string(Redaction.placeholder)])))
    }

    @Test func anEffectActionNamesNoEffectInAFormatOneSession() async throws {
        // Given a store whose only effect is skipped and calls through its context
        let transport = MemoryTransport()
        let echo = Effect<Tally.State, Tally.Action>("echo") { action, context in
            guard case .add = action else { return }
            _ = try? await context.call("echo") { 1 }
            context.send(.clear)
        }
        let store = Store(initialState: Tally.State(), reducer: Tally.reducer, effects: [echo])
        let recorder = store.startRecording(.init(storeID: "tally", app: AppInfo(name: "T")), to: transport)

        // When it runs
        store.dispatch(.add(1))
        try await store.waitForEffects(timeout: .seconds(60))
        recorder.finishWaitingGenerously()

        // Then the session is format 1 with neither call lines nor an effect's name
        #expect(try transport.session().header.formatVersion == 1)
        #expect(transport.lines.count == 4)
        #expect(!transport.lines.contains { $0.contains(#""effect":"#) || $0.contains(#""format":2"#) })
    }
}

/// An error a call throws, with a value the session keeps.
private struct Boom: Error, Encodable {
    var code: Int
}

/// A clock whose sleeps return at once, moving its time to their deadline, so effects sleep on it without waiting.
final class SteppingClock: Clock, @unchecked Sendable {
    private let lock = NSLock()
    private var current = EffectClock.Instant(offset: .zero)

    var now: EffectClock.Instant { lock.withLock { current } }

    var minimumResolution: Duration { .nanoseconds(1) }

    func sleep(until deadline: EffectClock.Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        lock.withLock { current = max(current, deadline) }
    }
}
