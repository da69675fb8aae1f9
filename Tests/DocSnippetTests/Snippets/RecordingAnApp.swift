import SampleFeatures

// The README's "Add recording to an app" and the opening of docs/recording.md.
// snippet: recording-an-app
import Foundation
import StoreKitCore

func startTodoApp() {
    let store = Store(initialState: Todos.State(), reducer: Todos.reducer)
    let recorder = store.startRecording(
        .init(storeID: "todos", app: AppInfo(name: "TodoApp", version: "1.4", build: "212", schemaVersion: "3")),
        to: FileTransport(path: "/tmp/todos.jsonl"))   // or UnixSocketTransport() to stream to replayd

    store.dispatch(.addTodo(id: UUID(), title: "Milk", createdAt: Date()))
    // ... when the app is done:
    recorder.finish()
}
// snippet end
