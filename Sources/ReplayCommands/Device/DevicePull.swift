import Foundation
import StoreKitReplay

/// Copies session files out of an app's container on a phone and verifies each as every command reads it.
///
/// ``DeviceCopyPlan`` says what to copy; `devicectl` copies it into a fresh folder inside the destination (so that
/// whether it copies a folder or its contents does not matter, and nothing already there is mixed in), and the
/// session files (`.jsonl`) found in it, or with ``latestOnly`` the one modified last, are moved up into the
/// destination; the fresh folder is then removed.
struct DevicePull {
    /// What to copy; its destination is the fresh folder.
    let plan: DeviceCopyPlan
    /// The folder the session files end up in.
    let destination: String
    /// Whether only the session file modified last is kept.
    let latestOnly: Bool

    /// One session file pulled, and what verifying it found.
    struct PulledSession: Equatable {
        /// Its path in the destination.
        var path: String
        /// The verifier's result.
        var verification: SessionVerifier.Result

        /// The reader's first error, when the file has one.
        var firstError: SessionVerifier.Problem? { verification.problems.first { !$0.isWarning } }

        /// `ok <path>: N lines, M actions`, or `invalid <path>:<line>: <the reader's reason>`.
        var summary: String {
            guard let error = firstError else {
                return "ok      \(path): \(verification.lines) lines, \(verification.actions) actions"
            }
            return "invalid \(path)\(error.line > 0 ? ":\(error.line)" : ""): \(error.message)"
        }
    }

    /// Creates a pull into `destination`, through a fresh folder inside it named `stagingName`.
    /// - Throws: ``CLIError`` when a value of the plan is refused (see ``DeviceCopyPlan``).
    init(
        device: String, bundle: String, source: String, destination: String, latestOnly: Bool, stagingName: String
    ) throws(CLIError) {
        plan = try DeviceCopyPlan(
            device: device, bundle: bundle, source: source, destination: destination + "/" + stagingName)
        self.destination = destination
        self.latestOnly = latestOnly
    }

    /// What a pull did: the session files it pulled and what it left out.
    struct Outcome: Equatable {
        /// The session files pulled, by name.
        var sessions: [PulledSession]
        /// The session files left out because they were not the latest (with ``DevicePull/latestOnly``).
        var olderSessionsLeftOut = 0
        /// The copied files left out because they are not session files (their names do not end in `.jsonl`).
        var otherFilesLeftOut = 0

        /// Whether every session file pulled is valid.
        var allValid: Bool { sessions.allSatisfy { $0.firstError == nil } }

        /// A line per session file, then a line for what was left out, if anything.
        var lines: [String] {
            var lines = sessions.map(\.summary)
            if olderSessionsLeftOut > 0 {
                lines.append("left out \(Self.files(olderSessionsLeftOut, "older session file")) (--latest)")
            }
            if otherFilesLeftOut > 0 {
                lines.append("left out \(Self.files(otherFilesLeftOut, "file")) not named *.jsonl")
            }
            return lines
        }

        /// `1 file`, `2 files`.
        private static func files(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
    }

    /// Copies with `tool`, moves the session files into the destination and verifies each.
    /// - Throws: ``CLIError`` when the copy fails or holds no session file, or a folder cannot be written.
    func run(with tool: some DeviceTool) throws(CLIError) -> Outcome {
        let files = FileManager.default
        do {
            try files.createDirectory(atPath: plan.destination, withIntermediateDirectories: true)
        } catch {
            throw CLIError(.output, "cannot create the folder '\(plan.destination)': \(error.localizedDescription)")
        }
        defer { try? files.removeItem(atPath: plan.destination) }
        let command = "xcrun " + plan.copyArguments.joined(separator: " ")
        guard let run = tool.run(plan.copyArguments) else {
            throw CLIError(.input, "cannot copy from the device: xcrun could not be started ('\(command)')")
        }
        guard run.succeeded else {
            let said = run.output.isEmpty ? "" : ": \(run.output)"
            throw CLIError(.input, "cannot copy from the device: '\(command)' failed\(said)")
        }
        let copied = Self.regularFiles(under: plan.destination)
        var sessions = copied.filter { $0.hasSuffix(".jsonl") }.sorted()
        guard !sessions.isEmpty else {
            throw CLIError(
                .input,
                "the copy of '\(plan.source)' from \(plan.bundle) on \(plan.device) holds no session file (.jsonl)")
        }
        var outcome = Outcome(sessions: [], otherFilesLeftOut: copied.count - sessions.count)
        if latestOnly, let latest = sessions.max(by: { (Self.modified($0), $0) < (Self.modified($1), $1) }) {
            outcome.olderSessionsLeftOut = sessions.count - 1
            sessions = [latest]
        }
        for copy in sessions {
            let path = destination + "/" + (copy as NSString).lastPathComponent
            do {
                if files.fileExists(atPath: path) { try files.removeItem(atPath: path) }
                try files.moveItem(atPath: copy, toPath: path)
            } catch {
                throw CLIError(.output, "cannot move the copied '\(copy)' to '\(path)': \(error.localizedDescription)")
            }
            outcome.sessions.append(PulledSession(path: path, verification: SessionVerifier.verify(path: path)))
        }
        return outcome
    }

    /// The regular files under `folder`, at any depth.
    private static func regularFiles(under folder: String) -> [String] {
        guard let walk = FileManager.default.enumerator(atPath: folder) else { return [] }
        return walk.compactMap { entry in
            guard let relative = entry as? String else { return nil }
            let path = folder + "/" + relative
            let type = try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType
            return type == .typeRegular ? path : nil
        }
    }

    /// When the file at `path` was last modified (the distant past when that cannot be read).
    private static func modified(_ path: String) -> Date {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        return attributes?[.modificationDate] as? Date ?? .distantPast
    }
}
