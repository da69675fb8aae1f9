import Foundation
import RehearsalFeatures
import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// What the rehearsal planner's tests share: its goldens, a reader of recorded action cases, fixed ids and dates.
enum RehearsalFixtures {
    static let journey = SampleSessions.path("rehearsals-journey.jsonl")
    static let week = SampleSessions.path("rehearsals-week.jsonl")

    /// Every action case of the app, as `Enum.case`: 47 cases in nine action enums.
    static let everyActionCase: Set<String> = [
        "RehearsalApp.Action.setlists", "RehearsalApp.Action.path",
        "StackAction.element", "StackAction.popFrom",
        "Path.Action.detail", "Path.Action.rehearsal", "Path.Action.record",
        "SetlistsList.Action.addButtonTapped", "SetlistsList.Action.addForm", "SetlistsList.Action.confirmAddTapped",
        "SetlistsList.Action.dismissAddTapped", "SetlistsList.Action.setlistTapped",
        "SetlistsList.Action.deleteSetlist", "SetlistsList.Action.moveSetlist",
        "SetlistForm.Action.setName", "SetlistForm.Action.setGigDate", "SetlistForm.Action.addSongTapped",
        "SetlistForm.Action.setSongTitle", "SetlistForm.Action.setSongLength", "SetlistForm.Action.setSongKey",
        "SetlistForm.Action.removeSong", "SetlistForm.Action.moveSong", "SetlistForm.Action.shuffleSongs",
        "SetlistForm.Action.focusChanged",
        "SetlistDetail.Action.editTapped", "SetlistDetail.Action.doneEditingTapped",
        "SetlistDetail.Action.cancelEditingTapped", "SetlistDetail.Action.deleteSetlistTapped",
        "SetlistDetail.Action.destination", "SetlistDetail.Action.startRehearsalTapped",
        "SetlistDetail.Action.pastRehearsalTapped", "SetlistDetail.Action.deleteRehearsal",
        "Destination.Action.edit", "Destination.Action.deletionConfirmed", "Destination.Action.deletionCancelled",
        "Rehearsal.Action.startTapped", "Rehearsal.Action.timerTick", "Rehearsal.Action.pauseTapped",
        "Rehearsal.Action.resumeTapped", "Rehearsal.Action.nextSongTapped", "Rehearsal.Action.previousSongTapped",
        "Rehearsal.Action.notesChanged", "Rehearsal.Action.endTapped", "Rehearsal.Action.discardTapped",
        "RehearsalRecord.Action.notesChanged", "RehearsalRecord.Action.ratingChanged",
        "RehearsalRecord.Action.deleteTapped",
    ]

    /// Which enum a wrapping case's payload belongs to, and under which payload member it sits.
    private static let wrappedEnums: [String: (member: String, enumName: String)] = [
        "RehearsalApp.Action.setlists": ("_0", "SetlistsList.Action"),
        "RehearsalApp.Action.path": ("_0", "StackAction"),
        "StackAction.element": ("action", "Path.Action"),
        "Path.Action.detail": ("_0", "SetlistDetail.Action"),
        "Path.Action.rehearsal": ("_0", "Rehearsal.Action"),
        "Path.Action.record": ("_0", "RehearsalRecord.Action"),
        "SetlistsList.Action.addForm": ("_0", "SetlistForm.Action"),
        "SetlistDetail.Action.destination": ("_0", "Destination.Action"),
        "Destination.Action.edit": ("_0", "SetlistForm.Action"),
    ]

    /// The cases a recorded action is made of, outermost first: `RehearsalApp.Action.path`, `StackAction.element`,
    /// `Path.Action.rehearsal`, `Rehearsal.Action.timerTick` for a tick. Empty for JSON that is not an enum case.
    static func cases(of action: JSONValue, in enumName: String = "RehearsalApp.Action") -> [String] {
        guard let members = action.objectValue, members.count == 1, let (name, payload) = members.first else {
            return []
        }
        let qualified = "\(enumName).\(name)"
        guard let wrapped = wrappedEnums[qualified], let inner = payload[wrapped.member] else { return [qualified] }
        return [qualified] + cases(of: inner, in: wrapped.enumName)
    }

    /// The recorded state after each action, typed.
    static func states(of session: Session) throws -> [RehearsalApp.State] {
        let decoder = JSONValueDecoder()
        return try session.actions.map { try decoder.decode(RehearsalApp.State.self, from: $0.state) }
    }

    /// The rehearsal on top of the stack, if one is.
    static func topRehearsal(_ state: RehearsalApp.State) -> Rehearsal.State? {
        guard case .rehearsal(let rehearsal)? = state.path.elements.last else { return nil }
        return rehearsal
    }

    /// A fixed id: the same `n` gives the same id.
    static func id<Entity>(_ n: Int) -> EntityID<Entity> {
        EntityID(UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", n))!)
    }

    /// A fixed date: Monday 2 November 2026, 18:00 UTC, plus `seconds`.
    static func date(_ seconds: Double = 0) -> Date {
        Date(timeIntervalSince1970: 1_793_642_400 + seconds)
    }

    /// A setlist of songs `Song 1` … `Song n`, each `seconds` long.
    static func setlist(_ n: Int, songs count: Int, seconds: Int64 = 3) -> Setlist {
        Setlist(
            id: id(n), name: "Setlist \(n)",
            songs: (0..<count).map { Song(id: id(100 * n + $0), title: "Song \($0 + 1)", length: .seconds(seconds)) })
    }

    /// Returns whether `condition` became true within `timeout`, waiting on it without a fixed sleep: the body
    /// awaits the condition, and a timer task only bounds how long a broken build can hang the test.
    static func within(_ timeout: Duration = .seconds(60), _ condition: @escaping @Sendable () async -> Void) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await condition()
                return true
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }
}
