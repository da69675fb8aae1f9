import CommandLineOptions
import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// `replay-cli update`: accept the current reducers by re-recording a session's states.
///
/// Only the states that changed are rewritten: the header, the actions and times, and the snapshot layout (full
/// states and patches) stay as they were, and so does the file's mode. With no state changed the file is left
/// alone. The first original is never overwritten: a backup that exists already gets a numbered sibling.
///
/// A session recorded under another schema version than its store's is refused unless `--migrate`: then it is
/// written back migrated, its initial state and actions as the store's migration makes them, its states replayed and
/// its header's schema version the store's.
enum UpdateCommand: Command {
    /// `--no-backup`.
    static let noBackup = Flag("--no-backup", help: "do not keep the original as <session>.orig (or .orig.1, .orig.2 ...)")
    /// `--migrate`.
    static let migrate = Flag(
        "--migrate",
        help: "rewrite a session of an older schema version through its store's migration: actions, initial state and schema version too")

    static let command = CommandDescription(
        name: "replay-cli update",
        abstract: "Accept the current reducers: rewrite a session's recorded states with the replayed ones.",
        arguments: [ArgumentDeclaration("<session>", help: "the golden session to update")],
        options: [noBackup.declaration, migrate.declaration] + SharedOptions.replaying)

    /// At most this many changed steps are named in the text output.
    static let stepsNamed = 10

    static func run(_ parsed: ParsedCommandLine, _ context: CommandContext) throws(CLIError) -> Int32 {
        guard parsed.positionals[0] != "-" else {
            throw CLIError("update takes one session file (not standard input: it rewrites the file)", usage: command.usage)
        }
        let session = try SessionInput(parsed.positionals[0])
        let original = try session.readWhole()
        let hostOptions = try HostOptions.resolve(parsed, context: context)
        let identity = try hostOptions.bringUpToDate(context.terminal)
        let answer = try HostClient(host: hostOptions.host, timeout: hostOptions.timeout)
            .run(
                ReplayHostRequest(command: .rerecord, migrating: parsed.isSet(migrate)), sessionPath: session.path, displayName: session.displayName)
        if let failure = answer.result.failure { throw CLIError(.input, "\(session.displayName): \(failure)") }
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
        let migratedFrom = original.header.app.schemaVersion != updated.header.app.schemaVersion
            ? original.header.app.schemaVersion : nil
        let changed = !changedSteps.isEmpty || original.header != updated.header
        var backup: String?
        if changed {
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
                    "updated": .bool(changed), "backup": backup.map(JSONValue.string) ?? .null,
                    "migratedFrom": migratedFrom.map(JSONValue.string) ?? .null,
                    "schemaVersion": .string(updated.header.app.schemaVersion),
                    "host": identity.jsonValue,
                ]).prettyString())
        } else if !changed {
            context.terminal.out(
                "\(session.path) is already up to date: all \(updated.actions.count) recorded states equal the replayed ones; "
                    + "the file is left as it was")
            context.terminal.out(identity.summary)
        } else {
            let kept = backup.map { " (the original is kept as \($0))" } ?? ""
            let migration = migratedFrom.map {
                "migrated from schema '\($0)' to '\(updated.header.app.schemaVersion)' (initial state, actions and states); "
            } ?? ""
            let steps = changedSteps.isEmpty ? "no step changed" : "\(changedSteps.count) of \(updated.actions.count) steps changed, at \(describe(changedSteps))"
            context.terminal.out(
                migratedFrom == nil
                    ? "updated \(session.path): \(changedSteps.count) of \(updated.actions.count) recorded states replaced by the "
                        + "current reducers' ones, at \(describe(changedSteps))\(kept)"
                    : "updated \(session.path): \(migration)\(steps)\(kept)")
            context.terminal.out(identity.summary)
        }
        return 0
    }

    /// The steps whose state (or, after a migration, action) differs between the file and the re-recorded session,
    /// which must hold the same steps under the same header (but for a migration's schema version and initial state).
    private static func changedSteps(from original: Session, to updated: Session, session: SessionInput) throws(CLIError) -> [Int] {
        let before = original.actions
        let after = updated.actions
        var comparableHeader = updated.header
        comparableHeader.app.schemaVersion = original.header.app.schemaVersion
        comparableHeader.initialState = original.header.initialState
        let migrated = original.header.app.schemaVersion != updated.header.app.schemaVersion
        guard before.map(\.sequence) == after.map(\.sequence),
            original.header == (migrated ? comparableHeader : updated.header)
        else {
            throw CLIError(.host, 
"the replay host sent back a session with other steps or another header than \(session.displayName); nothing was changed")
        }
        return zip(before, after).filter { $0.0.state != $0.1.state || $0.0.action != $0.1.action }.map(\.1.sequence)
    }

    /// `step 5`, `steps 5, 6 and 9`, or the first ``stepsNamed`` and how many more.
    private static func describe(_ steps: [Int]) -> String {
        guard steps.count > 1 else { return "step \(steps[0])" }
        let named = steps.prefix(stepsNamed).map(String.init)
        if steps.count > stepsNamed { return "steps \(named.joined(separator: ", ")) and \(steps.count - stepsNamed) more" }
        return "steps \(named.dropLast().joined(separator: ", ")) and \(named.last ?? "")"
    }
}
