import Foundation
import StoreKitCore

/// The app's first screen: every setlist, with a sheet that adds a new one.
public enum SetlistsList {
    /// The list's state.
    public struct State: Codable, Equatable, Sendable {
        /// The setlists, in the order the band arranged them.
        public var setlists: [Setlist] = []
        /// The add-setlist sheet, while it is open.
        public var addForm: SetlistForm.State?

        /// Creates an empty list.
        public init() {}
    }

    /// What the user does on the list.
    public enum Action: Codable, Equatable, Sendable {
        /// Opens the add sheet on a new setlist with an id the app made.
        case addButtonTapped(id: Setlist.ID)
        /// An action of the add sheet's form.
        case addForm(SetlistForm.Action)
        /// Adds the sheet's setlist (when it has a name) and closes the sheet.
        case confirmAddTapped
        /// Closes the sheet without adding.
        case dismissAddTapped
        /// Opens a setlist's detail (the app pushes it).
        case setlistTapped(id: Setlist.ID)
        /// Swipes a setlist away.
        case deleteSetlist(id: Setlist.ID)
        /// Drags the setlist at one position to another.
        case moveSetlist(from: Int, to: Int)
    }

    /// The list's reducer (pushing a detail is the app's part).
    public static let reducer = Reducer<State, Action> { state, action in
        switch action {
        case .addButtonTapped(let id):
            state.addForm = SetlistForm.State(setlist: Setlist(id: id))
        case .addForm(let formAction):
            guard var form = state.addForm else { return }
            SetlistForm.reducer.reduce(&form, formAction)
            state.addForm = form
        case .confirmAddTapped:
            guard let form = state.addForm else { return }
            let setlist = SetlistForm.saved(form.setlist)
            guard !setlist.name.isEmpty else { return }
            state.setlists.append(setlist)
            state.addForm = nil
        case .dismissAddTapped:
            state.addForm = nil
        case .setlistTapped:
            break
        case .deleteSetlist(let id):
            state.setlists[id: id] = nil
        case .moveSetlist(let source, let destination):
            state.setlists.move(from: source, to: destination)
        }
    }
}
