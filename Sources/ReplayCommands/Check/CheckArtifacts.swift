import Foundation
import StoreKitCore
import StoreKitReplay

/// `check --artifacts DIR`: for each failing session, the session as the current reducers replay it
/// (`<name>.replayed.jsonl`, re-recorded as `update` would write it, the original untouched) and its HTML report
/// (`<name>.html`), kept in one folder for CI to upload.
struct CheckArtifacts {
    /// What was kept for one session.
    struct Kept {
        /// The files written.
        var paths: [String] = []
        /// Why a file could not be written.
        var problems: [String] = []
    }

    /// The folder.
    let directory: String
    /// Each session's base name in the folder, unique among the sessions checked.
    private let names: [String: String]

    /// Prepares `directory` (created when missing) for the sessions at `sessions`.
    /// - Throws: ``CLIError`` when the folder cannot be created.
    init(directory: String, sessions: [String]) throws(CLIError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw CLIError(.output, "cannot create the artifacts folder '\(directory)': \(error.localizedDescription)")
        }
        var names: [String: String] = [:]
        var taken: Set<String> = []
        for session in sessions {
            let base = URL(fileURLWithPath: session).deletingPathExtension().lastPathComponent
            var name = base
            var number = 1
            while taken.contains(name) {
                number += 1
                name = "\(base)-\(number)"
            }
            taken.insert(name)
            names[session] = name
        }
        self.directory = directory
        self.names = names
    }

    /// Writes the replayed session and the HTML report of the session at `path`, with `report` marked in it (`nil`
    /// when the replay gave none, as when the host crashed).
    func keep(_ path: String, report: ReplayReport?, client: ReplayHostClient) -> Kept {
        var kept = Kept()
        // Named as the folder was given (relative stays relative), as the summary and the log show them.
        let base = (directory.hasSuffix("/") ? directory : directory + "/") + (names[path] ?? "session")
        let session: Session
        do {
            session = try Session(contentsOf: path)
        } catch {
            kept.problems.append("no artifacts: \(error)")
            return kept
        }
        do throws(CLIError) {
            let answer = try client.answer(ReplayHostRequest(command: .rerecord, migrating: true), session: SessionInput(file: path))
            if let failure = answer.result.failure { throw CLIError(.host, failure) }
            try write(answer.sessionBytes, to: base + ".replayed.jsonl", kept: &kept)
        } catch {
            kept.problems.append("no replayed session: \(error.description)")
        }
        do throws(CLIError) {
            try write(Array(HTMLReport.render(session: session, report: report, source: path).utf8), to: base + ".html", kept: &kept)
        } catch {
            kept.problems.append(error.description)
        }
        return kept
    }

    private func write(_ bytes: [UInt8], to path: String, kept: inout Kept) throws(CLIError) {
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        } catch {
            throw CLIError(.output, "cannot write '\(path)': \(error.localizedDescription)")
        }
        kept.paths.append(path)
    }
}
