import Foundation
import StoreKitCore
import StoreKitJSON

/// Recording cost on the app's thread, and the rate at which recorded events reach a session file.
enum RecordingBenchmarks {
    /// How many dispatches a round of the dispatch rows makes, but for the 1 MB state's.
    static var dispatchesPerRound: Int { 5000 }

    /// Per-dispatch time with and without a recorder, for a state of about `bytes` bytes.
    ///
    /// Two stores live through the whole run, as a store lives through an app: one without a recorder and one with
    /// a recorder started once. They take turns in rounds of `dispatches` back-to-back dispatches, and each quantile
    /// is the median of the rounds' quantiles, so a burst of other work on the machine spoils one round of one side,
    /// not the comparison. After each round of the recorded store, the run waits until its recorder has written
    /// every action, as an app's recorder catches up between bursts, so its encoding never runs during another
    /// store's round. One round of each goes first, unmeasured: it warms the stores and their code up, and it grows
    /// the process's heap to hold the states the recorder keeps until they are encoded, once per process.
    ///
    /// Beside the times, per 1,000 dispatches (the median of the rounds), what the kernel counted for the
    /// dispatching thread: the page faults it took (memory the process gave back and takes again shows there
    /// first, and the count repeats on a busy machine where times do not), the times it blocked (a wait for the
    /// recorder's lock) and the times it was preempted (the CPU given to another thread: on a machine of two cores,
    /// with the recorder's thread on the other, any process waking up takes it from the app's thread, and a p99
    /// spoiled that way shows here, not as a cost of the recorder).
    ///
    /// With `recordedCallPerAction`, the stores have a replayable effect that makes one recorded call for each
    /// action (with and without the recorder), so the recorded rows also write a `call` and an `effectEnd` line per
    /// action.
    ///
    /// A third store, a twin of the one without a recorder, takes its turn in every round too: its p99 against the
    /// first one's is what two identical stores measure apart on this machine in the same run, the noise any ratio
    /// of the rows carries. The round right after the recorder's catch-up goes to one and then the other. And
    /// beside the quantiles, the mean: all the time the dispatching thread spent, which a cost moved from some
    /// dispatches to others does not change.
    ///
    /// A fourth store, without a recorder, holds each of its states as a recorder does (a ``StateKeeper``), but
    /// encodes nothing, and takes its turn last in every round: its p99 against the store without a recorder is
    /// what holding the states costs the app's thread (each dispatch writes a new state where the state before is
    /// still held, and lets go of one made a round ago), which any recorder that encodes off the app's thread pays.
    static func dispatchCost(
        label: String, bytes: Int, dispatches: Int, rounds: Int = 7, recordedCallPerAction: Bool = false
    ) -> [Row] {
        let itemCount = Inventory.itemCount(forBytes: bytes)
        let effects = recordedCallPerAction ? [Inventory.recordedCall] : []
        let linesPerAction = recordedCallPerAction ? Inventory.linesPerActionWithRecordedCall : 1
        func store() -> Store<Inventory.State, Inventory.Action> {
            Store(initialState: Inventory.state(itemCount: itemCount), reducer: Inventory.reducer, effects: effects)
        }
        let plain = store()
        let twin = store()
        let recorded = store()
        let keeping = store()
        let keeper = StateKeeper(capacity: dispatches)
        keeping.register(interceptor: keeper)
        let path = "/tmp/skr-bench-\(getpid()).jsonl"
        defer { unlink(path) }
        let recorder = recorded.startRecording(
            // Room for every action (and its call and effect end), so that each dispatch takes the recording path,
            // never the cheaper one of an action dropped because the queue is full.
            .init(
                storeID: "inventory", app: AppInfo(name: "bench"),
                bufferCapacity: (rounds + 1) * dispatches * linesPerAction + 1),
            to: FileTransport(path: path))
        var nextIndex = 0
        func round(_ store: Store<Inventory.State, Inventory.Action>) -> (samples: [Double], kernel: Measure.ThreadCounts) {
            var samples: [Double] = []
            samples.reserveCapacity(dispatches)
            let before = Measure.countsOfThisThread()
            for _ in 0..<dispatches {
                let start = Measure.now()
                store.dispatch(.restock(index: nextIndex, amount: 1))
                samples.append(Measure.now() - start)
                nextIndex += 1
            }
            let kernel = Measure.countsOfThisThread() - before
            if recordedCallPerAction { waitForEffects(of: store) }
            if store === recorded { waitUntilWritten(recorder) }
            if store === keeping { keeper.endRound() }
            return (samples, kernel)
        }
        _ = round(recorded)
        _ = round(plain)
        _ = round(twin)
        _ = round(keeping)
        var without: [[Double]] = []
        var twinRounds: [[Double]] = []
        var keepingRounds: [[Double]] = []
        var with: [[Double]] = []
        var kernelWithout: [Measure.ThreadCounts] = []
        var kernelWith: [Measure.ThreadCounts] = []
        for index in 0..<rounds {
            // The recorded store first, then the other two in turns: the round right after the recorder's catch-up
            // goes to the store without a recorder in one round and to its twin in the next, so that neither
            // always pays for following it.
            let recordedRound = round(recorded)
            let plainFirst = index % 2 == 0
            let first = round(plainFirst ? plain : twin)
            let second = round(plainFirst ? twin : plain)
            let plainRound = plainFirst ? first : second
            twinRounds.append((plainFirst ? second : first).samples)
            keepingRounds.append(round(keeping).samples)
            without.append(plainRound.samples)
            with.append(recordedRound.samples)
            kernelWithout.append(plainRound.kernel)
            kernelWith.append(recordedRound.kernel)
        }
        if recorder.finish(timeout: .seconds(600)).dropped > 0 {
            let message = "storekit-benchmarks: actions dropped, so the dispatch rows did not measure recording"
            FileHandle.standardError.write(Data((message + "\n").utf8))
            exit(2)
        }
        func medianOfRounds(_ rounds: [[Double]], _ q: Double) -> Double {
            Measure.quantile(rounds.map { Measure.quantile($0, q) }, 0.5)
        }
        let name = "dispatch, \(label) state\(recordedCallPerAction ? ", a recorded call per action" : ""), "
        func meanOfRounds(_ rounds: [[Double]]) -> Double {
            Measure.quantile(rounds.map { $0.reduce(0, +) / Double($0.count) }, 0.5)
        }
        return [0.5, 0.99].map { q in
            Row(
                name: name + (q == 0.5 ? "median" : "p99"), figure: medianOfRounds(with, q) * 1e6, unit: "µs",
                reference: medianOfRounds(without, q) * 1e6, referenceName: "no recorder", target: "<= 1.5x")
        }
            + [
                Row(
                    name: name + "mean", figure: meanOfRounds(with) * 1e6, unit: "µs",
                    reference: meanOfRounds(without) * 1e6, referenceName: "no recorder", target: ""),
                Row(
                    name: name + "p99 of a twin store without a recorder", figure: medianOfRounds(twinRounds, 0.99) * 1e6,
                    unit: "µs", reference: medianOfRounds(without, 0.99) * 1e6, referenceName: "no recorder",
                    target: "noise"),
                Row(
                    name: name + "p99 of a store that holds its states as a recorder does, encoding nothing",
                    figure: medianOfRounds(keepingRounds, 0.99) * 1e6, unit: "µs",
                    reference: medianOfRounds(without, 0.99) * 1e6, referenceName: "no recorder",
                    target: "holding alone"),
            ]
            + [("page faults", \Measure.ThreadCounts.pageFaults), ("blocking waits", \.blocked), ("preemptions", \.preempted)]
            .map { count, path in
                // The median of the rounds' counts, per 1,000 dispatches.
                func perThousand(_ rounds: [Measure.ThreadCounts]) -> Double {
                    Measure.quantile(rounds.map { Double($0[keyPath: path]) * 1000 / Double(dispatches) }, 0.5)
                }
                return Row(
                    name: name + count + " per 1,000", figure: perThousand(kernelWith), unit: "",
                    reference: perThousand(kernelWithout), referenceName: "no recorder", target: "")
            }
    }

    /// What a profiled store has attached.
    enum ProfiledWatcher {
        /// A recorder writing to a file.
        case recorder
        /// Nothing: the reference.
        case nothing
        /// A ``StateKeeper``, ending a round every ``dispatchesPerRound`` dispatches as the dispatch rows do: the
        /// floor of holding the states.
        case stateKeeper
    }

    /// Dispatches `dispatches` actions to a store of a state of about `bytes` bytes with `watcher` attached, and
    /// waits until a recorder has finished: a hook for valgrind's callgrind.
    static func dispatchForProfiling(bytes: Int, dispatches: Int, watcher: ProfiledWatcher, recordedCallPerAction: Bool) {
        let store = Store(
            initialState: Inventory.state(itemCount: Inventory.itemCount(forBytes: bytes)), reducer: Inventory.reducer,
            effects: recordedCallPerAction ? [Inventory.recordedCall] : [])
        let path = "/tmp/skr-bench-profile-\(getpid()).jsonl"
        defer { unlink(path) }
        let recorder = watcher == .recorder
            ? store.startRecording(
                .init(
                    storeID: "inventory", app: AppInfo(name: "bench"),
                    bufferCapacity: dispatches * (recordedCallPerAction ? Inventory.linesPerActionWithRecordedCall : 1) + 1),
                to: FileTransport(path: path))
            : nil
        let keeper = watcher == .stateKeeper ? StateKeeper(capacity: dispatchesPerRound) : nil
        if let keeper { store.register(interceptor: keeper) }
        for index in 0..<dispatches {
            store.dispatch(.restock(index: index, amount: 1))
            if (index + 1) % dispatchesPerRound == 0 { keeper?.endRound() }
        }
        if recordedCallPerAction { waitForEffects(of: store) }
        recorder?.finish(timeout: .seconds(600))
    }

    /// Waits, on this thread, until `recorder` has written every action it has seen.
    private static func waitUntilWritten<State, Action>(_ recorder: SessionRecorder<State, Action>) {
        let deadline = Measure.now() + 600
        while Measure.now() < deadline {
            let statistics = recorder.statistics
            if statistics.actionsWritten + statistics.dropped >= statistics.actionsSeen { return }
            usleep(1000)
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
        // The rows before wrote hundreds of megabytes: written back first, they take no CPU or disk from this one.
        sync()
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

    /// The ceiling of recording on one encoding thread: how many times a second a state of about `bytes` goes
    /// through the `Codable` calls of its `encode(to:)` alone, into an encoder that writes nothing
    /// (``CodableCallsOnly``), beside the recorder's canonical encoder writing it. A recorder that encodes every state through `Codable`,
    /// on one thread, records no faster than the figure, whatever its writer does.
    static func codableCeiling(label: String, bytes: Int) throws -> Row {
        var state = Inventory.state(itemCount: Inventory.itemCount(forBytes: bytes))
        let encoder = CanonicalJSONEncoder()
        func rate(_ encode: (Inventory.State) throws -> Int) rethrows -> Double {
            var count = 0
            var seen = 0
            let seconds = try Measure.seconds {
                while count < 2000 {
                    Inventory.reducer.reduce(&state, .restock(index: count, amount: 1))
                    seen &+= try encode(state)
                    count += 1
                }
            }
            precondition(seen != 0)
            return Double(count) / seconds
        }
        // Each side twice, taking turns, the better of each: a slow spell of the machine weighs on neither.
        var callsOnly = 0.0
        var canonical = 0.0
        for _ in 0..<2 {
            callsOnly = max(callsOnly, try rate { try CodableCallsOnly.encode($0) })
            canonical = max(canonical, try rate { try encoder.encodeToBytes($0).count })
        }
        return Row(
            name: "encodes of the \(label) state, Codable's calls alone (an encoder that writes nothing)",
            figure: callsOnly, unit: "/s", reference: canonical, referenceName: "the recorder's canonical encoder",
            target: "the most one thread records")
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
