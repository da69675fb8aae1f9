import StoreKitCore
import StoreKitJSON

extension ReplayEngine {
    /// Why a session could not be re-recorded.
    public struct RerecordError: Error, Sendable, CustomStringConvertible {
        /// The replay verdict that stopped it (an unknown store or an undecodable value).
        public var verdict: ReplayVerdict
        /// Set when the session is recorded under another schema version than the store's and was not to be
        /// migrated: the session's version and the store's.
        public var unmigrated: (session: String, store: String)?

        /// Creates one for a verdict.
        public init(verdict: ReplayVerdict) {
            self.verdict = verdict
        }

        /// A one-line explanation.
        public var description: String {
            if let unmigrated {
                return "the session is recorded under schema '\(unmigrated.session)' and the store is at schema "
                    + "'\(unmigrated.store)': re-recording its states alone would mix the two; migrate it as a whole "
                    + "(replay-cli update --migrate)"
            }
            return switch verdict {
            case .unknownStore(let id, let known):
                "no replayable store has id '\(id)' (known: \(known.joined(separator: ", ")))"
            case .undecodable(let failure):
                "step \(failure.step): the \(failure.part.rawValue) no longer decodes at \(failure.path): \(failure.message)"
            default:
                "cannot re-record: \(verdict.name)"
            }
        }
    }

    /// Accepts the current reducers: returns `session` with every recorded state replaced by the replayed one.
    ///
    /// Only states change. Actions, times, gaps, the header and the snapshot layout stay as they are: a line that
    /// held a full state (a keyframe) still does, and a line that held a patch still holds one, recomputed against
    /// the new previous state when either state changed (and kept byte for byte when neither did). After a gap the
    /// replay restarts from the recorded state of the next action, which is kept, because the state before it is
    /// unknown.
    ///
    /// A session recorded under another schema version than the store's is read through the store's migration. With
    /// `migrating` it is written back migrated: its initial state and actions as the migration makes them, its states
    /// replayed, and its header's schema version the store's. Without, it is refused (its old actions under new
    /// states would be neither version).
    /// - Parameter migrating: Rewrite a session of an older schema version as one of the store's.
    /// - Throws: ``RerecordError`` when the store is unknown, a recorded value no longer decodes, or the session
    ///   needs a migration that was not asked for.
    public func rerecord(_ session: Session, migrating: Bool = false) throws(RerecordError) -> Session {
        guard let store = stores[session.header.storeID] else {
            throw RerecordError(
                verdict: .unknownStore(storeID: session.header.storeID, knownStores: stores.keys.sorted()))
        }
        let migration = store.sessionMigration(for: session.header)
        if let migration, !migrating {
            var error = RerecordError(verdict: .match)
            error.unmigrated = (migration.from, migration.to)
            throw error
        }
        let replayer = store.replayer(for: session.header)
        var header = session.header
        var events: [SessionEvent] = []
        var expected = 1
        // The state before the current line as the file held it, and as the rewritten file holds it; nil after a gap
        // (the rewritten one not after a gap replay runs through).
        var previousRecorded: JSONValue? = session.header.initialState
        var previousReplayed: JSONValue? = session.header.initialState
        do {
            try replayer.load(session.header.initialState, as: .initialState)
            if let migration {
                header.initialState = try replayer.migrated(header.initialState, as: .initialState)
                header.app.schemaVersion = migration.to
                previousReplayed = header.initialState
            }
            for event in session.events {
                guard case .action(var action) = event else {
                    if case .gap(var gap) = event {
                        expected = gap.lastSequence + 1
                        previousRecorded = nil
                        // Through the actions a gap kept, the replayed state goes on, as replay's does; past a gap
                        // without them, the next action starts over from its recorded state.
                        let runsThrough = gap.keepsActions && previousReplayed != nil
                        for index in gap.actions.indices {
                            if runsThrough { try replayer.apply(gap.actions[index].action) }
                            if migration != nil {
                                gap.actions[index].action = try replayer.migrated(gap.actions[index].action, as: .action)
                            }
                        }
                        previousReplayed = runsThrough ? try replayer.currentState() : nil
                        events.append(.gap(gap))
                        continue
                    }
                    events.append(event)
                    continue
                }
                let recorded = action.state
                if previousReplayed == nil {
                    // After a gap the state before this action is unknown: restart from its recorded state.
                    try replayer.load(action.state, as: .recordedState)
                    action.state = try replayer.migrated(action.state, as: .recordedState)
                } else {
                    try replayer.apply(action.action)
                    action.state = try replayer.currentState()
                }
                if migration != nil { action.action = try replayer.migrated(action.action, as: .action) }
                if action.patch != nil, action.state != recorded || previousReplayed != previousRecorded {
                    action.patch = previousReplayed.map { JSONPatch(from: $0, to: action.state) }
                }
                previousRecorded = recorded
                previousReplayed = action.state
                expected = action.sequence + 1
                events.append(.action(action))
            }
        } catch {
            throw RerecordError(
                verdict: .undecodable(
                    Undecodable(step: expected, actionName: nil, part: error.part, path: error.path, message: error.message)))
        }
        return Session(header: header, events: events)
    }
}
