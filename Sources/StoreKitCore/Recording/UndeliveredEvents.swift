/// What a recorder whose time to finish ran out could not deliver, as the lines that say so: a `gap` of reason
/// ``GapEvent/Reason/timedOut`` for each run of consecutive actions left, the gaps that were queued among them as
/// they were, and counts of the effect lines and notes left out.
struct UndeliveredEvents {
    /// The gaps to write, in sequence order.
    var gaps: [GapEvent] { closed + (run.map { [Self.timedOutGap($0)] } ?? []) }
    /// The gaps before the run being gathered.
    private var closed: [GapEvent] = []
    /// How many actions the timed-out gaps cover.
    private(set) var actions = 0
    /// How many effect lines (`call`, `effectEnd`) were left out.
    private(set) var effectLines = 0
    /// How many notes were left out.
    private(set) var notes = 0
    /// The sequence numbers of the run of actions being gathered into one gap.
    private var run: ClosedRange<Int>?

    /// Adds the events of `queue` from the index `start` on.
    mutating func add<State, Action>(_ queue: RecorderQueue<State, Action>, from start: Int) {
        for index in start..<max(start, queue.count) {
            switch queue.event(at: index) {
            case .action(let sequence, _, _, _), .keptAction(let sequence, _, _, _):
                actions += 1
                if let current = run, current.upperBound + 1 == sequence {
                    run = current.lowerBound...sequence
                } else {
                    closeRun()
                    run = sequence...sequence
                }
            case .gap(let gap):
                closeRun()
                closed.append(gap)
            case .call, .effectEnd:
                effectLines += 1
            case .note:
                notes += 1
            }
        }
    }

    /// Ends the run being gathered with its timed-out gap.
    private mutating func closeRun() {
        guard let range = run else { return }
        run = nil
        closed.append(Self.timedOutGap(range))
    }

    /// The gap of the actions `range` that were not written in time.
    private static func timedOutGap(_ range: ClosedRange<Int>) -> GapEvent {
        GapEvent(
            firstSequence: range.lowerBound, lastSequence: range.upperBound, reason: .timedOut,
            message: "finish(timeout:) ran out of time before these actions were written")
    }
}
