import Foundation
import SampleFeatures
import StoreKitCore

/// A burst from a growing state: the sample todo list dispatched flat out, and the share of it the recorder records
/// without ever making the app wait.
enum BurstBenchmarks {
    /// The recorded share of a burst of `actions` with the recorder's defaults (a queue bounded by memory), beside
    /// the share with the fixed queue of 4096 actions it had before; each the median of `rounds` alternating rounds.
    static func rows(actions: Int, rounds: Int) -> [Row] {
        var byDefault: [Double] = []
        var fixedQueue: [Double] = []
        for _ in 0..<rounds {
            fixedQueue.append(recordedPercent(actions: actions, bufferCapacity: 4096))
            byDefault.append(recordedPercent(actions: actions, bufferCapacity: nil))
        }
        return [
            Row(
                name: "burst of \(actions.formatted()) actions on the sample todo list, recorded share",
                figure: Measure.quantile(byDefault, 0.5), unit: "%", reference: Measure.quantile(fixedQueue, 0.5),
                referenceName: "a fixed queue of 4096 actions", target: "severalfold")
        ]
    }

    /// Dispatches the sample app's todo journey `actions` times flat out with a recorder writing to a file, and
    /// returns the percentage of the actions it recorded.
    static func recordedPercent(actions: Int, bufferCapacity: Int?) -> Double {
        let path = "/tmp/skr-bench-burst-\(getpid()).jsonl"
        defer { unlink(path) }
        let store = Store(initialState: Todos.State(), reducer: Todos.reducer)
        let recorder = store.startRecording(
            .init(storeID: Todos.storeID, app: AppInfo(name: "bench"), bufferCapacity: bufferCapacity),
            to: FileTransport(path: path))
        var random = SeededRandom(seed: 1)
        dispatchTodoJourney(store, actions: actions, random: &random)
        let statistics = recorder.finish(timeout: .seconds(600))
        guard statistics.isFinished, statistics.actionsWritten + statistics.dropped == actions else {
            let message = "storekit-benchmarks: the burst's recorder did not account for every action: \(statistics)"
            FileHandle.standardError.write(Data((message + "\n").utf8))
            exit(2)
        }
        return Double(statistics.actionsWritten) / Double(actions) * 100
    }

    /// The sample app's todo journey (samples/SampleApp/SampleScripts.swift): adding, ticking off, tagging,
    /// filtering, deleting and clearing, so the list grows and shrinks around a few dozen todos.
    static func dispatchTodoJourney(
        _ store: Store<Todos.State, Todos.Action>, actions: Int, random: inout SeededRandom
    ) {
        let titles = ["Milk", "Eggs", "Bread", "Call mum", "Pay rent", "Book flights", "Fix bike", "Water plants"]
        let tags = ["home", "errand", "urgent", "weekend"]
        var clock = Date(timeIntervalSince1970: 1_795_000_000)
        for _ in 0..<actions {
            clock += Double.random(in: 0.5...30, using: &random)
            let todos = store.state.todos
            let roll = Int.random(in: 0..<100, using: &random)
            if todos.count < 3 || roll < 30 {
                let id = UUID(uuid: (
                    UInt8.random(in: 0...255, using: &random), UInt8.random(in: 0...255, using: &random),
                    UInt8.random(in: 0...255, using: &random), UInt8.random(in: 0...255, using: &random),
                    UInt8.random(in: 0...255, using: &random), UInt8.random(in: 0...255, using: &random), 0x40,
                    UInt8.random(in: 0...255, using: &random), 0x80, UInt8.random(in: 0...255, using: &random),
                    UInt8.random(in: 0...255, using: &random), UInt8.random(in: 0...255, using: &random),
                    UInt8.random(in: 0...255, using: &random), UInt8.random(in: 0...255, using: &random),
                    UInt8.random(in: 0...255, using: &random), UInt8.random(in: 0...255, using: &random)
                ))
                store.dispatch(.addTodo(id: id, title: titles.randomElement(using: &random)!, createdAt: clock))
            } else if roll < 55 {
                store.dispatch(.toggleCompleted(id: todos.randomElement(using: &random)!.id))
            } else if roll < 75 {
                let todo = todos.randomElement(using: &random)!
                store.dispatch(.tag(id: todo.id, tag: tags.randomElement(using: &random)!))
            } else if roll < 85 {
                store.dispatch(.setFilter(Todos.Filter.allCases.randomElement(using: &random)!))
            } else if roll < 93 {
                store.dispatch(.delete(id: todos.randomElement(using: &random)!.id))
            } else {
                store.dispatch(.clearCompleted)
            }
        }
    }
}
