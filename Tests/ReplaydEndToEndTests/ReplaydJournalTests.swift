import Foundation
import SampleFeatures
import StoreKitCore
import Testing

@Suite struct ReplaydJournalTests {
    @Test func fiveKillNineRestartsDuringAFlatOutRecordingOfATenKilobyteStateLoseNothing() async throws {
        // Given an app recording a 10 KB state flat out through replayd, with the default in-memory hold (8 MB) and
        // a journal
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var daemon = try await DaemonProcess(folder: folder)
        let store = Store(initialState: Bulk(), reducer: Bulk.reducer)
        let recorder = store.startRecording(
            .init(
                storeID: "bulk", app: AppInfo(name: "Tests", version: "1"), sessionID: "flat-out",
                bufferCapacity: 1 << 20),
            to: UnixSocketTransport(
                path: folder.socket, timeout: 2, firstRetryDelay: 0.01,
                journal: .init(folder: folder.path + "/journal")))
        // Flat out, but at most 1,500 actions (15 MB of lines, more than the in-memory hold) ahead of what the
        // transport took, so each outage outgrows memory while the test's memory and disk stay bounded.
        let producer = FlatOutProducer(store: store, recorder: recorder, ahead: 1500)
        producer.start()

        // When the daemon is killed with SIGKILL five times, each time with the recorder mid-stream, and restarted
        for round in 1...5 {
            let target = producer.dispatched + 1000
            await waitUntil("1,000 more actions are dispatched", timeout: DaemonProcess.processTimeout) {
                producer.dispatched >= target
            }
            await daemon.kill9()
            daemon = try await DaemonProcess(folder: folder, logName: "restart-\(round).log")
            // (At least once: on a busy machine the recorder may give up on a welcome the daemon sent after its
            // wait, and start again: a CI run waited 300 s for exactly one start while the recorder went on writing.)
            await waitUntil("the recorder reconnects to restart \(round)", timeout: DaemonProcess.processTimeout) {
                daemon.count("session.started") >= 1
            }
        }
        producer.stop()
        await waitUntil("the producer stops") { producer.isDone }
        let total = producer.dispatched
        let statistics = try await onOwnThread { recorder.finish(timeout: .seconds(120)) }
        #expect(statistics.isFinished)
        #expect(await daemon.stop() == 0)

        // Then every sequence number is in the session once, in order, with no gap, and the journal is gone
        let session = try Session(contentsOf: folder.sessions + "/bulk-flat-out.jsonl")
        let gaps = session.events.filter { if case .gap = $0 { true } else { false } }
        print("lines lost across 5 daemon restarts at a flat-out rate: \(total - session.actions.count) of \(total)")
        #expect(gaps.isEmpty)
        #expect(session.actions.map(\.sequence) == Array(stride(from: 1, through: total, by: 1)))
        #expect(statistics.droppedTransportFailed == 0)
        #expect(statistics.actionsWritten == total)
        #expect(journals(in: folder.path + "/journal").isEmpty)
    }

    @Test func aJournalLeftByAnAppThatCrashedIsSentByTheNextTransport() async throws {
        // Given an app recording while the daemon is down, so its lines go to its journal
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let journalFolder = folder.path + "/cache/storekit-replay/journal"
        let app = Process()
        app.executableURL = Executables.url("sample-app")
        app.arguments = ["--socket", folder.socket, "--feature", "todos", "--actions", "10000000"]
        app.environment = ProcessInfo.processInfo.environment.merging(["XDG_CACHE_HOME": folder.path + "/cache"]) { $1 }
        app.standardError = FileHandle.nullDevice
        try app.run()

        // When the app is killed with SIGKILL once its journal holds 100 KB (watched from a thread of its own, so
        // that a busy test run cannot let the journal grow far past that first), and the next transport with the
        // same journal folder starts
        let grew = try await onOwnThread {
            let deadline = Date().addingTimeInterval(180)
            var grew = false
            while !grew && Date() < deadline {
                grew = journals(in: journalFolder).contains { size(of: $0) > 100_000 }
                if !grew { usleep(1000) }
            }
            kill(app.processIdentifier, SIGKILL)
            app.waitUntilExit()
            return grew
        }
        #expect(grew, "the app's journal did not reach 100 KB within 180 s")
        let leftover = try #require(journals(in: journalFolder).first)
        #expect(try FileManager.default.attributesOfItem(atPath: leftover)[.posixPermissions] as? Int == 0o600)
        #expect(try FileManager.default.attributesOfItem(atPath: journalFolder)[.posixPermissions] as? Int == 0o700)
        // (an app that records one action and exits, as a short-lived app or a test does)
        let daemon = try await DaemonProcess(folder: folder)
        let next = Process()
        next.executableURL = Executables.url("sample-app")
        next.arguments = ["--socket", folder.socket, "--feature", "counter", "--actions", "1", "--timeout", "120"]
        next.environment = app.environment
        next.standardError = FileHandle.nullDevice
        next.standardOutput = FileHandle.nullDevice
        try next.run()
        try await onOwnThread { next.waitUntilExit() }

        // Then, by the time it has exited, the journal was sent as the crashed app's session, every action in order
        // from 1, and deleted
        #expect(next.terminationStatus == 0)
        #expect(journals(in: journalFolder).isEmpty)
        #expect(await daemon.stop() == 0)
        let crashed = try #require(folder.sessionFiles().first { $0.hasPrefix("todos-") })
        let session = try Session(contentsOf: folder.sessions + "/" + crashed)
        #expect(!session.actions.isEmpty)
        #expect(session.actions.map(\.sequence) == Array(stride(from: 1, through: session.actions.count, by: 1)))
        #expect(session.events.allSatisfy { if case .gap = $0 { false } else { true } })
    }

    @Test func anAppWhoseDaemonNeverCameBackCountsItsActionsAsJournaledAndTheNextLaunchSendsEverySegment()
        async throws
    {
        // Given an app recording 1,000 actions of a 1 KB state while the daemon is down, with a journal bounded to
        // 2 MB (so segments of 128 KB) and almost nothing held in memory
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let journalFolder = folder.path + "/journal"
        let store = Store(initialState: Bulk(payload: String(repeating: "x", count: 1000)), reducer: Bulk.reducer)
        var configuration = SessionRecorder<Bulk, Bulk.Action>.Configuration(
            storeID: "bulk", app: AppInfo(name: "Tests", version: "1"), sessionID: "never-came-back")
        configuration.unconfirmedBytesOverride = 0
        let recorder = store.startRecording(
            configuration,
            to: UnixSocketTransport(
                path: folder.socket, timeout: 2, firstRetryDelay: 0.01,
                journal: .init(folder: journalFolder, byteLimit: 2 << 20)))
        for _ in 1...1000 { store.dispatch(.increment) }

        // When it finishes with the daemon still away
        let statistics = try await onOwnThread { recorder.finish(timeout: .seconds(120)) }

        // Then its statistics say every action is kept in the journal, none written and none lost, and the journal
        // is several segment files of its own, each private to the user
        #expect(statistics.actionsJournaled == 1000)
        #expect(statistics.actionsWritten == 0)
        #expect(statistics.dropped == 0)
        let segments = journals(in: journalFolder).sorted()
        #expect(segments.count >= 3, "\(segments)")
        for segment in segments {
            #expect(try FileManager.default.attributesOfItem(atPath: segment)[.posixPermissions] as? Int == 0o600)
        }
        #expect(try FileManager.default.attributesOfItem(atPath: journalFolder)[.posixPermissions] as? Int == 0o700)

        // And when the daemon is back and the app's next launch records a session of its own
        let daemon = try await DaemonProcess(folder: folder)
        let nextStatistics = try await nextLaunchRecordsOneAction(to: folder, journalFolder: journalFolder)
        #expect(nextStatistics.isFinished)
        #expect(nextStatistics.actionsJournaled == 0)
        // (Closing waits for the leftover journal only a while; on a slow machine, or under a sanitizer, the
        // sending goes on after it.)
        await waitUntil("the leftover journal is sent", timeout: DaemonProcess.processTimeout) {
            journals(in: journalFolder).isEmpty
        }
        #expect(await daemon.stop() == 0)

        // Then the earlier session was sent from its segments, every action once, in order, with no gap, and every
        // segment is deleted
        let session = try Session(contentsOf: folder.sessions + "/bulk-never-came-back.jsonl")
        #expect(session.actions.map(\.sequence) == Array(1...1000))
        #expect(session.events.allSatisfy { if case .gap = $0 { false } else { true } })
        #expect(journals(in: journalFolder).isEmpty)
    }

    @Test func beyondTheJournalsBoundTheLossIsOneGapExactlyCounted() async throws {
        // Given an app recording with the daemon down, a journal bounded to 4 KB and almost nothing held in memory
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (store, recorder) = recordingWithAFourKilobyteJournal(in: folder, sessionID: "bounded-journal")

        // When 300 actions come while it is away, more than the journal holds, and it comes back
        for _ in 1...300 { store.dispatch(.increment) }
        await waitUntil("the journal refuses lines") {
            recorder.statistics.lastError?.contains("reached its bound of 4096 bytes") == true
        }
        let daemon = try await DaemonProcess(folder: folder)
        let name = "counter-bounded-journal.jsonl"
        await waitUntil("the recorder reconnects and stores new actions") {
            store.dispatch(.increment)
            return daemon.count("session.started") >= 1 && folder.lines(of: name).count > 5
        }
        let statistics = try await onOwnThread { recorder.finish(timeout: .seconds(120)) }
        #expect(statistics.isFinished)
        #expect(await daemon.stop() == 0)

        // Then what neither the journal nor memory held is one gap, counted exactly, and every other number is there
        let session = try Session(contentsOf: folder.sessions + "/" + name)
        let gap = try theOneGapOfAFourKilobyteJournal(in: session, statistics: statistics)
        let expected =
            Array(stride(from: 1, to: gap.firstSequence, by: 1))
            + Array(stride(from: gap.lastSequence + 1, through: statistics.actionsSeen, by: 1))
        #expect(storedNumbers(of: session) == expected)
        #expect(journals(in: folder.path + "/journal").isEmpty)
        // And the app counted the actions the journal kept without their states as the session holds them
        #expect(session.actionsKeptWithoutStates > 0)
        #expect(statistics.actionsKeptWithoutStates == session.actionsKeptWithoutStates)
    }

    @Test func anAppThatFinishesWhileItsJournalIsFullLeavesAGapForWhatItCouldNotKeep() async throws {
        // Given an app recording with the daemon down, a journal bounded to 4 KB and almost nothing held in memory
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let journalFolder = folder.path + "/journal"
        let (store, recorder) = recordingWithAFourKilobyteJournal(in: folder, sessionID: "full-journal")

        // When 300 actions come, more than the journal holds, the app finishes with the daemon still away, and
        // then the daemon is back and the app's next launch sends the journal
        for _ in 1...300 { store.dispatch(.increment) }
        let statistics = try await finishAwayThenSendTheJournal(recorder, folder: folder, journalFolder: journalFolder)

        // Then the session holds the actions the journal kept, then one gap for every later number through the
        // last, with the journal's reason, counted as the app counted what it lost
        let session = try Session(contentsOf: folder.sessions + "/counter-full-journal.jsonl")
        let gap = try theOneGapOfAFourKilobyteJournal(in: session, statistics: statistics)
        #expect(gap.lastSequence == statistics.actionsSeen)
        #expect(storedNumbers(of: session) == Array(1..<gap.firstSequence))
        #expect(!session.actions.isEmpty)
        #expect(statistics.actionsWritten + statistics.dropped + statistics.actionsJournaled == statistics.actionsSeen)
        #expect(session.actionsKeptWithoutStates > 0)
        #expect(statistics.actionsKeptWithoutStates == session.actionsKeptWithoutStates)
    }

    @Test func whenTheQueueAndTheFullJournalBothLoseActionsEachIsCountedOnce() async throws {
        // Given an app recording with the daemon down, a queue of 50 actions and a journal bounded to 4 KB
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let journalFolder = folder.path + "/journal"
        let (store, recorder) = recordingWithAFourKilobyteJournal(in: folder, sessionID: "both-full", bufferCapacity: 50)

        // When 4,000 actions come flat out, far faster than the recorder takes them, so the queue drops runs of
        // them (each run a gap line) and the journal fills and refuses lines (gap lines among them), the app
        // finishes with the daemon still away, and the app's next launch sends the journal
        for _ in 1...4000 { store.dispatch(.increment) }
        let statistics = try await finishAwayThenSendTheJournal(recorder, folder: folder, journalFolder: journalFolder)

        // Then the app counted every action once: written, dropped by the queue, or lost with the journal
        #expect(statistics.droppedBufferFull > 0)
        #expect(statistics.droppedTransportFailed > 0)
        #expect(statistics.actionsWritten + statistics.dropped + statistics.actionsJournaled == statistics.actionsSeen)
        // And the session's actions and the numbers its gaps cover are every number once, through the last
        let session = try Session(contentsOf: folder.sessions + "/counter-both-full.jsonl")
        var numbers = session.actions.map(\.sequence)
        for case .gap(let gap) in session.events { numbers += Array(gap.firstSequence...gap.lastSequence) }
        #expect(numbers.sorted() == Array(1...statistics.actionsSeen))
    }
}

/// A counter recording to the daemon of `folder` (down or up) with a journal in `folder/journal` bounded to 4 KB and
/// almost nothing held in memory.
private func recordingWithAFourKilobyteJournal(
    in folder: TemporaryFolder, sessionID: String, bufferCapacity: Int? = nil
) -> (Store<Counter.State, Counter.Action>, SessionRecorder<Counter.State, Counter.Action>) {
    let store = Store(initialState: Counter.State(), reducer: Counter.reducer)
    var configuration = SessionRecorder<Counter.State, Counter.Action>.Configuration(
        storeID: Counter.storeID, app: AppInfo(name: "Tests", version: "1"), sessionID: sessionID,
        bufferCapacity: bufferCapacity)
    configuration.unconfirmedBytesOverride = 0
    let recorder = store.startRecording(
        configuration,
        to: UnixSocketTransport(
            path: folder.socket, timeout: 2, firstRetryDelay: 0.01,
            journal: .init(folder: folder.path + "/journal", byteLimit: 4096)))
    return (store, recorder)
}

/// An app's next launch: records one action of a counter to the daemon of `folder`, with its journal in
/// `journalFolder` (which makes it send the journals left there), and finishes.
private func nextLaunchRecordsOneAction(to folder: TemporaryFolder, journalFolder: String) async throws
    -> RecorderStatistics
{
    let next = Store(initialState: Counter.State(), reducer: Counter.reducer)
    let recorder = next.startRecording(
        .init(storeID: Counter.storeID, app: AppInfo(name: "Tests", version: "1"), sessionID: "next-launch"),
        to: UnixSocketTransport(
            path: folder.socket, timeout: 2, firstRetryDelay: 0.01, journal: .init(folder: journalFolder)))
    next.dispatch(.increment)
    return try await onOwnThread { recorder.finish(timeout: .seconds(120)) }
}

/// The one `gap` of `session` that keeps no actions, checked to be the loss of a journal bounded to 4 KB, counted as
/// the recorder whose `statistics` these are counted it. (Past three quarters of its bound the journal keeps the
/// actions of its lines without their states, in gaps of the same reason.)
private func theOneGapOfAFourKilobyteJournal(
    in session: Session, statistics: RecorderStatistics
) throws -> GapEvent {
    let gaps = session.events.compactMap { event -> GapEvent? in
        if case .gap(let gap) = event, !gap.keepsActions { return gap }
        return nil
    }
    try #require(gaps.count == 1)
    #expect(gaps[0].reason == .transportFailed)
    #expect(gaps[0].message?.contains("reached its bound of 4096 bytes") == true)
    #expect(statistics.droppedTransportFailed == gaps[0].count)
    return gaps[0]
}

/// The sequence numbers of the actions `session` holds, with their states or kept in gaps, in order.
private func storedNumbers(of session: Session) -> [Int] {
    let kept = session.events.flatMap { event -> [Int] in
        if case .gap(let gap) = event { return gap.actions.map(\.sequence) }
        return []
    }
    return (session.actions.map(\.sequence) + kept).sorted()
}

/// Finishes `recorder` with the daemon of `folder` away; then starts the daemon, has the app's next launch send
/// the journal left in `journalFolder`, waits until it is sent and stops the daemon.
/// - Returns: What `recorder.finish` returned.
private func finishAwayThenSendTheJournal(
    _ recorder: SessionRecorder<Counter.State, Counter.Action>, folder: TemporaryFolder, journalFolder: String
) async throws -> RecorderStatistics {
    let statistics = try await onOwnThread { recorder.finish(timeout: .seconds(120)) }
    let daemon = try await DaemonProcess(folder: folder)
    _ = try await nextLaunchRecordsOneAction(to: folder, journalFolder: journalFolder)
    await waitUntil("the leftover journal is sent", timeout: DaemonProcess.processTimeout) {
        journals(in: journalFolder).isEmpty
    }
    #expect(await daemon.stop() == 0)
    return statistics
}

/// The journal files in `folder`.
private func journals(in folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".journal") }
        .map { folder + "/" + $0 }
}

private func size(of path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
}

/// A state of about 10 KB whose bulk never changes (so the queue holds one copy), and a counter.
private struct Bulk: Codable, Equatable, Sendable {
    var count = 0
    var payload = String(repeating: "x", count: 10_000)

    enum Action: Codable, Equatable, Sendable { case increment }

    static let reducer = Reducer<Bulk, Action> { state, _ in state.count += 1 }
}

/// Dispatches `increment` on a thread of its own as fast as it can, but never more than `ahead` actions ahead of
/// what the recorder's transport took, until stopped.
private final class FlatOutProducer: @unchecked Sendable {
    private let store: Store<Bulk, Bulk.Action>
    private let recorder: SessionRecorder<Bulk, Bulk.Action>
    private let ahead: Int
    private let lock = NSLock()
    private var count = 0
    private var stopping = false
    private var done = false

    init(store: Store<Bulk, Bulk.Action>, recorder: SessionRecorder<Bulk, Bulk.Action>, ahead: Int) {
        self.store = store
        self.recorder = recorder
        self.ahead = ahead
    }

    var dispatched: Int { lock.withLock { count } }
    var isDone: Bool { lock.withLock { done } }

    func start() {
        Thread { [self] in
            while !lock.withLock({ stopping }) {
                if count - recorder.statistics.actionsWritten >= ahead {
                    // Pacing, not a wait: the transport is behind by the most this test lets it be.
                    Thread.sleep(forTimeInterval: 0.001)
                    continue
                }
                store.dispatch(.increment)
                lock.withLock { count += 1 }
            }
            lock.withLock { done = true }
        }.start()
    }

    func stop() { lock.withLock { stopping = true } }
}
