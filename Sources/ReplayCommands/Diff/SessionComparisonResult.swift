import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// What `diff A B` found: the steps compared, the differences, and what the ignored places covered.
struct SessionComparisonResult {
    /// A step where the sessions differ.
    struct Difference {
        /// The step (0 for the initial state).
        var step: Int
        /// What differs there: `action`, `state after addTodo`, `initial state`, or which session ends first.
        var what: String
        /// The difference, empty when one session ended.
        var diff: StateDiff
    }

    /// How the first session is named.
    var first: String
    /// How the second session is named.
    var second: String
    /// The patterns of the places left out of the comparison.
    var ignoring: [String]
    /// The steps compared.
    var steps = 0
    /// The differences, in step order.
    var differences: [Difference] = []
    /// What the ignored places covered.
    var ignored: [IgnoredPattern] = []
}

extension SessionComparisonResult: CommandOutput {
    var jsonValue: JSONValue {
        .object([
            "sessions": .array([.string(first), .string(second)]),
            "same": .bool(differences.isEmpty),
            "differences": .array(differences.map { .object(["step": .integer(Int64($0.step)), "what": .string($0.what), "changes": $0.diff.jsonValue]) }),
            "ignoring": .array(ignoring.map(JSONValue.string)), "ignored": .array(ignored.map(\.jsonValue)),
        ])
    }

    func writeText(to terminal: Terminal) {
        if differences.isEmpty {
            terminal.out("\(first) and \(second): the same \(steps) steps")
        } else {
            terminal.out("\(first) and \(second) differ (- \(first), + \(second))")
            for difference in differences {
                terminal.out("\nstep \(difference.step): \(difference.what)")
                if !difference.diff.isEmpty {
                    terminal.out(difference.diff.renderedLines())
                    terminal.out(difference.diff.summary)
                }
            }
        }
        for line in ReplayReport.ignoredExplanation(ignoring: ignoring, ignored: ignored) {
            terminal.out(line)
        }
    }
}
