import Foundation
import StoreKitCore

/// The band's rehearsal planner: the setlists list at the root and a navigation stack of setlist details, running
/// rehearsals and past rehearsals on top.
///
/// The app's reducer runs each screen's reducer and then does what crosses screens: pushing a detail, a rehearsal
/// or a past rehearsal, saving an ended rehearsal into its setlist, deleting, popping, and keeping every copy of a
/// setlist (the list's and each detail's) the same. Ids and dates arrive in actions, so replay is deterministic.
public enum RehearsalApp {
    /// The id sessions of this app carry.
    public static let storeID = "rehearsals"

    /// The app's state.
    public struct State: Codable, Equatable, Sendable {
        /// The root screen.
        public var setlists = SetlistsList.State()
        /// The screens pushed on top of it.
        public var path = StackState<Path.State>()

        /// Creates the app at its root with no setlists.
        public init() {}
    }

    /// Everything that happens in the app.
    public enum Action: Codable, Equatable, Sendable {
        /// An action of the setlists list.
        case setlists(SetlistsList.Action)
        /// An action on the navigation stack.
        case path(StackAction<Path.Action>)
    }

    /// The app's reducer.
    public static let reducer = reducer(rehearsal: Rehearsal.reducer)

    /// The app's reducer with the given rehearsal reducer in place of ``Rehearsal/reducer`` (for a replay host that
    /// shows a regression, or a test).
    public static func reducer(rehearsal: Reducer<Rehearsal.State, Rehearsal.Action>) -> Reducer<State, Action> {
        let path = Path.reducer(rehearsal: rehearsal)
        return Reducer { state, action in
            switch action {
            case .setlists(let listAction):
                SetlistsList.reducer.reduce(&state.setlists, listAction)
                if case .setlistTapped(let id) = listAction, let setlist = state.setlists.setlists[id: id] {
                    state.path.push(.detail(SetlistDetail.State(setlist: setlist)))
                }
            case .path(.popFrom(let id)):
                state.path.pop(from: id)
            case .path(.element(let id, let elementAction)):
                guard var element = state.path[id: id] else { return }
                path.reduce(&element, elementAction)
                state.path[id: id] = element
                state.navigate(after: elementAction, of: element, at: id)
            }
        }
    }
}

extension RehearsalApp.State {
    /// What a screen's action does beyond the screen: pushes, pops, saves and deletes.
    fileprivate mutating func navigate(
        after action: RehearsalApp.Path.Action, of element: RehearsalApp.Path.State, at id: StackElementID
    ) {
        switch (element, action) {
        case (.detail(let detail), .detail(let detailAction)):
            updateSetlist(detail.setlist.id) { $0 = detail.setlist }
            switch detailAction {
            case .startRehearsalTapped(let rehearsalID, let startedAt) where !detail.setlist.songs.isEmpty:
                path.push(.rehearsal(Rehearsal.State(id: rehearsalID, setlist: detail.setlist, startedAt: startedAt)))
            case .pastRehearsalTapped(let rehearsalID):
                guard let rehearsal = detail.setlist.rehearsals[id: rehearsalID] else { return }
                path.push(.record(RehearsalRecord.State(setlistID: detail.setlist.id, rehearsal: rehearsal)))
            case .destination(.deletionConfirmed):
                setlists.setlists[id: detail.setlist.id] = nil
                path.pop(from: id)
            default:
                break
            }
        case (.rehearsal(let rehearsal), .rehearsal(.endTapped)):
            updateSetlist(rehearsal.setlist.id) { $0.rehearsals.insert(rehearsal.record, at: 0) }
            path.pop(from: id)
        case (.rehearsal, .rehearsal(.discardTapped)):
            path.pop(from: id)
        case (.record(let record), .record(.deleteTapped)):
            updateSetlist(record.setlistID) { $0.rehearsals[id: record.rehearsal.id] = nil }
            path.pop(from: id)
        case (.record(let record), .record):
            updateSetlist(record.setlistID) { $0.rehearsals[id: record.rehearsal.id] = record.rehearsal }
        default:
            break
        }
    }

    /// Changes the setlist with `id` in the list and in every detail on the stack that shows it.
    private mutating func updateSetlist(_ id: Setlist.ID, _ change: (inout Setlist) -> Void) {
        guard var setlist = setlists.setlists[id: id] else { return }
        change(&setlist)
        setlists.setlists[id: id] = setlist
        path.updateEach { element in
            if case .detail(var detail) = element, detail.setlist.id == id {
                detail.setlist = setlist
                element = .detail(detail)
            }
        }
    }
}
