import Foundation
import StoreKitCore
import StoreKitReplay
import StoreKitSystem

/// What a recording of the 10 KB state loses when a real `replayd` is killed with SIGKILL and restarted while the
/// recorder sends flat out: with the recorder's defaults (a journal, in the caches folder of a temporary
/// `XDG_CACHE_HOME`) and with `journal: nil` (the unconfirmed lines held in memory only). The same recording without
/// restarts, as fast as the recorder takes the actions, comes first and sets the pace: through the restarts the
/// actions come at a fixed share of its rate, as from an app that does not wait for its recorder.
enum RestartLossBenchmarks {
    /// How a run's transport keeps the lines the daemon has not confirmed.
    enum Hold: String {
        case journal = "journal (the default)"
        case memoryOnly = "journal: nil (memory only)"
    }

    /// What one recording stored and how long it took.
    struct Outcome {
        /// Actions the recorder saw.
        var seen = 0
        /// Distinct action sequence numbers in the stored session.
        var stored = 0
        /// Action lines of the stored session whose sequence number an earlier line already had.
        var storedTwice = 0
        /// Actions in the stored session's gaps that keep no actions, by reason.
        var inGaps: [GapEvent.Reason: Int] = [:]
        /// Of ``stored``, the actions its gaps keep without their states.
        var keptWithoutStates = 0
        /// Sequence numbers from 1 to ``seen`` in neither an action nor a gap of the stored session.
        var unaccounted = 0
        /// Seconds from the recorder's start to its finish.
        var seconds = 0.0
        /// The most bytes the journal folder was seen to hold, sampled every few milliseconds.
        var peakJournalBytes = 0
        /// Seconds from each restarted daemon accepting connections to the recorder's lines being stored again.
        var reconnects: [Double] = []
        /// Seconds from each kill to the recorder's lines being stored again.
        var outages: [Double] = []

        /// Actions the stored session does not hold.
        var lost: Int { seen - stored }
        /// Actions stored with their states per second: the pace the recorder sustains (actions it kept without
        /// their states are those it could not keep up with).
        var rate: Double { Double(stored - keptWithoutStates) / seconds }
    }

    /// The share of the rate without restarts at which the actions come through the restarts: room for the
    /// recorder to catch up after each outage.
    static let shareOfRate = 0.5

    /// The rows: each hold through `restarts` kills, beside the actions dispatched, and the lines that say how long
    /// each outage took. Between kills (and after the last), the daemon stores `bytesPerRound` more bytes of the
    /// session; each kill keeps the daemon down for `downtime` seconds before it is restarted. The actions come at
    /// `pace` a second when given, else at ``shareOfRate`` of the rate without restarts.
    static func report(
        restarts: Int, bytesPerRound: Int, downtime: Double, pace chosenPace: Double? = nil
    ) throws -> (rows: [Row], details: [String]) {
        let reference = try record(
            hold: .journal, pace: .recorder(ahead: 500), restarts: 0, bytesPerRound: bytesPerRound * (restarts + 1),
            downtime: 0)
        let pace = chosenPace ?? reference.rate * shareOfRate
        // The same pace without restarts: what the queue loses at it anyway.
        let steady = try record(
            hold: .journal, pace: .fixed(actionsPerSecond: pace), restarts: 0,
            bytesPerRound: bytesPerRound * (restarts + 1), downtime: 0)
        var rows: [Row] = []
        var details = [
            "no restarts, as fast as the recorder takes them: \(reference.stored.formatted()) actions stored at "
                + "\(Int(reference.rate)) actions/s, \(reference.lost) lost, peak journal "
                + megabytes(reference.peakJournalBytes),
            "no restarts, at \(Int(pace))/s: \(steady.stored.formatted()) of \(steady.seen.formatted()) actions stored, "
                + "\(steady.lost) lost, peak journal " + megabytes(steady.peakJournalBytes),
        ]
        for hold in [Hold.journal, .memoryOnly] {
            let outcome = try record(
                hold: hold, pace: .fixed(actionsPerSecond: pace), restarts: restarts, bytesPerRound: bytesPerRound,
                downtime: downtime)
            let gaps = outcome.inGaps.sorted { $0.key.rawValue < $1.key.rawValue }
                .map { "\($0.value.formatted()) \($0.key.rawValue)" }
            rows.append(
                Row(
                    name: "lost across \(restarts) kill -9 restarts of replayd, 10 KB state, \(hold.rawValue) "
                        + "(\(outcome.stored.formatted()) stored"
                        + (outcome.keptWithoutStates == 0
                            ? "" : ", \(outcome.keptWithoutStates.formatted()) of them kept without states")
                        + (gaps.isEmpty ? "" : "; in gaps: " + gaps.joined(separator: ", "))
                        + (outcome.unaccounted == 0 ? "" : "; in no gap: \(outcome.unaccounted.formatted())")
                        + (outcome.storedTwice == 0 ? "" : "; stored twice: \(outcome.storedTwice.formatted())") + ")",
                    figure: Double(outcome.lost), unit: "actions", reference: Double(outcome.seen),
                    referenceName: "dispatched at \(Int(pace))/s, "
                        + (chosenPace == nil ? "\(Int(shareOfRate * 100))% of the rate without restarts" : "as asked"),
                    target: "0 lost"))
            details.append(
                "\(hold.rawValue): peak journal \(megabytes(outcome.peakJournalBytes)); restart -> lines stored again "
                    + milliseconds(outcome.reconnects) + "; outage (kill -> stored again, \(downtime) s down) "
                    + milliseconds(outcome.outages))
        }
        return (rows, details)
    }

    /// Records the 10 KB state at `pace` through a `replayd` killed and restarted `restarts` times, and reads what
    /// it stored.
    static func record(
        hold: Hold, pace: RestockDispatcher.Pace, restarts: Int, bytesPerRound: Int, downtime: Double
    ) throws -> Outcome {
        let daemon = try BenchmarkDaemon()
        defer { daemon.stop() }
        let journalFolder = UnixSocketTransport.Journal.defaultFolder(
            environment: ["XDG_CACHE_HOME": daemon.folder + "/cache"])
        let transport = UnixSocketTransport(
            path: daemon.socket, journal: hold == .journal ? .init(folder: journalFolder) : nil)
        let store = Store(
            initialState: Inventory.state(itemCount: Inventory.itemCount(forBytes: 10_000)), reducer: Inventory.reducer)
        let start = Measure.now()
        let recorder = store.startRecording(
            .init(storeID: "inventory", app: AppInfo(name: "bench"), sessionID: "restarts"), to: transport)
        let dispatcher = RestockDispatcher(store: store, recorder: recorder, pace: pace)
        let journal = FolderSizeSampler(folder: journalFolder)
        var outcome = Outcome()
        let stored = { storedBytes(in: daemon.sessions) }
        var killAt = bytesPerRound
        for round in 1...(restarts + 1) {
            try waitUntil("the daemon has stored \(killAt) bytes") { stored() >= killAt }
            guard round <= restarts else { break }
            let killed = Measure.now()
            daemon.killNine()
            // Down for as long as a supervisor's restart delay, while the recorder keeps sending.
            while Measure.now() < killed + downtime { Thread.sleep(forTimeInterval: 0.005) }
            try daemon.restart()
            let listening = Measure.now()
            let before = stored()
            try waitUntil("the restarted daemon stores the recorder's lines") { stored() > before }
            outcome.reconnects.append(Measure.now() - listening)
            outcome.outages.append(Measure.now() - killed)
            // The next kill comes `bytesPerRound` after the recorder has sent all it journaled while the daemon was
            // down, so each outage is one outage's backlog: counted from the start instead, a backlog larger than a
            // round (the rate times the downtime) had the daemon killed again before it caught up, and the backlogs
            // added up until the journal was full.
            try waitUntil("the recorder has sent what it journaled") { recorder.statistics.actionsJournaled == 0 }
            killAt = stored() + bytesPerRound
        }
        dispatcher.stop()
        let statistics = recorder.finish(timeout: .seconds(600))
        outcome.seconds = Measure.now() - start
        outcome.peakJournalBytes = journal.stop()
        guard statistics.isFinished, let path = storedSession(in: daemon.sessions) else {
            throw BenchmarkFailure("the recorder did not finish, or replayd stored no session: \(statistics)")
        }
        outcome.seen = statistics.actionsSeen
        try read(path, into: &outcome)
        return outcome
    }

    /// Counts the stored actions and the gaps' actions of the session at `path`.
    private static func read(_ path: String, into outcome: inout Outcome) throws {
        var isStored = [Bool](repeating: false, count: outcome.seen + 1)
        var isInGap = isStored
        let reader = try SessionReader(path: path)
        while let event = try reader.next() {
            switch event {
            case .action(let action) where (1...outcome.seen).contains(action.sequence):
                if isStored[action.sequence] { outcome.storedTwice += 1 }
                isStored[action.sequence] = true
            case .gap(let gap) where gap.keepsActions:
                // Kept without their states: the session holds these actions, and replay runs through them.
                for action in gap.actions where (1...outcome.seen).contains(action.sequence) {
                    if isStored[action.sequence] { outcome.storedTwice += 1 }
                    isStored[action.sequence] = true
                    outcome.keptWithoutStates += 1
                }
            case .gap(let gap):
                outcome.inGaps[gap.reason, default: 0] += gap.count
                for sequence in max(1, gap.firstSequence)...max(1, min(gap.lastSequence, outcome.seen)) {
                    isInGap[sequence] = true
                }
            default: break
            }
        }
        outcome.stored = isStored.count { $0 }
        outcome.unaccounted = isStored.indices.dropFirst().count { !isStored[$0] && !isInGap[$0] }
    }

    /// The one session file in `folder`, when the daemon has created it.
    private static func storedSession(in folder: String) -> String? {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).first { $0.hasSuffix(".jsonl") }
            .map { folder + "/" + $0 }
    }

    /// The bytes of the one session file in `folder` (0 before the daemon created it).
    private static func storedBytes(in folder: String) -> Int {
        storedSession(in: folder).flatMap { try? Syscall.status($0)?.size } ?? 0
    }

    /// Waits until `condition` holds, checking every 5 ms, for up to 10 minutes.
    private static func waitUntil(_ what: String, _ condition: () -> Bool) throws {
        let deadline = Measure.now() + 600
        while !condition() {
            guard Measure.now() < deadline else { throw BenchmarkFailure("timed out waiting until \(what)") }
            Thread.sleep(forTimeInterval: 0.005)
        }
    }

    private static func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_048_576) }

    private static func milliseconds(_ seconds: [Double]) -> String {
        seconds.map { String(format: "%.0f", $0 * 1000) }.joined(separator: ", ") + " ms"
    }
}
