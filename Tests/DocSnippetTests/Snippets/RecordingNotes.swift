import SampleFeatures
import StoreKitCore

/// docs/recording.md: notes beside the actions, their secret fields redacted.
func recordNotes(store: Store<Todos.State, Todos.Action>, app: AppInfo) {
    // snippet: recording-notes
    let recorder = store.startRecording(
        .init(storeID: "todos", app: app, redaction: Redaction(notes: ["fields.authorization"]), recordsNotes: true),
        to: UnixSocketTransport())
    recorder.note("GET /todos failed", fields: ["requestId": "r-17", "status": "500"])
    // snippet end
    recorder.finish()
}
