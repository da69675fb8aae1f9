import Foundation
import StoreKitCore
import StoreKitTestFixtures
import StoreKitReplay
import Testing

@Suite struct SessionRecorderTests {
    @Test func recordsEveryActionWithTheStateAfterIt() throws {
        // Given a store recording to memory, when three actions are dispatched and the recorder finishes
        let session = try recordTally([.add(2), .label("home"), .add(5)])

        // Then the header holds the initial state and each action line the state after it, in order
        #expect(session.header.storeID == "tally")
        #expect(
            session.header.app
                == AppInfo(name: "TallyApp", version: "2.0", build: "7", commit: GitCheckout.commitOfRunningExecutable()))
        #expect(session.header.initialState["total"] == .integer(0))
        let actions = session.actions
        #expect(actions.map(\.sequence) == [1, 2, 3])
        #expect(actions.map(\.name) == ["add", "label", "add"])
        #expect(actions.map { $0.state["total"] } == [.integer(2), .integer(2), .integer(7)])
        #expect(actions[1].action == .object(["label": .object(["_0": .string("home")])]))
        #expect(actions.allSatisfy { $0.origin == .app })
        #expect(actions.map(\.time) == actions.map(\.time).sorted())
        guard case .end(let end) = session.events.last else {
            Issue.record("the session has no end line")
            return
        }
        #expect(end.reason == .finished)
        #expect(end.actions == 3)
        #expect(end.dropped == 0)
    }

    @Test(.enabled(if: ThreadNames.areReadable, "reads names through /proc"))
    func theBackgroundThreadIsNamedAfterItsStoreWhileItRecords() async throws {
        // Given a store whose ID no other test uses
        let storeID = "t" + String(UInt32.random(in: 0..<UInt32.max), radix: 36)
        let named = Array("recorder \(storeID)".utf8.prefix(15))
        func threadsNamedAfterIt() -> Int { ThreadNames.count { Array($0.utf8) == named } }
        let store = Store(initialState: Tally.State(), reducer: Tally.reducer)

        // When it records
        let recorder = store.startRecording(.init(storeID: storeID, app: AppInfo(name: "T")), to: MemoryTransport())

        // Then its background thread shows the store's ID (as much as the system keeps), until the recording ends
        let deadline = ContinuousClock.now + .seconds(120)
        while threadsNamedAfterIt() == 0 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(threadsNamedAfterIt() == 1)
        recorder.finishWaitingGenerously()
        while threadsNamedAfterIt() > 0 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(threadsNamedAfterIt() == 0)
    }

    @Test func marksEffectActionsWithTheActionThatCausedThem() async throws {
        // Given a store whose effect answers every `add` with a `label`
        let transport = MemoryTransport()
        let echo = Effect<Tally.State, Tally.Action>.dispatchingOne { action, _ in
            if case .add(let value) = action { return .label("after \(value)") }
            return nil
        }
        let store = Store(initialState: Tally.State(), reducer: Tally.reducer, effects: [echo])
        let recorder = store.startRecording(.init(storeID: "tally", app: AppInfo(name: "T")), to: transport)

        // When two adds are dispatched and the effects have run
        store.dispatch(.add(1))
        await store.waitForEffects()
        store.dispatch(.add(2))
        await store.waitForEffects()
        recorder.finishWaitingGenerously()

        // Then each effect action names its cause
        let actions = try transport.session().actions
        #expect(actions.map(\.origin) == [.app, .effect(cause: 1), .app, .effect(cause: 3)])
    }

    @Test func finishSaysWhetherItsTimeoutRanOutBeforeTheFlush() async throws {
        // Given a recorder whose transport is held up mid-write
        let transport = ControlledTransport()
        let store = Store(initialState: Tally.State(), reducer: Tally.reducer)
        transport.hold()
        let recorder = store.startRecording(.init(storeID: "tally", app: AppInfo(name: "T")), to: transport)
        store.dispatch(.add(1))
        #expect(transport.waitUntilWriteIsHeld())

        // When finish gives up first, then it says so; once the transport moves, a later wait sees the end
        #expect(!recorder.finish(timeout: .milliseconds(50)).isFinished)
        transport.release()
        try await pollUntil { recorder.statistics.isFinished }
        #expect(try transport.session().actions.map(\.sequence) == [1])
    }

    @Test func dropsWhenTheQueueIsFullAndRecordsTheGap() async throws {
        // Given a recorder with room for 2 actions whose transport is held up
        let transport = ControlledTransport()
        let store = Store(initialState: Tally.State(), reducer: Tally.reducer)
        transport.hold()
        let recorder = store.startRecording(
            .init(storeID: "tally", app: AppInfo(name: "T"), bufferCapacity: 2), to: transport)
        store.dispatch(.add(1))
        #expect(transport.waitUntilWriteIsHeld())

        // When 5 more actions are dispatched while the transport is stuck (dispatch must not block)
        for value in 2...6 { store.dispatch(.add(value)) }
        transport.release()
        try await pollUntil { recorder.statistics.actionsWritten == 3 }
        store.dispatch(.add(7))
        let statistics = await recorder.finishWaitingGenerouslyOffThePool()

        // Then 2 were queued, 3 dropped as one gap, and the actions after it recorded
        #expect(statistics.droppedBufferFull == 3)
        let session = try transport.session()
        #expect(session.actions.map(\.sequence) == [1, 2, 3, 7])
        #expect(session.events.contains(.gap(GapEvent(firstSequence: 4, lastSequence: 6, reason: .bufferFull))))
        guard case .end(let end) = session.events.last else {
            Issue.record("no end line")
            return
        }
        #expect(end.actions == 7)
        #expect(end.dropped == 3)
    }

    @Test func boundsTheQueueByTheMemoryOfItsStates() throws {
        // Given a recorder whose queue is bounded to 64 KB (its share of a 256 KB limit, after two 64 KB chunks
        // and a quarter for unconfirmed lines), whose states take about 10 KB each, and whose transport is held up
        let (store, recorder, transport) = heldRecorderOfATenKilobyteTally()
        #expect(recorder.memoryShares.queueBytes == 64 << 10)
        store.dispatch(.add(1))
        #expect(transport.waitUntilWriteIsHeld())

        // When 20 more actions are dispatched while the transport is stuck
        for value in 2...21 { store.dispatch(.add(value)) }
        transport.release()
        let statistics = recorder.finishWaitingGenerously()

        // Then only the few whose states fit in 64 KB were queued with them, and the rest were kept without their
        // states, in one gap after them that keeps their actions
        let session = try transport.session()
        let recorded = session.actions.map(\.sequence)
        #expect(recorded == Array(1...recorded.count))
        #expect((3...7).contains(recorded.count), "recorded \(recorded)")
        #expect(statistics.droppedBufferFull == 0)
        #expect(statistics.actionsKeptWithoutStates == 21 - recorded.count)
        #expect(statistics.actionsWritten == 21)
        let gaps = session.events.compactMap { if case .gap(let gap) = $0 { gap } else { nil } }
        #expect(gaps.map { $0.firstSequence...$0.lastSequence } == [(recorded.count + 1)...21])
        #expect(gaps.first?.actions.map(\.action) == ((recorded.count + 1)...21).map { JSONValue.object(["add": .object(["_0": .integer(Int64($0))])]) })
        #expect(gaps.first?.actions.allSatisfy { $0.state == .null && $0.name == "add" } == true)
    }

    @Test func actionsKeptWithoutStatesThatTheTransportLosesAreCountedAsLostNotAsKept() throws {
        // Given a recorder whose states take about 10 KB each, with its transport held up
        let (store, recorder, transport) = heldRecorderOfATenKilobyteTally()
        store.dispatch(.add(1))
        #expect(transport.waitUntilWriteIsHeld())

        // When 20 more actions come, most of them kept without their states, and then the transport breaks
        // before it takes any of them, and is back for the end
        for value in 2...21 { store.dispatch(.add(value)) }
        transport.setFailing(true)
        transport.release()
        let deadline = Date().addingTimeInterval(60)
        while recorder.statistics.droppedTransportFailed < 21, Date() < deadline { usleep(1000) }
        transport.setFailing(false)
        let statistics = recorder.finishWaitingGenerously()

        // Then no action is counted as kept, since the session holds none of them, and all 21 as lost
        #expect(statistics.droppedTransportFailed == 21)
        #expect(statistics.actionsKeptWithoutStates == 0)
        let kept = try transport.session().events.reduce(0) { count, event in
            if case .gap(let gap) = event, gap.keepsActions { count + gap.count } else { count }
        }
        #expect(kept == statistics.actionsKeptWithoutStates)
    }

    @Test func beyondTheRoomForActionsWithoutStatesTheRestIsDroppedAsAPlainGapAfterThoseKept() throws {
        // Given a recorder whose queue is bounded to 64 KB, a third of it for actions without their states,
        // whose states take about 10 KB each, and whose transport is held up
        let (store, recorder, transport) = heldRecorderOfATenKilobyteTally()
        store.dispatch(.add(1))
        #expect(transport.waitUntilWriteIsHeld())

        // When 1,000 more actions are dispatched while the transport is stuck, more than 21 KB of actions
        for value in 2...1001 { store.dispatch(.add(value)) }
        transport.release()
        let statistics = recorder.finishWaitingGenerously()

        // Then a few were recorded with their states, the next ones kept without, the rest dropped in a plain
        // gap after them; every action is counted once
        let session = try transport.session()
        let gaps = session.events.compactMap { if case .gap(let gap) = $0 { gap } else { nil } }
        #expect(gaps.count == 2, "\(gaps.map { ($0.firstSequence, $0.lastSequence, $0.keepsActions) })")
        let kept = try #require(gaps.first)
        let dropped = try #require(gaps.last)
        #expect(kept.keepsActions && !dropped.keepsActions)
        #expect(kept.firstSequence == session.actions.count + 1)
        #expect(dropped.firstSequence == kept.lastSequence + 1 && dropped.lastSequence == 1001)
        #expect(statistics.actionsKeptWithoutStates == kept.count)
        #expect(statistics.droppedBufferFull == dropped.count)
        #expect(statistics.actionsWritten == session.actions.count + kept.count)
    }

    @Test func sendsALargeBatchInChunksOfSixteenMegabytes() throws {
        // Given a recorder of states of about 20 KB (one long label, cheap to encode even under a sanitizer) whose
        // transport is held up, with a memory limit that gives chunks their largest size
        let transport = ControlledTransport()
        var large = Tally.State()
        large.labels = [String(repeating: "a", count: 20_000)]
        let store = Store(initialState: large, reducer: Tally.reducer)
        transport.hold()
        let recorder = store.startRecording(
            .init(storeID: "tally", app: AppInfo(name: "T"), memoryLimit: 512 << 20), to: transport)
        store.dispatch(.add(1))
        #expect(transport.waitUntilWriteIsHeld())

        // When 1000 more actions (20 MB of lines) queue up meanwhile and are delivered as one batch
        for value in 2...1001 { store.dispatch(.add(value)) }
        transport.release()
        recorder.finishWaitingGenerously()

        // Then they went out in writes of at most 16 MB and a line, not in one write of them all
        let sizes = transport.writeSizes
        #expect(try transport.session().actions.count == 1001)
        #expect(sizes.count >= 3, "writes of \(sizes) bytes")
        #expect(sizes.allSatisfy { $0 < (16 << 20) + 30_000 }, "writes of \(sizes) bytes")
    }

    @Test func anActionAfterTheRecorderWentIdleIsDeliveredWithoutFinishing() async throws {
        // Given a recorder that delivered an action and has had nothing to do since
        let transport = MemoryTransport()
        let store = Store(initialState: Tally.State(), reducer: Tally.reducer)
        let recorder = store.startRecording(.init(storeID: "tally", app: AppInfo(name: "T")), to: transport)
        store.dispatch(.add(1))
        try await pollUntil { recorder.statistics.actionsWritten == 1 }

        // When one more action is dispatched, then it reaches the transport without a call to finish
        store.dispatch(.add(2))
        try await pollUntil { recorder.statistics.actionsWritten == 2 }
        await recorder.finishWaitingGenerouslyOffThePool()
        #expect(try transport.session().actions.map(\.sequence) == [1, 2])
    }

    @Test func actionsAfterFinishAreNotRecordedAndALaterFinishKeepsTheFirstReason() throws {
        // Given a recorder that finished because the app is exiting
        let transport = MemoryTransport()
        let store = Store(initialState: Tally.State(), reducer: Tally.reducer)
        let recorder = store.startRecording(.init(storeID: "tally", app: AppInfo(name: "T")), to: transport)
        store.dispatch(.add(1))
        #expect(recorder.finish(reason: .appExited, timeout: .seconds(120)).isFinished)

        // When the app dispatches again and finishes a second time
        store.dispatch(.add(2))
        let statistics = recorder.finish(reason: .finished)

        // Then the later action is not even seen, and the session ends once, for the first reason
        let session = try transport.session()
        #expect(session.actions.map(\.sequence) == [1])
        #expect(statistics.actionsSeen == 1)
        #expect(statistics.isFinished)
        let ends = session.events.compactMap { event -> EndEvent? in
            if case .end(let end) = event { end } else { nil }
        }
        #expect(ends.map(\.reason) == [.appExited])
        #expect(ends.map(\.actions) == [1])
    }

    @Test func recordsUndeliveredActionsAsAGapAndCarriesOn() async throws {
        // Given a recorder whose transport fails for a while
        let transport = ControlledTransport()
        let store = Store(initialState: Tally.State(), reducer: Tally.reducer)
        let recorder = store.startRecording(.init(storeID: "tally", app: AppInfo(name: "T")), to: transport)
        store.dispatch(.add(1))
        try await pollUntil { recorder.statistics.actionsWritten == 1 }

        // When two actions are dispatched while it fails, then one after it recovers
        transport.setFailing(true)
        store.dispatch(.add(2))
        store.dispatch(.add(3))
        try await pollUntil { recorder.statistics.droppedTransportFailed == 2 }
        transport.setFailing(false)
        store.dispatch(.add(4))
        await recorder.finishWaitingGenerouslyOffThePool()

        // Then the session says which actions were lost and why, and goes on
        let session = try transport.session()
        #expect(session.actions.map(\.sequence) == [1, 4])
        let gaps = session.events.compactMap { if case .gap(let gap) = $0 { gap } else { nil } }
        #expect(gaps.map(\.firstSequence) == [2])
        #expect(gaps.map(\.lastSequence) == [3])
        #expect(gaps.first?.reason == .transportFailed)
        #expect(gaps.first?.message == "the test broke the transport")
    }

    @Test func recordsAnUnencodableStateAsAGap() throws {
        // Given a state that cannot be encoded after the second action (JSON has no NaN)
        let session = try recordTally([.add(1), .setRatio(.nan), .setRatio(0.5)])

        // Then that step is an encodingFailed gap and recording continues
        #expect(session.actions.map(\.sequence) == [1, 3])
        let gap = session.events.compactMap { if case .gap(let gap) = $0 { gap } else { nil } }.first
        #expect(gap?.firstSequence == 2)
        #expect(gap?.reason == .encodingFailed)
    }

    @Test func survivesATransportThatNeverWorks() throws {
        // Given a file transport pointing into a directory that does not exist
        let store = Store(initialState: Tally.State(), reducer: Tally.reducer)
        let recorder = store.startRecording(
            .init(storeID: "tally", app: AppInfo(name: "T")),
            to: FileTransport(path: "/tmp/no-such-directory-\(UUID().uuidString)/s.jsonl"))

        // When actions are dispatched, then the app carries on and the recorder counts what it lost
        for value in 1...5 { store.dispatch(.add(value)) }
        let statistics = recorder.finishWaitingGenerously()
        #expect(store.state.total == 15)
        #expect(statistics.actionsWritten == 0)
        #expect(statistics.dropped == 5)
        #expect(statistics.lastError?.contains("No such file or directory") == true)
    }

    @Test func theHeaderNamesTheCommitOfTheCheckoutTheAppRunsFrom() throws {
        // Given the commit git finds from this test executable's folder ("" when it was not built in a checkout)
        let executable = try #require(Bundle.main.executableURL).resolvingSymlinksInPath()
        let expected = (try? git(["rev-parse", "HEAD"], in: executable.deletingLastPathComponent().path)) ?? ""

        // When a recorder whose app names no commit records a session
        let session = try recordTally([.add(1)])

        // Then the header names that commit
        #expect(session.header.app.commit == expected)
    }

    @Test func anAppsOwnCommitIsKeptAsGiven() throws {
        // Given an app that names its commit, as one built by Xcode from a build setting would
        let commit = String(repeating: "0f", count: 20)
        let transport = MemoryTransport()
        let store = Store(initialState: Tally.State(), reducer: Tally.reducer)
        let recorder = store.startRecording(
            .init(storeID: "tally", app: AppInfo(name: "T", commit: commit)), to: transport)

        // When it records
        store.dispatch(.add(1))
        recorder.finishWaitingGenerously()

        // Then the header holds that commit, not the checkout's
        #expect(try transport.session().header.app.commit == commit)
    }

    @Test func writesExactlyTheCanonicalLinesOfItsEvents() async throws {
        // Given a recording with app and effect actions
        let transport = MemoryTransport()
        let echo = Effect<Tally.State, Tally.Action>.dispatchingOne { action, _ in
            if case .add = action { return .label("é \"quoted\"") }
            return nil
        }
        let store = Store(initialState: Tally.State(), reducer: Tally.reducer, effects: [echo])
        let recorder = store.startRecording(.init(storeID: "tally", app: AppInfo(name: "T")), to: transport)
        store.dispatch(.add(1))
        await store.waitForEffects()
        store.dispatch(.setRatio(0.1))
        recorder.finishWaitingGenerously()

        // When the bytes are parsed and written again canonically, then they are the same bytes
        let session = try transport.session()
        #expect(String(decoding: session.ndjson, as: UTF8.self) == String(decoding: transport.data, as: UTF8.self))
        #expect(session.actions.map(\.name) == ["add", "label", "setRatio"])
    }

    @Test func writesASessionFileThatReadsBack() throws {
        // Given a file transport
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("tally.jsonl")
        let store = Store(initialState: Tally.State(), reducer: Tally.reducer)
        let recorder = store.startRecording(.init(storeID: "tally", app: AppInfo(name: "T")), to: FileTransport(path: path))

        // When actions are recorded and the recorder finishes
        store.dispatch(.add(4))
        store.dispatch(.label("x"))
        recorder.finishWaitingGenerously()

        // Then the file is a valid session, readable only by its owner
        let session = try Session(contentsOf: path)
        #expect(session.actions.count == 2)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }
}

/// Waits until `condition` holds, polling with an async sleep so that no thread of the shared pool is held while
/// another thread works towards it, and fails after a generous timeout. The condition is checked once more after
/// the deadline: on a busy machine this task may next run long after it.
func pollUntil(timeout: TimeInterval = 120, _ condition: () -> Bool) async throws {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while !condition() {
        guard Date() < deadline else {
            if condition() { return }
            throw WaitTimedOut()
        }
        try await Task.sleep(for: .milliseconds(2))
    }
}

/// A condition did not come true in time.
struct WaitTimedOut: Error {}

@Suite struct DeltaSnapshotTests {
    private func record(_ policy: SnapshotPolicy, _ actions: [Tally.Action]) throws -> (Session, MemoryTransport) {
        // A state large enough that a patch is smaller than the state.
        var initial = Tally.State()
        initial.items = Array(0..<300)
        let transport = MemoryTransport()
        let store = Store(initialState: initial, reducer: Tally.reducer)
        let recorder = store.startRecording(.init(storeID: "tally", app: AppInfo(name: "T"), snapshots: policy), to: transport)
        for action in actions { store.dispatch(action) }
        recorder.finishWaitingGenerously()
        return (try transport.session(), transport)
    }

    @Test func deltaSessionsReadBackToTheSameStatesAndAreSmaller() throws {
        let script = (1...60).map { Tally.Action.add($0) }
        let (full, fullBytes) = try record(.full, script)
        let (delta, deltaBytes) = try record(.delta(keyframeInterval: 25), script)
        #expect(delta.actions.map(\.state) == full.actions.map(\.state))
        #expect(deltaBytes.data.count * 3 < fullBytes.data.count)
        // A keyframe opens the session and then every 25 actions
        #expect(delta.actions.filter { $0.patch == nil }.map(\.sequence) == [1, 26, 51])
        #expect(ReplayEngine(stores: [Tally.replayable]).replay(delta).verdict == .match)
    }

    @Test func aGapIsFollowedByAKeyframe() throws {
        let (session, _) = try record(.delta, [.add(1), .add(2), .setRatio(.nan), .add(3)])
        let after = session.actions.first { $0.sequence == 4 }
        #expect(after?.patch == nil)
        #expect(session.actions.first { $0.sequence == 2 }?.patch != nil)
    }

    @Test func aPatchAfterAGapLineIsRejected() throws {
        let text = [
            headerLine,
            #"{"count":1,"from":1,"kind":"gap","reason":"bufferFull","to":1}"#,
            #"{"action":"clear","kind":"action","patch":[],"seq":2,"time":0.5}"#,
        ].joined(separator: "\n") + "\n"
        let error = #expect(throws: SessionReadError.self) { _ = try Session(ndjson: Array(text.utf8)) }
        #expect(error?.line == 3)
        #expect(error?.reason.hasPrefix("field 'patch' has no state to apply to") == true)
    }
}
