import Foundation
import StoreKitCore
import StoreKitReplay
import StoreKitTestFixtures
import Testing

/// A todo list's state, the same in every style's test app.
struct TodoState: Codable, Equatable, Sendable {
    var todos: [String] = []
    var done: [Int] = []
    var isLoading = false
}

/// Records a session to a file in a fresh temporary folder with `record`, then replays it through each store of
/// `stores` in turn, and removes the folder.
/// - Returns: The session as read back, and one report per store.
@MainActor func recordAndReplay<State: Encodable & Sendable, Action: Encodable & Sendable>(
    initialState: State, storeID: String, stores: [ReplayableStore],
    record: @MainActor (SessionRecorder<State, Action>) async throws -> Void
) async throws -> (session: Session, reports: [ReplayReport]) {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let path = folder.file("\(storeID).jsonl")
    let recorder = SessionRecorder<State, Action>(
        initialState: initialState, transport: FileTransport(path: path),
        configuration: .init(
            storeID: storeID,
            app: AppInfo(name: "AdapterTests", commit: String(repeating: "0", count: 40))))
    try await record(recorder)
    recorder.finishWaitingGenerously()
    let reports = try stores.map { try ReplayEngine(stores: [$0]).replay(path: path) }
    return (try Session(contentsOf: path), reports)
}

extension ReplayReport {
    /// The replay's explanation without its header line (which names the recording's date), as `replay-cli diff`
    /// prints it.
    var verdictText: String {
        explanation(source: "session").split(separator: "\n", omittingEmptySubsequences: false)
            .dropFirst()
            .joined(separator: "\n")
    }
}

extension Session {
    /// The gap events, in order.
    var gaps: [GapEvent] {
        events.compactMap { if case .gap(let gap) = $0 { gap } else { nil } }
    }

    /// The end event, when the session has one.
    var end: EndEvent? {
        events.lazy.compactMap { if case .end(let end) = $0 { end } else { nil } }.first
    }
}
