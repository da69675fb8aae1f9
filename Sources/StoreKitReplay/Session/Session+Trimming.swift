import StoreKitCore

extension Session {
    /// The steps `range` of this session as a session of their own, which the strict reader reads and a replay
    /// replays exactly as those steps replay here.
    ///
    /// The header is this session's, with the recorded state before the first step as its initial state, the
    /// session id suffixed with the steps kept, and `metadata.trimmedFrom` naming the original session and steps.
    /// The actions are renumbered from 1; an effect's cause follows its action, and is `nil` when that action lies
    /// before the range. The lines of an effect run (format 2) are kept when its cause is, up to the line after the
    /// range, with the cause renumbered as its action is: a run still going there is cut off, as a recording stopped
    /// at that step would leave it. Times count from the step before the range. Each step keeps its snapshot layout: a patch
    /// still applies, since the state before each kept step is the same as in the session (for the first, the new
    /// initial state). An `end` line closes the result.
    /// - Parameter range: Recorded step numbers, from 1.
    /// - Returns: The trimmed session.
    /// - Throws: ``SessionTrimError`` when the range starts before step 1 or ends after the last step, or when a gap
    ///   lost a step of the range or the state before it (a replay of the rest would start from a state nobody
    ///   recorded).
    public func trimmed(to range: ClosedRange<Int>) throws(SessionTrimError) -> Session {
        let actions = self.actions
        guard let last = actions.last?.sequence else { throw SessionTrimError("the session holds no actions to keep") }
        guard range.lowerBound >= 1 else { throw SessionTrimError("steps start at 1, not \(range.lowerBound)") }
        guard range.upperBound <= last else {
            throw SessionTrimError("step \(range.upperBound) is past the session's last step, \(last)")
        }
        let before = actions.last { $0.sequence < range.lowerBound }
        let needed = ((before?.sequence ?? 0) + 1)...range.upperBound
        for case .gap(let gap) in events where (gap.firstSequence...gap.lastSequence).overlaps(needed) {
            throw SessionTrimError(
                "steps \(gap.firstSequence)-\(gap.lastSequence) were lost (\(gap.reason.rawValue)), so steps "
                    + "\(range.lowerBound)-\(range.upperBound) and the state before them are not all recorded")
        }
        let offset = range.lowerBound - 1
        let startTime = before?.time ?? 0
        var trimmedHeader = header
        trimmedHeader.sessionID = "\(header.sessionID)-steps-\(range.lowerBound)-\(range.upperBound)"
        trimmedHeader.initialState = before?.state ?? header.initialState
        trimmedHeader.metadata["trimmedFrom"] = .object([
            "sessionId": .string(header.sessionID), "firstStep": .integer(Int64(range.lowerBound)),
            "lastStep": .integer(Int64(range.upperBound)),
        ])
        var kept: [SessionEvent] = []
        var lastTime = 0.0
        var keptActions = 0
        lines: for event in events {
            switch event {
            case .action(var action):
                if action.sequence > range.upperBound { break lines }
                guard range.contains(action.sequence) else { continue }
                action.sequence -= offset
                action.time = max(0, action.time - startTime)
                if case .effect(let cause?) = action.origin {
                    action.origin = .effect(cause: cause > offset ? cause - offset : nil)
                }
                lastTime = action.time
                keptActions += 1
                kept.append(.action(action))
            case .gap(let gap):
                if gap.firstSequence > range.upperBound { break lines }
            case .call(var call):
                guard range.contains(call.cause) else { continue }
                call.cause -= offset
                call.time = max(0, call.time - startTime)
                lastTime = max(lastTime, call.time)
                kept.append(.call(call))
            case .effectEnd(var end):
                guard range.contains(end.cause) else { continue }
                end.cause -= offset
                end.time = max(0, end.time - startTime)
                lastTime = max(lastTime, end.time)
                kept.append(.effectEnd(end))
            case .note(var note):
                // A note goes with the action before it.
                guard keptActions > 0 else { continue }
                note.time = max(0, note.time - startTime)
                lastTime = max(lastTime, note.time)
                kept.append(.note(note))
            case .header, .end:
                continue
            }
        }
        kept.append(.end(EndEvent(reason: .finished, actions: keptActions, dropped: 0, time: lastTime)))
        return Session(header: trimmedHeader, events: kept)
    }
}
