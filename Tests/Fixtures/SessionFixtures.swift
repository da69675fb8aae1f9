import Foundation
import StoreKitCore
import StoreKitReplay
import Testing

/// A tiny feature for session, recorder and replay tests: a list of numbered items with a `Set` of labels.
package enum Tally {
    package struct State: Codable, Equatable, Sendable {
        package var total = 0
        package var items: [Int] = []
        package var labels: Set<String> = []
        package var ratio = 1.0

        package init() {}
    }

    package enum Action: Codable, Equatable, Sendable {
        case add(Int)
        case label(String)
        case setRatio(Double)
        case clear
    }

    package static let reducer = Reducer<State, Action> { state, action in
        switch action {
        case .add(let value):
            state.total += value
            state.items.append(value)
        case .label(let label):
            state.labels.insert(label)
        case .setRatio(let ratio):
            state.ratio = ratio
        case .clear:
            state = State()
        }
    }

    /// The same feature with a regression: `add` forgets to append to `items` when the value is 3.
    package static let brokenReducer = Reducer<State, Action> { state, action in
        if case .add(3) = action {
            state.total += 3
            return
        }
        reducer.reduce(&state, action)
    }

    package static let replayable = ReplayableStore(id: "tally", reducer: reducer)
    package static let broken = ReplayableStore(id: "tally", reducer: brokenReducer)
}

/// Records `actions` on a fresh tally store into memory and returns the session.
package func recordTally(_ actions: [Tally.Action], bufferCapacity: Int = 4096) throws -> Session {
    let transport = MemoryTransport()
    let store = Store(initialState: Tally.State(), reducer: Tally.reducer)
    let recorder = store.startRecording(
        .init(storeID: "tally", app: AppInfo(name: "TallyApp", version: "2.0", build: "7"), bufferCapacity: bufferCapacity),
        to: transport)
    for action in actions { store.dispatch(action) }
    recorder.finishWaitingGenerously()
    return try transport.session()
}

/// A temporary directory under /tmp, removed by `remove()`.
package struct TemporaryDirectory {
    package let path: String

    package init() throws {
        path = "/tmp/skr-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    package func file(_ name: String) -> String { "\(path)/\(name)" }

    package func write(_ name: String, _ text: String) throws -> String {
        let file = file(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        return file
    }

    /// Adds `text` at the end of the file `name`, as a writer going on with it does.
    package func append(_ name: String, _ text: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file(name)))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
    }

    package func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// A valid header line for hand-written sessions.
package let headerLine = #"{"app":{"name":"TallyApp"},"format":1,"initialState":{"items":[],"labels":[],"ratio":1.0,"total":0},"kind":"session","sessionId":"s1","startedAt":"2026-11-22T10:00:00.000Z","storeId":"tally"}"#

/// An action line for hand-written sessions.
package func actionLine(_ seq: Int, action: String, state: String) -> String {
    #"{"action":\#(action),"kind":"action","seq":\#(seq),"state":\#(state),"time":0.5}"#
}
