/// How far replay is in ending the effect runs still in flight after its last step: the runs queued behind a run
/// that waited are let go to their end, then every run is judged against its recording. With many runs in flight
/// this takes a while, and a replay host shows it (on its ``ProgressBoard``) so that it is not taken for a hang.
public struct EffectRunsEnding: Sendable, Equatable {
    /// The runs in flight after the last step.
    public var inFlight: Int
    /// How many of them have ended.
    public var ended: Int
    /// How many of them have been judged.
    public var judged: Int

    /// Creates one.
    public init(inFlight: Int, ended: Int, judged: Int) {
        self.inFlight = inFlight
        self.ended = ended
        self.judged = judged
    }
}
