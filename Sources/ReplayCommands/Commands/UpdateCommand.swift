import CommandLineOptions
import Foundation
import StoreKitCore
import StoreKitReplay

/// `replay-cli update`: accept the current reducers by re-recording a session's states.
///
/// Only the states that changed are rewritten: the header, the actions and times, and the snapshot layout (full
/// states and patches) stay as they were, and so does the file's mode. With no state changed the file is left
/// alone. The first original is never overwritten: a backup that exists already gets a numbered sibling.
enum UpdateCommand: Command {
    /// `--no-backup`.
    static let noBackup = Flag("--no-backup", help: "do not keep the original as <session>.orig (or .orig.1, .orig.2 ...)")

    static let command = CommandDescription(
        name: "replay-cli update",
        abstract: "Accept the current reducers: rewrite a session's recorded states with the replayed ones.",
        arguments: [ArgumentDeclaration("<session>", help: "the golden session to update")],
        options: [noBackup.declaration] + SharedOptions.replaying)

    /// At most this many changed steps are named in the text output.
    static let stepsNamed = 10

    static func run(_ parsed: ParsedCommandLine, _ context: CommandContext) throws(CLIError) -> Int32 {
        guard parsed.positionals[0] != "-" else {
            throw CLIError("update takes one session file (not standard input: it rewrites the file)", usage: command.usage)
        }
        let session = try SessionInput(parsed.positionals[0])
        let original: Session
        do {
            original = try Session(contentsOf: session.path)
        } catch {
            throw CLIError(error, in: session)
        }
        let hostOptions = try HostOptions.resolve(parsed, context: context)
        let identity = try hostOptions.bringUpToDate(context.terminal)
        let answer = try HostClient(host: hostOptions.host, timeout: hostOptions.timeout)
            .run(ReplayHostRequest(command: .rerecord), sessionPath: session.path, displayName: session.displayName)
        if let failure = answer.result["failure"]?.stringValue { throw CLIError(.host, "\(session.displayName): \(failure)") }
        var bytes: [UInt8] = []
        for line in answer.lines {
            line.writeCanonical(to: &bytes)
            bytes.append(0x0A)
        }
        // Check what the host sent before replacing anything.
        let updated: Session
        do {
            updated = try Session(ndjson: bytes, source: "the host's re-recorded session")
        } catch {
            throw CLIError(.host, "the replay host sent back an invalid session: \(error)")
        }
        let changedSteps = try changedSteps(from: original, to: updated, session: session)
        var backup: String?
        if !changedSteps.isEmpty {
            let file = SessionFileRewrite(path: session.path)
            if !parsed.isSet(noBackup) { backup = try file.keepBackup() }
            try file.replace(with: bytes)
        }
        if parsed.isSet(SharedOptions.json) {
            context.terminal.out(
                JSONValue.object([
                    "session": .string(session.path), "actions": .integer(Int64(updated.actions.count)),
                    "changed": .integer(Int64(changedSteps.count)),
                    "changedSteps": .array(changedSteps.map { .integer(Int64($0)) }),
                    "updated": .bool(!changedSteps.isEmpty), "backup": backup.map(JSONValue.string) ?? .null,
                    "host": identity.jsonValue,
                ]).prettyString())
        } else if changedSteps.isEmpty {
            context.terminal.out(
                "\(session.path) is already up to date: all \(updated.actions.count) recorded states equal the replayed ones; "
                    + "the file is left as it was")
            context.terminal.out(identity.summary)
        } else {
            let kept = backup.map { " (the original is kept as \($0))" } ?? ""
            context.terminal.out(
                "updated \(session.path): \(changedSteps.count) of \(updated.actions.count) recorded states replaced by the "
                    + "current reducers' ones, at \(describe(changedSteps))\(kept)")
            context.terminal.out(identity.summary)
        }
        return 0
    }

    /// The steps whose state differs between the file and the re-recorded session, which must hold the same actions.
    private static func changedSteps(from original: Session, to updated: Session, session: SessionInput) throws(CLIError) -> [Int] {
        let before = original.actions
        let after = updated.actions
        guard before.map(\.sequence) == after.map(\.sequence), original.header == updated.header else {
            throw CLIError(.host, 
"the replay host sent back a session with other steps or another header than \(session.displayName); nothing was changed")
        }
        return zip(before, after).filter { $0.0.state != $0.1.state }.map(\.1.sequence)
    }

    /// `step 5`, `steps 5, 6 and 9`, or the first ``stepsNamed`` and how many more.
    private static func describe(_ steps: [Int]) -> String {
        guard steps.count > 1 else { return "step \(steps[0])" }
        let named = steps.prefix(stepsNamed).map(String.init)
        if steps.count > stepsNamed { return "steps \(named.joined(separator: ", ")) and \(steps.count - stepsNamed) more" }
        return "steps \(named.dropLast().joined(separator: ", ")) and \(named.last ?? "")"
    }
}
