import Foundation
import StoreKitCore
import StoreKitSystem

/// The app's peak resident memory while a recorder takes a burst of the 10 KB state flat out, with each transport,
/// beside the recorder's memory limit. Each transport is measured in a process of its own (`--peak-rss`), because a
/// process's peak only grows.
enum MemoryBenchmarks {
    /// Where the burst is recorded.
    enum Destination: String, CaseIterable {
        case file, socket, flight
    }

    /// Records a burst of `actions` of the 10 KB state to `destination` with the default configuration and returns
    /// the growth of this process's peak resident memory, beside the memory limit.
    static func row(_ destination: Destination, actions: Int) throws -> Row {
        let limit = SessionRecorder<Inventory.State, Inventory.Action>.Configuration(
            storeID: "inventory", app: AppInfo(name: "bench")
        ).memoryLimit
        let store = Store(
            initialState: Inventory.state(itemCount: Inventory.itemCount(forBytes: 10_000)), reducer: Inventory.reducer)
        let path = "/tmp/skr-bench-rss-\(getpid()).jsonl"
        defer { unlink(path) }
        let daemon = destination == .socket ? try BenchmarkDaemon() : nil
        defer { daemon?.stop() }
        let transport: any SessionTransport =
            switch destination {
            case .file: FileTransport(path: path)
            case .socket: UnixSocketTransport(path: daemon?.socket)
            case .flight: FlightRecorder()
            }
        let before = try Syscall.peakResidentBytes()
        let recorder = store.startRecording(.init(storeID: "inventory", app: AppInfo(name: "bench")), to: transport)
        for index in 0..<actions { store.dispatch(.restock(index: index, amount: 1)) }
        let statistics = recorder.finish(timeout: .seconds(600))
        let peak = try Syscall.peakResidentBytes()
        guard statistics.isFinished, statistics.actionsWritten + statistics.dropped == actions else {
            FileHandle.standardError.write(Data("storekit-benchmarks: the recorder did not account for every action: \(statistics)\n".utf8))
            exit(2)
        }
        let megabytes = { (bytes: Int) in Double(bytes) / 1_048_576 }
        return Row(
            name: "peak RSS growth, burst of \(actions.formatted()) actions of 10 KB, \(destination.rawValue) (\(String(format: "%.0f", megabytes(peak))) MB peak, \(String(format: "%.1f", Double(statistics.actionsWritten) / Double(actions) * 100))% recorded)",
            figure: megabytes(peak - before), unit: "MB", reference: megabytes(limit),
            referenceName: "memoryLimit", target: "under the limit")
    }
}
