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
///
/// Effect runs are not re-recorded: what an effect took from the outside world cannot be replayed into new inputs.
/// A session with replayable effects is checked again once its states are written, and runs that still diverge are
/// named, with exit status 1, so that an effect's change is never taken for an accepted one.
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

    static func run(_ parsed: ParsedCommandLine, _ context: CommandContext) throws(CLIError) -> ExitStatus {
        guard parsed.positionals[0] != "-" else {
            throw CLIError("update takes one session file (not standard input: it rewrites the file)", usage: command.usage)
        }
        let session = try SessionInput(parsed.positionals[0])
        let original = try session.readWhole()
        let hostOptions = try HostOptions.resolve(parsed, context: context)
        let identity = try hostOptions.bringUpToDate(context.terminal)
        let answer = try hostOptions.client.answer(ReplayHostRequest(command: .rerecord, migrating: parsed.isSet(migrate)), session: session)
        if let failure = answer.result.failure { throw CLIError(.input, "\(session.displayName): \(failure)") }
        let bytes = answer.sessionBytes
        // Check what the host sent before replacing anything.
        let updated: Session
        do {
            updated = try Session(ndjson: bytes, source: "the host's re-recorded session")
        } catch {
            throw CLIError(.host, "the replay host sent back an invalid session: \(error)")
        }
        var result = UpdateResult(
            session: session.path, actions: updated.actions.count,
            changedSteps: try changedSteps(from: original, to: updated, session: session),
            changed: false, backup: nil,
            migratedFrom: original.header.app.schemaVersion != updated.header.app.schemaVersion ? original.header.app.schemaVersion : nil,
            schemaVersion: updated.header.app.schemaVersion, host: identity)
        result.changed = !result.changedSteps.isEmpty || original.header != updated.header
        if result.changed {
            let file = SessionFileRewrite(path: session.path)
            if !parsed.isSet(noBackup) { result.backup = try file.keepBackup() }
            try file.replace(with: bytes)
        }
        if !updated.header.effects.isEmpty {
            let outcome = try hostOptions.client.check(session, ReplayHostClient.Checking(), progressOn: context.terminal)
            result.effectDivergences = outcome.report.effectDivergences
        }
        context.terminal.present(result, json: parsed.isSet(SharedOptions.json))
        return result.effectDivergences.isEmpty ? .ok : .different
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
}
