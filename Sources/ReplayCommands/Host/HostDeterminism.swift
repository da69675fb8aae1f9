import CommandLineOptions
import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// Replays a session in two host processes that differ in hash seed and finds the first step where the two
/// replays disagree with each other: a reducer that reads something besides its state and action (the clock, a
/// `Set`'s or a `Dictionary`'s order, a random number), which makes a comparison with the recording meaningless.
///
/// The first process runs with `SWIFT_DETERMINISTIC_HASHING=1` (Swift's hash seed fixed), the second without it
/// (a random seed per process), so a `Set` or a `Dictionary` iterates in another order in each; the two run one after
/// the other, so a reducer that reads the clock sees two times. States are compared as canonical JSON, in which a
/// `Set` and a `Dictionary` are written sorted, so equal states are equal in both processes.
struct HostDeterminism {
    /// `--determinism`, which `diff` and `check` take.
    static let flag = Flag(
        "--determinism",
        help: "first replay each session twice, in hosts with different hash seeds, and report 'nondeterministic' where they disagree")

    /// The variable that fixes Swift's hash seed in the first replay; unset in the second.
    static let hashingVariable = "SWIFT_DETERMINISTIC_HASHING"

    /// The first step where the two replays disagree.
    struct Finding {
        /// The step (the action's sequence number).
        var step: Int
        /// The action's display name.
        var actionName: String
        /// The difference from the first replay's state to the second's.
        var diff: StateDiff
        /// How many actions the session has.
        var actionCount: Int

        /// The finding as a person reads it.
        func explanationLines(source: String) -> [RenderedLine] {
            var lines = [
                RenderedLine(.text, "\(source): nondeterministic at step \(step) of \(actionCount) (\(actionName.escapingControls()))"),
                RenderedLine(.text, "  two replays of the same actions disagree, so a diff against the recording means nothing until this is fixed"),
                RenderedLine(.text, "  the reducer reads something besides its state and action: the clock, a Set's or Dictionary's order, a random number"),
                RenderedLine(.text, ""),
                RenderedLine(.text, "  state after step \(step) (- \(HostDeterminism.hashingVariable)=1, + a random hash seed)"),
            ]
            lines += diff.renderedLines().map { RenderedLine($0.kind, "  " + $0.text) }
            lines += diff.summary.split(separator: "\n", omittingEmptySubsequences: false).map { RenderedLine(.text, "  " + $0) }
            return lines
        }

        /// `step 3 toggleCompleted, todos[id: …].title`.
        var oneLine: String {
            "step \(step) \(actionName.escapingControls()), \(diff.changes.map { "\($0.path)" }.prefix(3).joined(separator: ", "))"
        }

        /// The finding as data.
        var jsonValue: JSONValue {
            .object([
                "step": .integer(Int64(step)), "action": .string(actionName), "changes": diff.jsonValue,
                "first": .string("\(HostDeterminism.hashingVariable)=1"), "second": .string("a random hash seed"),
            ])
        }
    }

    var host: HostCommand
    var timeout: Double

    /// Replays `session` twice and returns where the replays first disagree; `nil` when they agree at every step.
    /// - Throws: ``CLIError`` when either replay fails (a crash, an unknown store, a value that no longer decodes).
    func check(_ session: SessionInput) throws(CLIError) -> Finding? {
        let fixed = try states(of: session, hashing: "1")
        let random = try states(of: session, hashing: nil)
        for (first, second) in zip(fixed, random) where first.state != second.state {
            return Finding(
                step: first.step, actionName: first.name, diff: StateDiff(from: first.state, to: second.state),
                actionCount: fixed.count)
        }
        return nil
    }

    private func states(of session: SessionInput, hashing: String?) throws(CLIError) -> [ReplayHostClient.ReplayedState] {
        let client = ReplayHostClient(host: host, timeout: timeout, environment: [Self.hashingVariable: hashing])
        let answer = try client.answer(ReplayHostRequest(command: .states), session: session)
        if let failure = answer.result.failure { throw CLIError(.input, failure, file: session.displayName) }
        return answer.states
    }
}
