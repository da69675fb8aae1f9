import Foundation
import SampleFeatures
import StoreKitCore

/// docs/devices.md: an app on a phone records to a file in its container, where `replay-cli pull` finds it.
func recordOnADevice(
    store: Store<Todos.State, Todos.Action>, app: AppInfo
) throws -> SessionRecorder<Todos.State, Todos.Action> {
    // snippet: recording-on-a-device
    // <container>/Library/Caches/replay-sessions, the folder `replay-cli pull` copies unless told otherwise
    let caches = try FileManager.default.url(for: .cachesDirectory, in: .userDomainMask, appropriateFor: nil, create: true)
    let folder = caches.appendingPathComponent("replay-sessions", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)

    let file = folder.appendingPathComponent("todos-\(Int(Date().timeIntervalSince1970)).jsonl")
    let recorder = store.startRecording(.init(storeID: "todos", app: app), to: FileTransport(path: file.path))
    // snippet end
    return recorder
}
