import StoreKitJSON
import StoreKitReplay

/// What `update` did to a session: which steps the current reducers changed, whether the file was rewritten, and
/// where the original was kept.
struct UpdateResult {
    /// At most this many changed steps are named in the text output.
    static let stepsNamed = 10

    /// The session file's path.
    var session: String
    /// How many actions the session has.
    var actions: Int
    /// The steps whose state (or, after a migration, action) the current reducers changed.
    var changedSteps: [Int]
    /// Whether the file was rewritten.
    var changed: Bool
    /// Where the original was kept, when it was.
    var backup: String?
    /// The schema version the session was migrated from, when it was.
    var migratedFrom: String?
    /// The session's schema version now.
    var schemaVersion: String
    /// What replayed it.
    var host: HostIdentity
    /// The effect runs that still diverge from the recording once the states are written: `update` does not
    /// re-record them.
    var effectDivergences: [EffectDivergence] = []
}

extension UpdateResult: CommandOutput {
    var jsonValue: JSONValue {
        .object([
            "session": .string(session), "actions": .integer(Int64(actions)),
            "changed": .integer(Int64(changedSteps.count)),
            "changedSteps": .array(changedSteps.map { .integer(Int64($0)) }),
            "updated": .bool(changed), "backup": backup.map(JSONValue.string) ?? .null,
            "migratedFrom": migratedFrom.map(JSONValue.string) ?? .null,
            "schemaVersion": .string(schemaVersion),
            "effectsDiverging": .integer(Int64(effectDivergences.count)),
            "firstEffectDivergence": effectDivergences.first.map { .string($0.summary) } ?? .null,
            "host": host.jsonValue,
        ])
    }

    func writeText(to terminal: Terminal) {
        if !changed && !effectDivergences.isEmpty {
            terminal.out(
                "\(session): its recorded states are up to date (all \(actions) equal the replayed ones) and the file "
                    + "is left as it was, \(effectsStillDiverging)")
        } else if !changed {
            terminal.out(
                "\(session) is already up to date: all \(actions) recorded states equal the replayed ones; "
                    + "the file is left as it was")
        } else {
            let kept = backup.map { " (the original is kept as \($0))" } ?? ""
            let migration = migratedFrom.map {
                "migrated from schema '\($0)' to '\(schemaVersion)' (initial state, actions and states); "
            } ?? ""
            let steps = changedSteps.isEmpty ? "no step changed" : "\(changedSteps.count) of \(actions) steps changed, at \(Self.describe(changedSteps))"
            terminal.out(
                migratedFrom == nil
                    ? "updated \(session): \(changedSteps.count) of \(actions) recorded states replaced by the "
                        + "current reducers' ones, at \(Self.describe(changedSteps))\(kept)"
                    : "updated \(session): \(migration)\(steps)\(kept)")
        }
        if changed && !effectDivergences.isEmpty { terminal.out(effectsStillDiverging) }
        terminal.out(host.summary)
    }

    /// What the text says of ``effectDivergences``, when there are any.
    private var effectsStillDiverging: String {
        let runs = effectDivergences.count == 1 ? "1 effect run" : "\(effectDivergences.count) effect runs"
        return "but \(runs) still \(effectDivergences.count == 1 ? "diverges" : "diverge") from the recording, the "
            + "first at \(effectDivergences.first?.summary ?? ""); update rewrites recorded states only: record the "
            + "session again to accept an effect's change"
    }

    /// `step 5`, `steps 5, 6 and 9`, or the first ``stepsNamed`` and how many more.
    private static func describe(_ steps: [Int]) -> String {
        guard steps.count > 1 else { return "step \(steps[0])" }
        let named = steps.prefix(stepsNamed).map(String.init)
        if steps.count > stepsNamed { return "steps \(named.joined(separator: ", ")) and \(steps.count - stepsNamed) more" }
        return "steps \(named.dropLast().joined(separator: ", ")) and \(named.last ?? "")"
    }
}
