import CommandLineOptions
import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// Replays a session in two host processes that differ in hash seed and finds the first step where the two
/// replays disagree with each other: a reducer that reads something besides its state and action (the clock, a
/// `Set`'s or a `Dictionary`'s order, a random number), or a replayable effect that reads something besides its
/// action, its state and its context (`Date()` instead of its context's clock, `UUID()`, a `Set`'s order), either of
/// which makes a comparison with the recording meaningless.
///
/// The first process runs with `SWIFT_DETERMINISTIC_HASHING=1` (Swift's hash seed fixed), the second without it
/// (a random seed per process), so a `Set` or a `Dictionary` iterates in another order in each; the two run one after
/// the other, so code that reads the clock sees two times. States are compared as canonical JSON, in which a
/// `Set` and a `Dictionary` are written sorted, so equal states are equal in both processes. When the states agree
/// and the session's effects were rerun, the session is checked in two such processes too, and each effect run's
/// findings against the recording (what it sent and called where that differs, or nothing) must be the same in
/// both: two reruns from the same recorded inputs that send differently are nondeterministic.
struct HostDeterminism {
    /// `--determinism`, which `diff` and `check` take.
    static let flag = Flag(
        "--determinism",
        help: "first replay each session twice, in hosts with different hash seeds, and report 'nondeterministic' where they disagree")

    /// The variable that fixes Swift's hash seed in the first replay; unset in the second.
    static let hashingVariable = "SWIFT_DETERMINISTIC_HASHING"

    /// The first step where the two replays disagree.
    typealias Finding = ReplayDisagreement

    var host: HostCommand
    var timeout: Double

    /// Replays `session` twice and returns where the replays first disagree: in a state, else in an effect run;
    /// `nil` when they agree everywhere.
    /// - Throws: ``CLIError`` when either replay fails (a crash, an unknown store, a value that no longer decodes).
    func check(_ session: SessionInput) throws(CLIError) -> Finding? {
        let pair = ReplayPair(
            first: ReplayPair.Side(
                name: "\(Self.hashingVariable)=1",
                client: ReplayHostClient(host: host, timeout: timeout, environment: [Self.hashingVariable: "1"])),
            second: ReplayPair.Side(
                name: "a random hash seed",
                client: ReplayHostClient(host: host, timeout: timeout, environment: [Self.hashingVariable: nil])))
        return try pair.compare(session, stopsDisagree: false).disagreement
    }

    /// The finding as a person reads it: where, why it makes a diff meaningless, what to look for, and the
    /// difference.
    static func explanationLines(of finding: Finding, source: String) -> [RenderedLine] {
        let advice: [String]
        if case .effect = finding.difference {
            advice = [
                "two reruns of the effect from the same recorded inputs did not do the same, so a diff against the recording means nothing until this is fixed",
                "the effect reads something besides its action, its state and its context: Date() instead of context.clock, UUID() instead of context.uuid(), a Set's or Dictionary's order",
            ]
        } else {
            advice = [
                "two replays of the same actions disagree, so a diff against the recording means nothing until this is fixed",
                "the reducer reads something besides its state and action: the clock, a Set's or Dictionary's order, a random number",
            ]
        }
        return [finding.headline(source: source, verdict: "nondeterministic")] + advice.map { RenderedLine(.text, "  " + $0) }
            + finding.detailLines
    }
}
