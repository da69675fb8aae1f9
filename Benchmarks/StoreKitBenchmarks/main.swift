import Foundation
import StoreKitCore
import StoreKitJSON

// Benchmarks print figures; they are never timed tests. Run: swift run -c release storekit-benchmarks
// or Benchmarks/run.sh for the whole table, with the comparisons against jq and Python.
let arguments = CommandLine.arguments
if arguments.contains("--help") {
    print("""
        USAGE: storekit-benchmarks [--quick] [--repeat N] [--dispatch-only | --recording-only | --daemon-only |
                                                        --replay-only | --burst-only]
               storekit-benchmarks --peak-rss file|socket|flight [--quick]
               storekit-benchmarks --restart-loss [--pace N] [--quick]
               storekit-benchmarks --write-diff-pair <dir> [MB] | --encode-only | --encode-lines-only | --scan-only |
                                   --line-check-only |
                                   --dispatch-instructions [BYTES] [--without-recorder | --holding-states]
                                   [--recorded-call]

          (no option)        the whole table (several minutes); --quick uses smaller inputs
          --repeat N         measure the rows of recording cost on the app's thread N times: each p99 row is
                             the worst of the N runs (with every run's ratio below the table), each other row
                             the run with the median ratio
          --dispatch-only    only the rows of recording cost on the app's thread
          --recording-only   only the sustained recording rows (to a file and through replayd)
          --daemon-only      only the replayd ingest rows
          --replay-only      only the replay + verify rows
          --burst-only       only the recorded share of a burst on the sample todo list
          --peak-rss         the peak resident memory a burst of 1,000,000 actions of the 10 KB state (100,000
                             with --quick) adds, recorded to a file, through replayd or to a flight recorder
                             (one per process: a process's peak only grows)
          --restart-loss     the actions lost when replayd is killed with SIGKILL and restarted 5 times (down
                             1 s each time) while the 10 KB state is recorded at half the rate the same
                             recording reaches without restarts, with the journal and with journal: nil; with
                             the peak journal and each outage; --pace N dispatches N actions a second
                             instead, to compare with a table measured at that pace
          --write-diff-pair  write two states of 5 MB (or MB) that differ in about 1% of their leaves
          --encode-only      encode the 10 KB state after each of 200 actions (a hook for valgrind
                             --tool=callgrind); add --reusing to reuse the encoding of unchanged parts, or
                             --codable-calls-only to make only the Codable calls, into an encoder that writes
                             nothing
          --dispatch-instructions [BYTES]   20,000 dispatches of a state of BYTES (50 unless given) with a
                             recorder writing to a file (a hook for valgrind --tool=callgrind); add
                             --without-recorder for the reference, or --holding-states for a store that
                             holds its states as a recorder does, encoding nothing; add --recorded-call
                             for a replayable effect making a recorded call per action, as the call rows
          --encode-lines-only  encode what an action line holds after each of 200 actions of the 10 KB state
                             (its name, the action and the state), as a recorder with the defaults does
          --scan-only        the daemon's line scanner alone over 64 MB of ingest lines, in MB/s, without and
                             with its memory of the line before; add --with-memory or --without-memory for one
          --line-check-only  the daemon's whole check of each line (the scan with its memory, then the
                             action's fields) over 64 MB of ingest lines, in ms of CPU per MB, the best of 5
        """)
    exit(0)
}
if let index = arguments.firstIndex(of: "--write-diff-pair"), arguments.count > index + 1 {
    let megabytes = arguments.count > index + 2 ? Int(arguments[index + 2]) ?? 5 : 5
    let (old, new) = measuring { try DiffBenchmarks.writePair(bytes: megabytes * 1_000_000, to: arguments[index + 1]) }
    print(old, new)
    exit(0)
}
if arguments.contains("--encode-only") {
    // A profiling hook: encode the 10 KB state after each of 200 actions (for valgrind --tool=callgrind); with
    // --reusing, through an EncodingMemo as a recorder reusing unchanged parts does; with --codable-calls-only,
    // only the Codable calls, into an encoder that writes nothing.
    var state = Inventory.state(itemCount: Inventory.itemCount(forBytes: 10_000))
    let memo = arguments.contains("--reusing") ? EncodingMemo() : nil
    let callsOnly = arguments.contains("--codable-calls-only")
    var total = 0
    for index in 0..<200 {
        Inventory.reducer.reduce(&state, .restock(index: index, amount: 1))
        total += callsOnly
            ? try CodableCallsOnly.encode(state) : try CanonicalJSONEncoder().encodeToBytes(state, reusing: memo).count
    }
    print(total)
    exit(0)
}
if let index = arguments.firstIndex(of: "--dispatch-instructions") {
    // A profiling hook: 20,000 dispatches of a state of the given size with a recorder writing to a file (or
    // without one, or holding the states alone), for valgrind --tool=callgrind; the difference of two totals is the
    // recorder's share, or holding's.
    let bytes = arguments.count > index + 1 ? Int(arguments[index + 1]) ?? 50 : 50
    let watcher: RecordingBenchmarks.ProfiledWatcher =
        arguments.contains("--without-recorder") ? .nothing : arguments.contains("--holding-states") ? .stateKeeper : .recorder
    RecordingBenchmarks.dispatchForProfiling(
        bytes: bytes, dispatches: 20_000, watcher: watcher, recordedCallPerAction: arguments.contains("--recorded-call"))
    exit(0)
}
if arguments.contains("--encode-lines-only") {
    // A profiling hook: what a recorder with the defaults encodes for each of 200 actions of the 10 KB state (the
    // action's name, and the action and the state each through a writer kept from action to action).
    var state = Inventory.state(itemCount: Inventory.itemCount(forBytes: 10_000))
    let memo = EncodingMemo(reuse: .provenValueParts)
    let actionMemo = EncodingMemo(reuse: .never)
    let names = ActionNameCache()
    var total = 0
    for index in 0..<200 {
        let action = Inventory.Action.restock(index: index, amount: 1)
        Inventory.reducer.reduce(&state, action)
        total += names.name(of: action).utf8.count
            + (try CanonicalJSONEncoder().encodeToBytes(action, reusing: actionMemo).count)
            + (try CanonicalJSONEncoder().encodeToBytes(state, reusing: memo).count)
    }
    print(total)
    exit(0)
}
if arguments.contains("--scan-only") {
    // A profiling hook: the daemon's validating scanner alone over 64 MB of ingest lines, in one thread.
    let only: DaemonIngestBenchmarks.ScanMode? =
        arguments.contains("--with-memory") ? .withMemory : arguments.contains("--without-memory") ? .withoutMemory : nil
    print(DaemonIngestBenchmarks.scanReport(bytes: 64_000_000, only: only))
    exit(0)
}
if arguments.contains("--line-check-only") {
    // A profiling hook: the daemon's line check alone, as the ingest rows' "line check alone" measures it.
    let payload = DaemonIngestBenchmarks.payload(session: "check", bytes: 64_000_000)
    print("line check: \(DaemonIngestBenchmarks.lineCheckMillisecondsPerMB(payload)) ms/MB")
    exit(0)
}
let quick = arguments.contains("--quick")
if let index = arguments.firstIndex(of: "--peak-rss") {
    guard arguments.count > index + 1, let destination = MemoryBenchmarks.Destination(rawValue: arguments[index + 1])
    else {
        FileHandle.standardError.write(Data("Error: --peak-rss takes 'file', 'socket' or 'flight'\n".utf8))
        exit(64)
    }
    Table.print([measuring { try MemoryBenchmarks.row(destination, actions: quick ? 100_000 : 1_000_000) }])
    exit(0)
}
if arguments.contains("--restart-loss") {
    var pace: Double?
    if let index = arguments.firstIndex(of: "--pace") {
        guard arguments.count > index + 1, let actionsPerSecond = Double(arguments[index + 1]), actionsPerSecond > 0
        else {
            FileHandle.standardError.write(Data("Error: --pace takes a number of actions a second, above 0\n".utf8))
            exit(64)
        }
        pace = actionsPerSecond
    }
    // Between kills, the daemon stores 40 MB of the session (10 MB with --quick), about 4,000 (1,000) actions.
    let report = measuring {
        try RestartLossBenchmarks.report(
            restarts: 5, bytesPerRound: (quick ? 10 : 40) << 20, downtime: 1, pace: pace)
    }
    Table.print(report.rows)
    for line in report.details { print(line) }
    exit(0)
}
func progress(_ text: String) { FileHandle.standardError.write(Data("\(text)\n".utf8)) }

let repeats: Int = {
    guard let index = arguments.firstIndex(of: "--repeat") else { return 1 }
    guard arguments.count > index + 1, let count = Int(arguments[index + 1]), count >= 1 else {
        FileHandle.standardError.write(Data("Error: --repeat takes a number of runs, 1 or more\n".utf8))
        exit(64)
    }
    return count
}()

/// The rows of recording cost on the app's thread, for a small, a 10 KB and a 1 MB state, measured `repeats`
/// times (see ``RepeatedRows``), and the ratio of each p99 row in each run when there were several.
func dispatchRows() -> (rows: [Row], details: [String]) {
    let runs = (1...repeats).map { run in
        progress("recording cost on the app's thread\(repeats > 1 ? ", run \(run) of \(repeats)" : "")...")
        return [("small", 50), ("10 KB", 10_000), ("1 MB", 1_000_000)].flatMap { label, bytes in
            RecordingBenchmarks.dispatchCost(
                label: label, bytes: bytes, dispatches: bytes >= 1_000_000 ? 200 : RecordingBenchmarks.dispatchesPerRound)
        }
            + RecordingBenchmarks.dispatchCost(
                label: "small", bytes: 50, dispatches: RecordingBenchmarks.dispatchesPerRound,
                recordedCallPerAction: true)
    }
    let repeated = RepeatedRows(runs: runs)
    return (repeated.folded, repeats > 1 ? repeated.details : [])
}

/// The replayd ingest rows.
func ingestRows() throws -> [Row] {
    progress("daemon ingest...")
    return try DaemonIngestBenchmarks.rows(totalBytes: quick ? 32_000_000 : 256_000_000, rounds: quick ? 1 : 5)
}

/// The replay + verify rows, for a small and a 100 KB state.
func replayRows() -> [Row] {
    progress("replay + verify...")
    return ReplayBenchmarks.rows(label: "small state", bytes: 50, actions: quick ? 100_000 : 1_000_000)
        + ReplayBenchmarks.rows(label: "100 KB state", bytes: 100_000, actions: quick ? 300 : 2_000)
}

/// The sustained recording rows, to a file and through a running replayd, and how many actions each dropped.
/// By default, on two encoding threads, reusing the encoding of unchanged parts of the state, and by default with a
/// recorded call per action; then the ceiling `Codable` puts on one encoding thread.
func sustainedRows(actions: Int) throws -> (rows: [Row], dropped: (file: Int, daemon: Int)) {
    var rows: [Row] = []
    var dropped = (file: 0, daemon: 0)
    let daemon = try BenchmarkDaemon()
    defer { daemon.stop() }
    // By default; on two encoding threads (the default on three cores or more); reusing unchanged parts.
    for (reusing, twoThreads) in [(false, false), (false, true), (true, false)] {
        let (rate, fileDropped) = RecordingBenchmarks.sustainedRate(
            label: "10 KB", bytes: 10_000, actions: actions, reusingUnchangedParts: reusing, onTwoThreads: twoThreads)
        let (daemonRate, daemonDropped) = RecordingBenchmarks.sustainedRate(
            label: "10 KB", bytes: 10_000, actions: actions, daemon: daemon, reusingUnchangedParts: reusing,
            onTwoThreads: twoThreads)
        rows += [rate, daemonRate]
        dropped.file += fileDropped
        dropped.daemon += daemonDropped
    }
    // By default, with a replayable effect that makes a recorded call per action.
    let (callRate, callFileDropped) = RecordingBenchmarks.sustainedRate(
        label: "10 KB", bytes: 10_000, actions: actions, recordedCallPerAction: true)
    let (callDaemonRate, callDaemonDropped) = RecordingBenchmarks.sustainedRate(
        label: "10 KB", bytes: 10_000, actions: actions, daemon: daemon, recordedCallPerAction: true)
    rows += [callRate, callDaemonRate, try RecordingBenchmarks.codableCeiling(label: "10 KB", bytes: 10_000)]
    dropped.file += callFileDropped
    dropped.daemon += callDaemonDropped
    return (rows, dropped)
}
let sustainedActions = quick ? 5_000 : 20_000

/// Says how many actions the sustained runs dropped (none, when they measured what they claim).
func printDropped(_ dropped: (file: Int, daemon: Int)) {
    print("dropped while recording the sustained runs: \(dropped.file) to a file, \(dropped.daemon) through replayd")
}

if arguments.contains("--dispatch-only") {
    let dispatch = dispatchRows()
    Table.print(dispatch.rows)
    for line in dispatch.details { print(line) }
    exit(0)
}
if arguments.contains("--recording-only") {
    progress("sustained recording...")
    let sustained = measuring { try sustainedRows(actions: sustainedActions) }
    Table.print(sustained.rows)
    printDropped(sustained.dropped)
    exit(0)
}
if arguments.contains("--daemon-only") {
    Table.print(measuring { try ingestRows() })
    exit(0)
}
if arguments.contains("--burst-only") {
    progress("burst...")
    Table.print(BurstBenchmarks.rows(actions: 100_000, rounds: quick ? 1 : 3))
    exit(0)
}
if arguments.contains("--replay-only") {
    Table.print(replayRows())
    exit(0)
}

let dispatch = dispatchRows()
var rows = dispatch.rows
progress("sustained recording...")
let sustained = measuring { try sustainedRows(actions: sustainedActions) }
rows += sustained.rows
rows += BurstBenchmarks.rows(actions: 100_000, rounds: quick ? 1 : 3)
rows += measuring { try ingestRows() }
progress("storage...")
rows.append(StorageBenchmarks.bytesPerAction(bytes: 100_000, actions: quick ? 200 : 1_000))
rows += replayRows()
Table.print(rows)
for line in dispatch.details { print(line) }
printDropped(sustained.dropped)
