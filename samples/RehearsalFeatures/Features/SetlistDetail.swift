import Foundation
import StoreKitCore

/// A setlist's detail screen: its songs and past rehearsals, an edit sheet, a delete confirmation, and the buttons
/// that start a rehearsal or open a past one (the app pushes those screens).
public enum SetlistDetail {
    /// The detail's state.
    public struct State: Codable, Equatable, Sendable {
        /// The setlist shown.
        public var setlist: Setlist
        /// The sheet or alert on top of the detail, if any.
        public var destination: Destination.State?

        /// Creates the detail of `setlist`.
        public init(setlist: Setlist, destination: Destination.State? = nil) {
            self.setlist = setlist
            self.destination = destination
        }
    }

    /// What the user does on the detail.
    public enum Action: Codable, Equatable, Sendable {
        /// Opens the edit sheet on a copy of the setlist.
        case editTapped
        /// Saves the edit sheet's setlist and closes the sheet.
        case doneEditingTapped
        /// Closes the edit sheet without saving.
        case cancelEditingTapped
        /// Asks to confirm deleting the setlist.
        case deleteSetlistTapped
        /// An action of the sheet or alert on top.
        case destination(Destination.Action)
        /// Starts a rehearsal, with the id and start time the app made (the app pushes the rehearsal screen).
        case startRehearsalTapped(id: PastRehearsal.ID, at: Date)
        /// Opens a past rehearsal (the app pushes it).
        case pastRehearsalTapped(id: PastRehearsal.ID)
        /// Swipes a past rehearsal away.
        case deleteRehearsal(id: PastRehearsal.ID)
    }

    /// The detail's reducer (pushing screens and deleting the setlist are the app's part).
    public static let reducer = Reducer<State, Action> { state, action in
        switch action {
        case .editTapped:
            state.destination = .edit(SetlistForm.State(setlist: state.setlist, focus: nil))
        case .doneEditingTapped:
            guard case .edit(let form) = state.destination else { return }
            state.setlist = SetlistForm.saved(form.setlist)
            state.destination = nil
        case .cancelEditingTapped:
            state.destination = nil
        case .deleteSetlistTapped:
            let count = state.setlist.rehearsals.count
            state.destination = .deletionAlert(
                message: "Delete “\(state.setlist.name)” and its \(count) rehearsal\(count == 1 ? "" : "s")?")
        case .destination(let destinationAction):
            Destination.reduce(&state.destination, destinationAction)
        case .startRehearsalTapped, .pastRehearsalTapped:
            break
        case .deleteRehearsal(let id):
            state.setlist.rehearsals[id: id] = nil
        }
    }
}
