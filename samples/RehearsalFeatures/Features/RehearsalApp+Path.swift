import StoreKitCore

extension RehearsalApp {
    /// The screens the app pushes on its navigation stack.
    public enum Path {
        /// A pushed screen's state.
        public enum State: Codable, Equatable, Sendable {
            /// A setlist's detail.
            case detail(SetlistDetail.State)
            /// A running rehearsal.
            case rehearsal(Rehearsal.State)
            /// A past rehearsal.
            case record(RehearsalRecord.State)
        }

        /// A pushed screen's action.
        public enum Action: Codable, Equatable, Sendable {
            /// An action of a setlist's detail.
            case detail(SetlistDetail.Action)
            /// An action of a running rehearsal.
            case rehearsal(Rehearsal.Action)
            /// An action of a past rehearsal.
            case record(RehearsalRecord.Action)
        }

        /// The screens' reducer, with the rehearsal's reducer given (so a replay host can swap in another).
        static func reducer(rehearsal: Reducer<Rehearsal.State, Rehearsal.Action>) -> Reducer<State, Action> {
            Reducer { state, action in
                switch (state, action) {
                case (.detail(var detail), .detail(let detailAction)):
                    SetlistDetail.reducer.reduce(&detail, detailAction)
                    state = .detail(detail)
                case (.rehearsal(var running), .rehearsal(let rehearsalAction)):
                    rehearsal.reduce(&running, rehearsalAction)
                    state = .rehearsal(running)
                case (.record(var record), .record(let recordAction)):
                    RehearsalRecord.reducer.reduce(&record, recordAction)
                    state = .record(record)
                default:
                    break
                }
            }
        }
    }
}
