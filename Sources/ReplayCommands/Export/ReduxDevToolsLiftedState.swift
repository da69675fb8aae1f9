import Foundation
import StoreKitCore
import StoreKitJSON

/// A session as Redux DevTools' lifted state: the document its extension and standalone app import
/// (Import in the inspector's toolbar), holding every action and the state after each.
///
/// Entry 0 is DevTools' own `@@INIT` with the session's initial state; each recorded action follows as a
/// `PERFORM_ACTION` entry whose `action.type` is the action's name as `log` shows it, with the action's own JSON
/// spread beside it (or under `payload` when it is not an object or has a `type` member of its own), and whose
/// computed state is the recorded state after it. A gap becomes one synthetic `@@GAP` entry saying which steps
/// were lost and why, or, for a gap that kept its actions, which it kept and the actions themselves, with the state
/// unchanged: DevTools shows what was recorded and never an invented state.
/// Timestamps are milliseconds since 1970: the session's start plus each action's recorded time.
struct ReduxDevToolsLiftedState {
    /// One entry of the timeline: the action DevTools shows and the state after it.
    struct Entry {
        /// The action object (`{"type": ..., ...}`).
        var action: JSONValue
        /// Whole milliseconds since 1970.
        var timestamp: Int64
        /// The state after the action.
        var state: JSONValue
        /// The session's step (0 for `@@INIT`), `nil` for `@@GAP`.
        var step: Int?
    }

    /// DevTools' type of its first entry.
    static let initType = "@@INIT"
    /// The type of the entry standing for a gap.
    static let gapType = "@@GAP"

    /// The entries, `@@INIT` first.
    let entries: [Entry]
    /// The session's initial state (DevTools' `committedState`).
    let initialState: JSONValue

    /// The session's timeline as entries.
    init(_ session: Session) {
        let start = Self.milliseconds(since1970: session.header.startedAt)
        var entries = [Entry(action: .object(["type": .string(Self.initType)]), timestamp: Self.timestamp(start, plus: 0), state: session.header.initialState, step: 0)]
        var state = session.header.initialState
        var lastTime = 0.0
        for event in session.events {
            switch event {
            case .action(let action):
                state = action.state
                lastTime = action.time
                entries.append(
                    Entry(action: Self.action(named: action.name, action.action), timestamp: Self.timestamp(start, plus: action.time), state: state, step: action.sequence))
            case .gap(let gap):
                var members: [String: JSONValue] = [
                    "type": .string(Self.gapType), "firstStep": .integer(Int64(gap.firstSequence)),
                    "lastStep": .integer(Int64(gap.lastSequence)), "reason": .string(gap.reason.rawValue),
                ]
                if gap.keepsActions {
                    // The actions are the session's, their states are not: they stay in the gap's one entry.
                    members["kept"] = .integer(Int64(gap.count))
                    members["actions"] = .array(gap.actions.map { Self.action(named: $0.name, $0.action) })
                } else {
                    members["lost"] = .integer(Int64(gap.count))
                }
                if let message = gap.message { members["message"] = .string(message) }
                entries.append(Entry(action: .object(members), timestamp: Self.timestamp(start, plus: lastTime), state: state, step: nil))
            case .header, .end, .call, .effectEnd, .note:
                continue
            }
        }
        self.entries = entries
        initialState = session.header.initialState
    }

    /// The lifted state document: `actionsById`, `computedStates`, `stagedActionIds`, `skippedActionIds`,
    /// `currentStateIndex`, `nextActionId`, `committedState`, `monitorState`, `isLocked`, `isPaused`.
    var jsonValue: JSONValue {
        var actionsByID: [String: JSONValue] = [:]
        for (id, entry) in entries.enumerated() {
            actionsByID[String(id)] = .object([
                "type": .string("PERFORM_ACTION"), "action": entry.action, "timestamp": .integer(entry.timestamp),
            ])
        }
        return .object([
            "actionsById": .object(actionsByID),
            "computedStates": .array(entries.map { .object(["state": $0.state]) }),
            "stagedActionIds": .array(entries.indices.map { .integer(Int64($0)) }),
            "skippedActionIds": .array([]),
            "currentStateIndex": .integer(Int64(entries.count - 1)),
            "nextActionId": .integer(Int64(entries.count)),
            "committedState": initialState,
            "monitorState": .object([:]),
            "isLocked": .bool(false),
            "isPaused": .bool(false),
        ])
    }

    /// The number of `@@GAP` entries.
    var gaps: Int { entries.count { $0.step == nil } }

    /// `{"type": name, ...members}` for an object action without a `type` of its own, else `{"type": name, "payload": action}`.
    private static func action(named name: String, _ action: JSONValue) -> JSONValue {
        guard case .object(var members) = action, members["type"] == nil else {
            return .object(["type": .string(name), "payload": action])
        }
        members["type"] = .string(name)
        return .object(members)
    }

    /// `seconds` after `start`, in whole milliseconds.
    private static func timestamp(_ start: Double, plus seconds: Double) -> Int64 {
        Int64((start + seconds * 1000).rounded())
    }

    /// The start as milliseconds since 1970, or 0 when it is not an ISO 8601 date (then timestamps count from the
    /// session's start).
    private static func milliseconds(since1970 startedAt: String) -> Double {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: startedAt) { return date.timeIntervalSince1970 * 1000 }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: startedAt).map { $0.timeIntervalSince1970 * 1000 } ?? 0
    }
}
