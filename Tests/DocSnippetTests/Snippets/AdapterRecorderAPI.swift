import StoreKitCore

/// A store of a library the package does not own, as docs/adapters.md's recorder API block drives it.
private enum RecorderAPIDocs {
    struct ListState: Codable, Sendable { var items: [String] = [] }
    enum ListAction: Codable, Sendable { case add(String), loaded([String]) }

    static func driveTheRecorder(state: ListState) {
        // snippet: adapters-recorder-api
        let recorder = SessionRecorder<ListState, ListAction>(
            initialState: ListState(), transport: FileTransport(path: "/tmp/list.jsonl"),
            configuration: .init(storeID: "list", app: AppInfo(name: "ListApp")))
        let cause = recorder.record(.add("Milk"), state: state)                  // 1, the app's action
        recorder.record(.loaded(["Eggs"]), state: state, origin: .effect(cause: cause))
        recorder.recordSkippedAction(message: "'ShowAlert' is not Codable")      // a gap, reason notEncodable
        recorder.finish()
        // snippet end
    }
}
