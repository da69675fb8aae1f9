import Foundation
import StoreKitCore

/// Recording cost on the app's thread, and the rate at which recorded events reach a session file.
enum RecordingBenchmarks {
    /// Per-dispatch time with and without a recorder, for a state of about `bytes` bytes.
    ///
    /// The two run in alternating rounds, and each quantile is the median of the rounds' quantiles, so a burst of
    /// other work on the machine spoils one round of one side, not the comparison. One round of each goes first,
    /// unmeasured: it warms the store and its code up, and it grows the process's heap to hold the states a
    /// recorder keeps until they are encoded. That growth costs a page fault on the first touch of each page, once
    /// per process, not per dispatch; in the first round of a fresh process it was a fault every 20 dispatches of
    /// a small state, which alone doubled that round's p99.
    ///
    /// With `recordedCallPerAction`, the store has a replayable effect that makes one recorded call for each action
    /// (with and without the recorder), so the recorded rows also write a `call` and an `effectEnd` line per action.
    static func dispatchCost(
        label: String, bytes: Int, dispatches: Int, rounds: Int = 7, recordedCallPerAction: Bool = false
    ) -> [Row] {
        let itemCount = Inventory.itemCount(forBytes: bytes)
        let effects = recordedCallPerAction ? [Inventory.recordedCall] : []
        let linesPerAction = recordedCallPerAction ? Inventory.linesPerActionWithRecordedCall : 1
        func run(recording: Bool) -> [Double] {
            let store = Store(
                initialState: Inventory.state(itemCount: itemCount), reducer: Inventory.reducer, effects: effects)
            let path = "/tmp/skr-bench-\(getpid()).jsonl"
            defer { unlink(path) }
            let recorder = recording
                ? store.startRecording(
                    // Room for every action (and its call and effect end), so that each dispatch takes the
                    // recording path, never the cheaper one of an action dropped because the queue is full.
                    .init(
                        storeID: "inventory", app: AppInfo(name: "bench"),
                        bufferCapacity: dispatches * linesPerAction + 1),
                    to: FileTransport(path: path))
                : nil
            var samples: [Double] = []
            samples.reserveCapacity(dispatches)
            for index in 0..<dispatches {
                let start = Measure.now()
                store.dispatch(.restock(index: index, amount: 1))
                samples.append(Measure.now() - start)
            }
            if recordedCallPerAction { waitForEffects(of: store) }
            if let recorder, recorder.finish(timeout: .seconds(600)).dropped > 0 {
                let message = "storekit-benchmarks: actions dropped, so the dispatch rows did not measure recording"
                FileHandle.standardError.write(Data((message + "\n").utf8))
                exit(2)
            }
            return samples
        }
        _ = run(recording: false)
        _ = run(recording: true)
        var without: [[Double]] = []
        var with: [[Double]] = []
        for _ in 0..<rounds {
            without.append(run(recording: false))
            with.append(run(recording: true))
        }
        func medianOfRounds(_ rounds: [[Double]], _ q: Double) -> Double {
            Measure.quantile(rounds.map { Measure.quantile($0, q) }, 0.5)
        }
        return [0.5, 0.99].map { q in
            Row(
                name: "dispatch, \(label) state\(recordedCallPerAction ? ", a recorded call per action" : ""), "
                    + (q == 0.5 ? "median" : "p99"),
                figure: medianOfRounds(with, q) * 1e6, unit: "µs",
                reference: medianOfRounds(without, q) * 1e6, referenceName: "no recorder",
                target: label == "1 MB" ? "" : "<= 1.5x")
        }
    }

    /// Actions per second from dispatch to a flushed session, with a buffer large enough to drop nothing:
    /// to a file directly, and through a running `replayd` when `daemon` is given; with the recorder's default
    /// number of encoding threads, or two when `onTwoThreads`. With `recordedCallPerAction`, the store has a
    /// replayable effect that makes one recorded call for each action, and the session is flushed once every effect
    /// has ended, so it also holds a `call` and an `effectEnd` line per action.
    static func sustainedRate(
        label: String, bytes: Int, actions: Int, daemon: BenchmarkDaemon? = nil, reusingUnchangedParts: Bool = false,
        onTwoThreads: Bool = false, recordedCallPerAction: Bool = false
    ) -> (Row, Int) {
        let itemCount = Inventory.itemCount(forBytes: bytes)
        let store = Store(
            initialState: Inventory.state(itemCount: itemCount), reducer: Inventory.reducer,
            effects: recordedCallPerAction ? [Inventory.recordedCall] : [])
        let path = "/tmp/skr-bench-rate-\(getpid()).jsonl"
        defer { unlink(path) }
        let transport: any SessionTransport = daemon.map { UnixSocketTransport(path: $0.socket) } ?? FileTransport(path: path)
        let recorder = store.startRecording(
            .init(
                storeID: "inventory", app: AppInfo(name: "bench"),
                bufferCapacity: actions * (recordedCallPerAction ? Inventory.linesPerActionWithRecordedCall : 1) + 1,
                reusesEncodingOfUnchangedParts: reusingUnchangedParts,
                encodesStatesInParallel: onTwoThreads ? true : nil),
            to: transport)
        var statistics = RecorderStatistics()
        let seconds = Measure.seconds {
            for index in 0..<actions { store.dispatch(.restock(index: index, amount: 1)) }
            if recordedCallPerAction { waitForEffects(of: store) }
            statistics = recorder.finish(timeout: .seconds(600))
        }
        let row = Row(
            name: "recorded \(daemon == nil ? "to a file" : "through replayd"), \(label) state"
                + (reusingUnchangedParts ? ", reusing unchanged parts" : "")
                + (onTwoThreads ? ", two encoding threads" : "")
                + (recordedCallPerAction ? ", a recorded call per action" : ""),
            figure: Double(actions) / seconds, unit: "actions/s",
            reference: foundationEncodeRate(Inventory.state(itemCount: itemCount)),
            referenceName: "Foundation JSONEncoder alone", target: ">= 25000 actions/s")
        return (row, statistics.dropped)
    }

    /// How many times a second Foundation's JSONEncoder (sorted keys) encodes `state`.
    static func foundationEncodeRate<T: Encodable>(_ state: T) -> Double {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var count = 0
        let seconds = Measure.seconds {
            while count < 2000 {
                _ = try? encoder.encode(state)
                count += 1
            }
        }
        return Double(count) / seconds
    }
}

extension Inventory {
    /// A replayable effect that makes one recorded call for each action.
    static let recordedCall = Effect<State, Action>("restock sync", replay: .rerun) { _, context in
        _ = try? await context.call("stock.sync") { 1 }
    }

    /// The events each action queues in the recorder when ``recordedCall`` runs for it: the action, its call and
    /// its run's end.
    static let linesPerActionWithRecordedCall = 3
}

/// Waits, on this thread, until every effect task of `store` has finished.
private func waitForEffects(of store: Store<Inventory.State, Inventory.Action>) {
    let done = DispatchSemaphore(value: 0)
    Task {
        await store.waitForEffects()
        done.signal()
    }
    done.wait()
}
