import Foundation
import StoreKitCore

// Benchmarks print figures; they are never timed tests. Run: swift run -c release storekit-benchmarks
if CommandLine.arguments.contains("--encode-only") {
    // A profiling hook: encode the 10 KB state in a loop (for valgrind --tool=callgrind).
    let state = Inventory.state(itemCount: Inventory.itemCount(forBytes: 10_000))
    var total = 0
    for _ in 0..<200 { total += (try? CanonicalJSONEncoder().encodeToBytes(state).count) ?? 0 }
    print(total)
    exit(0)
}
FileHandle.standardError.write(Data("running recording benchmarks...\n".utf8))
var rows: [Row] = []
for (label, bytes) in [("small", 50), ("10 KB", 10_000), ("1 MB", 1_000_000)] {
    rows += RecordingBenchmarks.dispatchCost(label: label, bytes: bytes, dispatches: bytes >= 1_000_000 ? 200 : 5000)
}
let (rate, dropped) = RecordingBenchmarks.sustainedRate(label: "10 KB", bytes: 10_000, actions: 20_000)
rows.append(rate)
Table.print(rows)
print("dropped while recording the sustained run: \(dropped)")
