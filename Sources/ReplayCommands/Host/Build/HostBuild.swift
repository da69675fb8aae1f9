import StoreKitCore
import StoreKitReplay

import Foundation

/// The replay host's build step, which brings the host up to date before every replay so that a replay never goes
/// through a stale binary.
///
/// A plain `swift build` whose inputs are all as they were before its last successful run, with the host's
/// executable as that run left it, is skipped (``HostBuildFingerprint``, ``HostBuildStamp``): running it again could
/// not change anything, and even a no-op `swift build` takes noticeable time. Any other step runs every time. Its
/// output is kept quiet; when it fails, the error names the command and shows the compiler's `error:` lines with a
/// few lines around each, not the whole log.
struct HostBuild {
    /// The shell command that builds the host.
    var command: String
    /// The directory it runs in.
    var directory: String
    /// Where the command came from, for messages.
    var origin: String
    /// How the progress line names the host: `the replay host`, or a baseline's.
    var name = "the replay host"

    /// Lines shown before and after each `error:` line.
    static let linesBefore = 2
    static let linesAfter = 6
    /// At most this many lines of build output in the error.
    static let maximumLines = 60
    /// Without any `error:` line, the last lines of the output are shown.
    static let tailLines = 20

    /// How a build step brought the host up to date.
    enum Outcome: Equatable {
        /// The step ran and succeeded.
        case built
        /// The step was skipped: nothing it reads changed since its last successful run, nor the executable since.
        case unchanged
    }

    /// Brings the host whose executable is `executable` up to date: skips the step when its stamp still holds,
    /// else runs it and, when it succeeds, stamps it with the fingerprint taken before it ran.
    /// - Parameter environment: the environment the step runs with (this process's).
    /// - Throws: ``CLIError`` when the step cannot start or fails.
    func bringUpToDate(executable: String?, environment: [String: String], terminal: Terminal) throws(CLIError) -> Outcome {
        // Without a fingerprint (not a plain `swift build`, a walk that failed) the step runs, as it always did.
        let fingerprint = try? HostBuildFingerprint.take(command: command, directory: directory, environment: environment)
        let stamp = HostBuildStamp(command: command, directory: directory)
        if let fingerprint, stamp.holds(fingerprint, executable: executable) { return .unchanged }
        try stamp.remove()
        try run(terminal)
        if let fingerprint { stamp.record(fingerprint, executable: executable) }
        return .built
    }

    /// Runs the build and waits for it; on a progress line, how far it is by the `[done/total]` steps `swift build`
    /// prints, and how long is left at its pace so far.
    /// - Throws: ``CLIError`` when it cannot start or exits with a status other than 0.
    func run(_ terminal: Terminal) throws(CLIError) {
        let meter = ProgressMeter(terminal, "building \(name):", unit: "steps", total: nil)
        defer { meter.finish() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardInput = FileHandle.nullDevice
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        do {
            try process.run()
        } catch {
            throw CLIError(.host, "cannot run the replay host's build step '\(command)' (from \(origin)): \(error)")
        }
        var data = Data()
        while case let chunk = output.fileHandleForReading.availableData, !chunk.isEmpty {
            data += chunk
            if let (done, total) = Self.lastStep(in: chunk) { meter.advance(to: done, of: total) }
        }
        process.waitUntilExit()
        guard process.terminationReason != .exit || process.terminationStatus != 0 else { return }
        let how = process.terminationReason == .uncaughtSignal
            ? "was killed by signal \(process.terminationStatus)" : "failed with status \(process.terminationStatus)"
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
        let excerpt = Self.excerpt(of: lines.last == "" ? Array(lines.dropLast()) : lines)
        throw CLIError(.host, 
"the replay host's build step '\(command)' (from \(origin), in \(directory)) \(how); nothing was replayed"
                + (excerpt.isEmpty ? " (it printed nothing)" : ":\n" + excerpt))
    }

    /// The last `[done/total]` step counter at the start of a line of `output`, as `swift build` prints them
    /// (`[77/170] Compiling ...`).
    static func lastStep(in output: Data) -> (done: Int, total: Int)? {
        for line in String(decoding: output, as: UTF8.self).split(whereSeparator: \.isNewline).reversed() {
            guard line.hasPrefix("["), let close = line.firstIndex(of: "]") else { continue }
            let counts = line[line.index(after: line.startIndex)..<close].split(separator: "/")
            if counts.count == 2, let done = Int(counts[0]), let total = Int(counts[1]), done <= total, total > 0 {
                return (done, total)
            }
        }
        return nil
    }

    /// The lines of a build log worth reading: each distinct `error:` line with a few lines around it, at most
    /// ``maximumLines``; the last ``tailLines`` when there is no `error:` line. Omissions are counted.
    static func excerpt(of lines: [String]) -> String {
        // The compiler repeats a diagnostic once per job that sees it; each is shown once.
        var seen: Set<String> = []
        let errors = lines.indices.filter { lines[$0].contains("error:") && seen.insert(lines[$0]).inserted }
        guard !errors.isEmpty else {
            let shown = lines.suffix(tailLines)
            let omitted = lines.count - shown.count
            return ((omitted > 0 ? ["... (\(omitted) lines omitted)"] : []) + shown).joined(separator: "\n")
        }
        var kept: [Int] = []
        for index in errors {
            let range = max(0, index - linesBefore)...min(lines.count - 1, index + linesAfter)
            kept += range.filter { $0 > (kept.last ?? -1) }
        }
        var excerpt: [String] = []
        var previous = -1
        for index in kept.prefix(maximumLines) {
            if index > previous + 1 { excerpt.append("... (\(index - previous - 1) lines omitted)") }
            excerpt.append(lines[index])
            previous = index
        }
        if previous < lines.count - 1 { excerpt.append("... (\(lines.count - 1 - previous) lines omitted)") }
        return excerpt.joined(separator: "\n")
    }
}
