import Foundation
import RehearsalFeatures
import SampleFeatures
import SampleSupport
import StoreKitCore

/// The scripted sample app: drives one sample feature and records its session.
enum SampleApp {
    /// Runs the app with its command line (without the program name) and returns the exit code.
    static func run(_ arguments: [String]) async -> Int32 {
        let options: SampleAppOptions
        do {
            guard let parsed = try SampleAppOptions.parse(arguments) else {
                print(SampleAppOptions.command.help)
                return 0
            }
            options = parsed
        } catch {
            printError(error.description)
            return 2
        }
        let transport: any SessionTransport
        let destination: String
        if let socket = options.socketPath {
            let socketTransport = UnixSocketTransport(
                path: socket == "default" ? nil : socket, timeout: options.socketTimeout)
            transport = socketTransport
            destination = "replayd at \(socketTransport.path)"
        } else {
            destination = options.outputPath ?? ""
            transport = FileTransport(path: destination)
        }
        let statistics = await record(options, to: transport)
        printError(recordedMessage(statistics, destination: destination))
        guard statistics.isFinished else {
            printError(
                "sample-app: the transport did not return within \(flushTimeout), so the recorder could not write the session's end; \(statistics.actionsSeen - statistics.actionsWritten - statistics.dropped) actions were not written yet")
            return 1
        }
        guard statistics.dropped == 0 else {
            printError(notRecordedMessage(statistics))
            return 1
        }
        return 0
    }

    /// Says how many actions reached the destination, and how many wait in the transport's journal for `replayd`
    /// to come back (sent then, or by the next launch).
    static func recordedMessage(_ statistics: RecorderStatistics, destination: String) -> String {
        let written = "\(statistics.actionsWritten) of \(statistics.actionsSeen) actions"
        guard statistics.actionsJournaled > 0 else { return "sample-app: recorded \(written) to \(destination)" }
        return "sample-app: wrote \(written) to \(destination), and kept \(statistics.actionsJournaled) in the "
            + "journal to resend when replayd is back (this app's next launch sends them)"
    }

    /// Says how many actions were not recorded and why, with the recorder's last error when there was one.
    static func notRecordedMessage(_ statistics: RecorderStatistics) -> String {
        let reasons = [
            (statistics.droppedBufferFull, "dropped while the recorder's queue was full"),
            (statistics.droppedTransportFailed, "not delivered by the transport"),
            (statistics.droppedEncodingFailed, "not encodable"),
            (statistics.droppedTimedOut, "not written before the \(flushTimeout) to finish ran out (a timedOut gap)"),
        ]
        let counted = reasons.filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
        let lastError = statistics.lastError.map { " (last error: \($0))" } ?? ""
        return "sample-app: \(statistics.dropped) actions were not recorded: \(counted)\(lastError)"
    }

    /// How long the app waits at the end for the recorder to send what it holds: a scripted run has nothing
    /// better to do, so it waits long rather than cut its session short.
    static let flushTimeout = Duration.seconds(60)

    /// Drives the chosen feature with the recorder attached and returns what the recorder did.
    static func record(_ options: SampleAppOptions, to transport: any SessionTransport) async -> RecorderStatistics {
        let app = AppInfo(name: "SampleApp", version: "1.0", build: "1", schemaVersion: "1")
        var random = SeededRandom(seed: options.seed)
        let snapshots: SnapshotPolicy = options.deltaSnapshots ? .delta(keyframeInterval: 10) : .full
        switch options.feature {
        case .counter:
            let store = Store(initialState: Counter.State(), reducer: Counter.reducer)
            let recorder = store.startRecording(.init(storeID: Counter.storeID, app: app, snapshots: snapshots), to: transport)
            SampleScripts.counter(store, actions: options.actions, random: &random)
            return recorder.finish(timeout: flushTimeout)
        case .todos:
            let store = Store(initialState: Todos.State(), reducer: Todos.reducer)
            let recorder = store.startRecording(.init(storeID: Todos.storeID, app: app, snapshots: snapshots), to: transport)
            SampleScripts.todos(store, actions: options.actions, random: &random)
            return recorder.finish(timeout: flushTimeout)
        case .scoreboard:
            let store = Store(
                initialState: Scoreboard.State(), reducer: Scoreboard.reducer,
                effects: [Scoreboard.postScore(to: FakeScoreServer())])
            let recorder = store.startRecording(.init(storeID: Scoreboard.storeID, app: app, snapshots: snapshots), to: transport)
            await SampleScripts.scoreboard(store, actions: options.actions, random: &random)
            return recorder.finish(timeout: flushTimeout)
        case .groceries:
            let store = Store(
                initialState: Groceries.State(), reducer: Groceries.reducer,
                effects: [Groceries.fetchItems(from: ScriptedPantry())])
            let recorder = store.startRecording(.init(storeID: Groceries.storeID, app: app, snapshots: snapshots), to: transport)
            await SampleScripts.groceries(store, actions: options.actions, random: &random)
            return recorder.finish(timeout: flushTimeout)
        case .rehearsals:
            // The store's clock, which the timer sleeps on, is one the script advances, so the journey records in
            // milliseconds, the same way every time.
            let clock = ScriptedClock()
            let store = Store(
                initialState: RehearsalApp.State(), reducer: RehearsalApp.reducer, effects: [RehearsalApp.timer],
                clock: clock)
            let recorder = store.startRecording(
                .init(storeID: RehearsalApp.storeID, app: app, snapshots: snapshots), to: transport)
            await SampleScripts.rehearsals(store, clock: clock, actions: options.actions, random: &random)
            await store.waitForEffects()
            return recorder.finish(timeout: flushTimeout)
        }
    }

    private static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
