import StoreKitCore

extension ReplayEngine {
    /// Why a session could not be re-recorded.
    public struct RerecordError: Error, Sendable, CustomStringConvertible {
        /// The replay verdict that stopped it (an unknown store or an undecodable value).
        public var verdict: ReplayVerdict

        /// A one-line explanation.
        public var description: String {
            switch verdict {
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
    /// - Throws: ``RerecordError`` when the store is unknown or a recorded value no longer decodes.
    public func rerecord(_ session: Session) throws(RerecordError) -> Session {
        guard let store = stores[session.header.storeID] else {
            throw RerecordError(
                verdict: .unknownStore(storeID: session.header.storeID, knownStores: stores.keys.sorted()))
        }
        let replayer = store.makeReplayer(session.header.redaction)
        var events: [SessionEvent] = []
        var expected = 1
        // The state before the current line as the file held it, and as the rewritten file holds it; nil after a gap.
        var previousRecorded: JSONValue? = session.header.initialState
        var previousReplayed: JSONValue? = session.header.initialState
        do {
            try replayer.load(session.header.initialState, as: .initialState)
            for event in session.events {
                guard case .action(var action) = event else {
                    if case .gap(let gap) = event {
                        expected = gap.lastSequence + 1
                        previousRecorded = nil
                        previousReplayed = nil
                    }
                    events.append(event)
                    continue
                }
                let recorded = action.state
                if previousReplayed == nil {
                    // After a gap the state before this action is unknown: restart from its recorded state.
                    try replayer.load(action.state, as: .recordedState)
                } else {
                    try replayer.apply(action.action)
                    action.state = try replayer.currentState()
                }
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
        return Session(header: session.header, events: events)
    }
}
