import Foundation
import SampleFeatures
import SampleSupport
import StoreKitCore

/// A burst from a growing state: the sample todo list dispatched flat out, and the share of it the recorder records
/// without ever making the app wait.
enum BurstBenchmarks {
    /// The recorded share of a burst of `actions` with the recorder's defaults (a queue bounded by memory), beside
    /// the share with the fixed queue of 4096 actions it had before; each the median of `rounds` alternating rounds.
    /// The default's share counts the actions the session holds, those a gap keeps without their states among
    /// them (the row's name says how many of them that was).
    static func rows(actions: Int, rounds: Int) -> [Row] {
        var byDefault: [(recorded: Double, kept: Double)] = []
        var fixedQueue: [Double] = []
        for _ in 0..<rounds {
            fixedQueue.append(recordedPercent(actions: actions, bufferCapacity: 4096).recorded)
            byDefault.append(recordedPercent(actions: actions, bufferCapacity: nil))
        }
        let median = byDefault.sorted { $0.recorded < $1.recorded }[byDefault.count / 2]
        return [
            Row(
                name: "burst of \(actions.formatted()) actions on the sample todo list, recorded share "
                    + "(\(Table.format(median.kept)) % kept without states)",
                figure: median.recorded, unit: "%", reference: Measure.quantile(fixedQueue, 0.5),
                referenceName: "a fixed queue of 4096 actions", target: "severalfold")
        ]
    }

    /// Dispatches the sample app's todo journey `actions` times flat out with a recorder writing to a file, and
    /// returns the percentage of the actions it recorded, and of those it kept without their states.
    static func recordedPercent(actions: Int, bufferCapacity: Int?) -> (recorded: Double, kept: Double) {
        let path = "/tmp/skr-bench-burst-\(getpid()).jsonl"
        defer { unlink(path) }
        let store = Store(initialState: Todos.State(), reducer: Todos.reducer)
        let recorder = store.startRecording(
            .init(storeID: Todos.storeID, app: AppInfo(name: "bench"), bufferCapacity: bufferCapacity),
            to: FileTransport(path: path))
        var random = SeededRandom(seed: 1)
        TodoJourney.dispatch(to: store, actions: actions, random: &random)
        let statistics = recorder.finish(timeout: .seconds(600))
        guard statistics.isFinished, statistics.actionsWritten + statistics.dropped == actions else {
            let message = "storekit-benchmarks: the burst's recorder did not account for every action: \(statistics)"
            FileHandle.standardError.write(Data((message + "\n").utf8))
            exit(2)
        }
        return (
            Double(statistics.actionsWritten) / Double(actions) * 100,
            Double(statistics.actionsKeptWithoutStates) / Double(actions) * 100
        )
    }
}
