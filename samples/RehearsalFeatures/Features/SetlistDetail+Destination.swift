import StoreKitCore

extension SetlistDetail {
    /// What can sit on top of the detail: the edit sheet or the delete confirmation.
    public enum Destination {
        /// The sheet or alert shown.
        public enum State: Codable, Equatable, Sendable {
            /// The edit sheet, with its form.
            case edit(SetlistForm.State)
            /// The alert that confirms deleting the setlist.
            case deletionAlert(message: String)
        }

        /// What the user does in the sheet or alert.
        public enum Action: Codable, Equatable, Sendable {
            /// An action of the edit sheet's form.
            case edit(SetlistForm.Action)
            /// Confirms deleting the setlist (the app deletes it and pops the detail).
            case deletionConfirmed
            /// Keeps the setlist.
            case deletionCancelled
        }

        /// Applies `action` to what is shown; an action for something not shown changes nothing.
        static func reduce(_ state: inout State?, _ action: Action) {
            switch (state, action) {
            case (.edit(var form)?, .edit(let formAction)):
                SetlistForm.reducer.reduce(&form, formAction)
                state = .edit(form)
            case (.deletionAlert?, .deletionConfirmed), (.deletionAlert?, .deletionCancelled):
                state = nil
            default:
                break
            }
        }
    }
}
