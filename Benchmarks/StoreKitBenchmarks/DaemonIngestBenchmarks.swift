import Foundation
import ReplayDaemon
import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import StoreKitSystem

/// Daemon ingest: the same session bytes pushed by N clients through replayd (which checks every line) and
/// through a plain Unix socket into files with no parsing at all (the machine's limit).
enum DaemonIngestBenchmarks {
    /// Rows for 1 and 8 clients, plus the CPU time the daemon's own work takes against all the plain copy's, and
    /// the daemon's peak memory.
    ///
    /// Each figure is the median of `rounds` runs, the plain socket and the daemon taking turns, so a slow spell of
    /// this shared machine weighs on both sides alike instead of on whichever ran during it.
    static func rows(totalBytes: Int, rounds: Int) throws -> [Row] {
        var rows: [Row] = []
        for clients in [1, 8] {
            let payloads = (0..<clients).map { payload(session: "ingest-\($0)", bytes: totalBytes / clients) }
            let lines = payloads.reduce(0) { total, payload in total + payload.lazy.filter { $0 == 0x0A }.count }
            let bytes = Double(payloads.reduce(0) { $0 + $1.count })
            // Before the rounds, and once the earlier rounds' files are written back: writeback slows it.
            let lineCheck = clients == 8 ? lineCheckMillisecondsPerMB(payloads[0]) : nil
            var plainRuns: [Double] = []
            var syncingRuns: [Double] = []
            var daemonRuns: [Double] = []
            var peak: Int?
            // CPU seconds over all rounds: the plain copy's (this process, all of it), the daemon's own work.
            var plainCPU = 0.0
            var daemonUserCPU: Double? = 0
            for _ in 0..<rounds {
                let before = Measure.cpuSecondsOfThisProcess()
                plainRuns.append(try plainSocketSeconds(payloads))
                let after = Measure.cpuSecondsOfThisProcess()
                plainCPU += after.user + after.system - before.user - before.system
                if clients == 8 { syncingRuns.append(try plainSocketSeconds(payloads, syncingEachFile: true)) }
                let daemon = try BenchmarkDaemon()
                let daemonBefore = daemon.cpuSeconds()
                daemonRuns.append(try push(payloads, to: daemon.socket, until: daemon.sessions))
                if let start = daemonBefore, let end = daemon.cpuSeconds() {
                    daemonUserCPU = daemonUserCPU.map { $0 + end.user - start.user }
                } else {
                    daemonUserCPU = nil
                }
                if let runPeak = daemon.peakMemory() { peak = max(peak ?? 0, runPeak) }
                daemon.stop()
            }
            let plain = Measure.quantile(plainRuns, 0.5)
            let seconds = Measure.quantile(daemonRuns, 0.5)
            let megabytes = bytes * Double(rounds) / 1e6
            let plainMillisecondsPerMB = plainCPU / megabytes * 1000
            let name = "replayd ingest, \(clients) client\(clients == 1 ? "" : "s")"
            rows.append(Row(
                name: name, figure: bytes / seconds / 1e6, unit: "MB/s", reference: bytes / plain / 1e6,
                referenceName: "plain socket to file", target: clients == 8 ? ">= 0.80x" : ""))
            rows.append(Row(
                name: name, figure: Double(lines) / seconds, unit: "lines/s", reference: Double(lines) / plain,
                referenceName: "plain socket to file", target: ""))
            if !syncingRuns.isEmpty {
                // The plain copy never writes its files to the disk: they are removed before the kernel's writeback
                // starts. The daemon syncs each session's file when it ends, so this reference does too.
                rows.append(Row(
                    name: name, figure: bytes / seconds / 1e6, unit: "MB/s",
                    reference: bytes / Measure.quantile(syncingRuns, 0.5) / 1e6,
                    referenceName: "plain copy syncing each file at its end", target: "the sync's share"))
            }
            if let daemonUserCPU {
                // When both are bound by the CPU, the daemon's kernel work being the plain copy's, the daemon reaches
                // 1 / (1 + this ratio) of the plain copy's rate: 0.8x needs the ratio at 0.25x or below.
                rows.append(Row(
                    name: name + ", the daemon's own work (user CPU)", figure: daemonUserCPU / megabytes * 1000,
                    unit: "ms/MB", reference: plainMillisecondsPerMB,
                    referenceName: "all the plain copy's CPU", target: clients == 8 ? "<= 0.25x" : ""))
            }
            if let lineCheck {
                // The part of the daemon's own work that no change to its reading, framing or writing can save.
                rows.append(Row(
                    name: "replayd ingest, the line check alone (one thread, no I/O)", figure: lineCheck,
                    unit: "ms/MB", reference: plainMillisecondsPerMB, referenceName: "all the plain copy's CPU",
                    target: "line check alone"))
            }
            if let peak {
                rows.append(Row(
                    name: "replayd peak memory, \(clients) client\(clients == 1 ? "" : "s")", figure: Double(peak) / 1e6,
                    unit: "MB", reference: bytes / 1e6, referenceName: "bytes ingested", target: "flat"))
            }
        }
        return rows
    }

    /// The CPU time per MB, in milliseconds, the daemon's check of every line of `payload` takes on one thread, with
    /// the memory of the line before that the daemon keeps per client, and nothing read or written: the best of five
    /// passes, once what the system holds is written back (`sync`).
    static func lineCheckMillisecondsPerMB(_ payload: [UInt8]) -> Double {
        let lines = lineRanges(payload)
        sync()
        var best = Double.infinity
        for _ in 0..<5 {
            var validator = SessionLineValidator()
            let memory = SessionLineValidator.StreamMemory()
            var accepted = 0
            let start = Measure.cpuSecondsOfThisThread()
            payload.withUnsafeBufferPointer { buffer in
                for line in lines {
                    if case .success = validator.check(UnsafeBufferPointer(rebasing: buffer[line]), memory: memory) {
                        accepted += 1
                    }
                }
            }
            best = min(best, Measure.cpuSecondsOfThisThread() - start)
            precondition(accepted == lines.count, "the line check refused a benchmark line")
        }
        return best / Double(payload.count) * 1e9
    }

    /// The ranges of `payload`'s lines, without their `\n`.
    static func lineRanges(_ payload: [UInt8]) -> [Range<Int>] {
        var lines: [Range<Int>] = []
        var lineStart = 0
        for (index, byte) in payload.enumerated() where byte == 0x0A {
            lines.append(lineStart..<index)
            lineStart = index + 1
        }
        return lines
    }

    /// One session of about `bytes` bytes: a header, action lines each with the 1 KB state the action left, and an
    /// end. Each action changes one item, as a store's actions do, so no two states in a row are the same.
    static func payload(session: String, bytes: Int) -> [UInt8] {
        let header = SessionHeader(
            sessionID: session, storeID: "inventory", app: AppInfo(name: "bench"), startedAt: "2026-11-22T00:00:00.000Z",
            host: "bench", pid: 1, initialState: .object([:]))
        var out = SessionEvent.header(header).line
        out.reserveCapacity(bytes + 2048)
        let encoder = CanonicalJSONEncoder()
        var state = Inventory.state(itemCount: 10)
        var sequence = 0
        while out.count < bytes {
            sequence += 1
            Inventory.reducer.reduce(&state, .restock(index: sequence, amount: 1))
            out += Array(#"{"action":{"restock":{"amount":1,"index":\#(sequence)}},"kind":"action","name":"restock","origin":"app","seq":\#(sequence),"state":"#.utf8)
            out += (try? encoder.encodeToBytes(state)) ?? []
            out += Array(#","time":\#(Double(sequence) / 1000)}"#.utf8)
            out.append(0x0A)
        }
        out += SessionEvent.end(EndEvent(reason: .finished, actions: sequence, dropped: 0, time: 1)).line
        return out
    }

    /// The daemon's validating scanner alone, in one thread, over `bytes` of ingest lines, without and with the
    /// memory of each line's predecessor that the daemon keeps per client: figures for tuning it. With `only`, just
    /// that one (for callgrind).
    static func scanReport(bytes: Int, only: ScanMode? = nil) -> String {
        let payload = payload(session: "scan", bytes: bytes)
        let lines = lineRanges(payload)
        return ScanMode.allCases.filter { only == nil || $0 == only }.map { mode in
            let memory = mode == .withMemory ? JSONLineMemory() : nil
            var scanner = JSONLineScanner()
            var valid = 0
            let start = Measure.now()
            payload.withUnsafeBufferPointer { buffer in
                for line in lines where scanner.scanObject(UnsafeBufferPointer(rebasing: buffer[line]), memory: memory) {
                    valid += 1
                }
            }
            let rate = Double(payload.count) / (Measure.now() - start) / 1e6
            return "scanned \(payload.count) bytes in \(lines.count) lines (\(valid) valid), \(mode.rawValue): \(Int(rate)) MB/s"
        }.joined(separator: "\n")
    }

    /// Whether the scanner remembers each line for the next.
    enum ScanMode: String, CaseIterable {
        case withoutMemory = "without memory"
        case withMemory = "with memory"
    }

    /// Sends each payload on its own connection and thread, and returns the seconds until every byte is in a
    /// file under `directory`.
    ///
    /// The senders write straight from the payloads, and the folder is watched only once they are done, so on this
    /// 2-core machine neither copying nor watching takes CPU from the side being measured.
    static func push(_ payloads: [[UInt8]], to socket: String, until directory: String) throws -> Double {
        let expected = payloads.reduce(0) { $0 + $1.count }
        let sent = DispatchGroup()
        let start = Measure.now()
        for payload in payloads {
            let fd = try Syscall.makeUnixSocket()
            try Syscall.connect(fd, to: UnixSocketAddress(path: socket))
            sent.enter()
            Thread {
                payload.withUnsafeBytes { bytes in
                    var offset = 0
                    while offset < bytes.count {
                        let chunk = UnsafeRawBufferPointer(rebasing: bytes[offset..<min(bytes.count, offset + (1 << 18))])
                        // A blocking socket takes some of it; 0 or an error means it gave up (the deadline tells).
                        guard let count = try? Syscall.send(fd, chunk), count > 0 else { break }
                        offset += count
                    }
                }
                try? Syscall.close(fd)
                sent.leave()
            }.start()
        }
        let deadline = start + 120
        guard sent.wait(timeout: .now() + 120) == .success else {
            throw IngestError.incomplete(stored: storedBytes(in: directory), expected: expected)
        }
        while storedBytes(in: directory) < expected {
            guard Measure.now() < deadline else {
                throw IngestError.incomplete(stored: storedBytes(in: directory), expected: expected)
            }
            usleep(200)
        }
        return Measure.now() - start
    }

    /// Why an ingest run could not be measured.
    enum IngestError: Error {
        /// The files never reached the bytes sent within the deadline.
        case incomplete(stored: Int, expected: Int)
    }

    private static func storedBytes(in directory: String) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.reduce(0) { total, name in
            total + ((try? Syscall.status(directory + "/" + name))?.size ?? 0)
        }
    }

    /// The same payloads through a plain Unix socket: one thread per connection copies what it reads into a
    /// file, checking nothing; `syncingEachFile`, it syncs the file to the disk when its client ends, as `replayd`
    /// syncs a session's file.
    static func plainSocketSeconds(_ payloads: [[UInt8]], syncingEachFile: Bool = false) throws -> Double {
        let folder = "/tmp/skr-plain-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let socket = folder + "/p.sock"
        let listener = try Syscall.makeUnixSocket()
        defer { try? Syscall.close(listener) }
        try Syscall.bind(listener, to: UnixSocketAddress(path: socket))
        try Syscall.listen(listener, backlog: 64)
        let sessions = folder + "/files"
        try FileManager.default.createDirectory(atPath: sessions, withIntermediateDirectories: true)
        // Each copying thread is waited for before the files are removed: a sync may go on after the last byte.
        let copiers = DispatchGroup()
        let acceptor = Thread {
            for index in 0..<payloads.count {
                guard let client = try? Syscall.accept(listener) else { return }
                copiers.enter()
                Thread {
                    defer { copiers.leave() }
                    guard let file = try? Syscall.open("\(sessions)/\(index).jsonl", O_WRONLY | O_CREAT | O_APPEND) else { return }
                    var buffer = [UInt8](repeating: 0, count: 1 << 16)
                    var ready = [pollfd(fd: client, events: Int16(POLLIN), revents: 0)]
                    while true {
                        // Accepted sockets are non-blocking: nil means "nothing yet", so wait for more; 0 is the end.
                        let received = buffer.withUnsafeMutableBytes { bytes in
                            Result { try Syscall.receive(client, into: bytes.baseAddress!, count: bytes.count) }
                        }
                        guard case .success(let count) = received else { break }
                        guard let read = count else {
                            _ = try? Syscall.poll(&ready, timeoutMilliseconds: 1000)
                            continue
                        }
                        guard read > 0 else { break }
                        try? buffer.withUnsafeBytes { try Syscall.writeAll(file, UnsafeRawBufferPointer(rebasing: $0[..<read])) }
                    }
                    if syncingEachFile {
                        try? Syscall.syncAndClose(file)
                    } else {
                        try? Syscall.close(file)
                    }
                    try? Syscall.close(client)
                }.start()
            }
        }
        acceptor.start()
        let seconds = try push(payloads, to: socket, until: sessions)
        _ = copiers.wait(timeout: .now() + 120)
        return seconds
    }
}
