import Foundation
import StoreKitCore
import StoreKitReplay

/// Replay + verify speed against merely parsing the same file.
enum ReplayBenchmarks {
    /// Records `actions` actions on a state of about `bytes` bytes into `path`.
    static func makeSession(path: String, bytes: Int, actions: Int) {
        let store = Store(
            initialState: Inventory.state(itemCount: Inventory.itemCount(forBytes: bytes)), reducer: Inventory.reducer)
        let recorder = store.startRecording(
            .init(storeID: "inventory", app: AppInfo(name: "bench"), bufferCapacity: 1 << 20),
            to: FileTransport(path: path))
        for index in 0..<actions {
            store.dispatch(.restock(index: index, amount: 1))
            // Stay within the recorder's buffer: let it catch up every so often.
            if index % 50_000 == 49_999 { while recorder.statistics.actionsWritten < index - 10_000 { usleep(1000) } }
        }
        recorder.finish(timeout: .seconds(1200))
    }

    static func rows(label: String, bytes: Int, actions: Int) -> [Row] {
        let path = "/tmp/skr-bench-replay-\(getpid()).jsonl"
        defer { unlink(path) }
        makeSession(path: path, bytes: bytes, actions: actions)
        let size = Double((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
        let engine = ReplayEngine(stores: [ReplayableStore(id: "inventory", reducer: Inventory.reducer)])
        var verdict = ""
        let replaySeconds = Measure.seconds { verdict = ((try? engine.replay(path: path))?.verdict.name) ?? "error" }
        let jqSeconds = Measure.seconds { runQuietly("/bin/sh", ["-c", "jq -c . '\(path)' > /dev/null"]) }
        let serializationSeconds = Measure.seconds { parseWithJSONSerialization(path) }
        let mbPerSecond = size / 1e6 / replaySeconds
        FileHandle.standardError.write(Data("replay \(label): \(actions) actions, \(Int(size / 1e6)) MB, verdict \(verdict)\n".utf8))
        return [
            Row(
                name: "replay + verify, \(label)", figure: mbPerSecond, unit: "MB/s", reference: size / 1e6 / jqSeconds,
                referenceName: "jq -c . > /dev/null", target: ">= 1x"),
            Row(
                name: "replay + verify, \(label)", figure: Double(actions) / replaySeconds, unit: "actions/s",
                reference: Double(actions) / serializationSeconds, referenceName: "JSONSerialization per line",
                target: ""),
        ]
    }

    private static func parseWithJSONSerialization(_ path: String) {
        guard let data = FileManager.default.contents(atPath: path) else { return }
        for line in data.split(separator: 0x0A) { _ = try? JSONSerialization.jsonObject(with: line) }
    }

    private static func runQuietly(_ executable: String, _ arguments: [String]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        try? process.run()
        process.waitUntilExit()
    }
}
