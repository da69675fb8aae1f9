import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// What `stats` counts in a session: actions by name and origin, each replayable effect's lines, duration, gaps and
/// sizes.
struct SessionStats {
    /// What one effect's lines add up to.
    struct EffectCounts {
        /// Its call lines (the inputs its runs took).
        var calls = 0
        /// Its `effectEnd` lines (the runs that ended having called or sent).
        var ends = 0
        /// The actions it sent (action lines naming it).
        var actions = 0
    }

    /// How the session is named.
    var session: String
    /// Its header, once read.
    var header: SessionHeader?
    /// The actions.
    var actions = 0
    /// The actions effects dispatched.
    var fromEffects = 0
    /// The actions whose state is stored as a patch.
    var patches = 0
    /// How many actions of each name.
    var names: [String: Int] = [:]
    /// Per effect named by a call, an effect end or an action: what its lines add up to.
    var effects: [String: EffectCounts] = [:]
    /// Seconds from the start to the last action or the end line.
    var duration = 0.0
    /// The gaps.
    var gaps = 0
    /// The actions lost in them.
    var dropped = 0
    /// The actions gaps keep without their states.
    var keptWithoutStates = 0
    /// The end line, when the session has one.
    var end: EndEvent?
    /// The file's size.
    var bytes = 0

    /// Counts `event`.
    mutating func count(_ event: SessionEvent) {
        switch event {
        case .header(let found): header = found
        case .action(let action):
            countAction(action)
            if action.patch != nil { patches += 1 }
        case .gap(let gap):
            gaps += 1
            if gap.keepsActions { keptWithoutStates += gap.count } else { dropped += gap.count }
            for kept in gap.actions { countAction(kept) }
        case .end(let found):
            end = found
            duration = max(duration, found.time)
        case .call(let call):
            effects[call.effect, default: EffectCounts()].calls += 1
        case .effectEnd(let ended):
            effects[ended.effect, default: EffectCounts()].ends += 1
        case .note:
            break
        }
    }

    /// Counts an action: of an action line, or one a gap keeps.
    private mutating func countAction(_ action: ActionEvent) {
        actions += 1
        names[action.name, default: 0] += 1
        if case .effect = action.origin { fromEffects += 1 }
        if let effect = action.effect { effects[effect, default: EffectCounts()].actions += 1 }
        duration = max(duration, action.time)
    }

    /// How the session ended, or that it has no end line.
    var status: String { end?.reason.rawValue ?? "no end line (still recording, or cut off)" }
}

extension SessionStats: CommandOutput {
    var jsonValue: JSONValue {
        var fields: [String: JSONValue] = [
            "session": .string(session), "storeId": .string(header?.storeID ?? ""),
            "actions": .integer(Int64(actions)), "fromEffects": .integer(Int64(fromEffects)),
            "byName": .object(names.mapValues { .integer(Int64($0)) }), "durationSeconds": .double(duration),
            "gaps": .integer(Int64(gaps)), "dropped": .integer(Int64(dropped)), "bytes": .integer(Int64(bytes)),
            "patchLines": .integer(Int64(patches)), "status": .string(status),
            "keptWithoutStates": .integer(Int64(keptWithoutStates)),
        ]
        if !effects.isEmpty {
            fields["effects"] = .object(
                effects.mapValues { counts in
                    .object([
                        "calls": .integer(Int64(counts.calls)), "ends": .integer(Int64(counts.ends)),
                        "actions": .integer(Int64(counts.actions)),
                    ])
                })
        }
        return .object(fields)
    }

    /// A label and value per line, then the actions by name, most frequent first; then, for a session with effect
    /// lines, each effect's calls, ended runs and actions, by name.
    func writeText(to terminal: Terminal) {
        let app = header?.app
        let recordedBy = "\(app?.name ?? "") \(app?.version ?? "") build \(app?.build ?? "") on \(header?.startedAt ?? "")"
        let rows: [(String, String)] = [
            ("session", "\(session) (\((header?.sessionID ?? "").escapingControls()))"),
            ("store", (header?.storeID ?? "").escapingControls()),
            ("recorded by", recordedBy.escapingControls()),
            ("actions", "\(actions) (\(actions - fromEffects) from the app, \(fromEffects) from effects)"),
            ("duration", String(format: "%.3f s", duration)),
            ("gaps", "\(gaps) (\(dropped) actions lost\(keptWithoutStates > 0 ? ", \(keptWithoutStates) kept without their states" : ""))"),
            ("size", "\(bytes) bytes, \(actions > 0 ? bytes / actions : 0) per action, \(patches) stored as patches"),
            ("status", status),
        ]
        for (label, value) in rows { terminal.out(label.padding(toLength: 13, withPad: " ", startingAt: 0) + value) }
        terminal.out("by action:")
        for (name, count) in names.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) {
            terminal.out("  " + String(count).leftPadded(6) + "  " + name.escapingControls())
        }
        for row in effectRows { terminal.out(row) }
    }
}

extension SessionStats {
    /// `by effect:` and a row per effect, by name: its call lines, ended runs and actions sent; nothing without
    /// effect lines.
    var effectRows: [String] {
        guard !effects.isEmpty else { return [] }
        return ["by effect (calls, runs ended, actions sent):"]
            + effects.sorted { $0.key < $1.key }.map { name, counts in
                "  " + String(counts.calls).leftPadded(6) + String(counts.ends).leftPadded(7) + String(counts.actions).leftPadded(9)
                    + "  " + name.escapingControls()
            }
    }
}
