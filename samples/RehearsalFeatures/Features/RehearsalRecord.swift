import StoreKitCore

/// A past rehearsal's screen: its song times, notes and rating, and a delete button (the app deletes it and pops).
public enum RehearsalRecord {
    /// The screen's state.
    public struct State: Codable, Equatable, Sendable {
        /// The setlist the rehearsal belongs to.
        public var setlistID: Setlist.ID
        /// The rehearsal shown.
        public var rehearsal: PastRehearsal

        /// Creates the screen of `rehearsal`, which belongs to the setlist `setlistID`.
        public init(setlistID: Setlist.ID, rehearsal: PastRehearsal) {
            self.setlistID = setlistID
            self.rehearsal = rehearsal
        }
    }

    /// What the user does on the screen.
    public enum Action: Codable, Equatable, Sendable {
        /// Types the notes.
        case notesChanged(String)
        /// Rates the rehearsal from 1 to 5 (clamped), or clears the rating.
        case ratingChanged(Int?)
        /// Deletes the rehearsal (the app removes it and pops the screen).
        case deleteTapped
    }

    /// The screen's reducer.
    public static let reducer = Reducer<State, Action> { state, action in
        switch action {
        case .notesChanged(let notes):
            state.rehearsal.notes = notes
        case .ratingChanged(let rating):
            state.rehearsal.rating = rating.map { min(max($0, 1), 5) }
        case .deleteTapped:
            break
        }
    }
}
