import CommandLineOptions
import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// `replay-cli diff A B`: two recordings compared step by step, actions and states, without reducers.
///
/// With ignored places (`--ignore`, `.replay.json`), each of B's actions and states takes A's values there before
/// the two are compared as JSON, so a difference lists only what is left; the report says what was ignored.
enum SessionComparison {
    struct Difference {
        var step: Int
        var what: String
        var diff: StateDiff
    }

    static func run(_ parsed: ParsedCommandLine, _ context: CommandContext, ignoring: [JSONPathPattern]) throws(CLIError) -> ExitStatus {
        let first = try SessionInput(parsed.positionals[0])
        defer { first.cleanUp() }
        let second = try SessionInput(parsed.positionals[1])
        defer { second.cleanUp() }
        var differences: [Difference] = []
        var ignored: [IgnoredPattern] = []
        var steps = 0
        /// `right` with `left`'s values at the ignored places, noting what differed there at `step`.
        func comparable(_ left: JSONValue, _ right: JSONValue, step: Int) -> JSONValue {
            guard !ignoring.isEmpty else { return right }
            let overlay = ignoring.overlay(from: left, onto: right)
            ignored.note(overlay.ignored, step: step)
            return overlay.value
        }
        do {
            let a = try SessionReader(path: first.path)
            let b = try SessionReader(path: second.path)
            guard case .header(let headerA) = try a.next(), case .header(let headerB) = try b.next() else { return .trouble }
            let initialB = comparable(headerA.initialState, headerB.initialState, step: 0)
            if headerA.initialState != initialB {
                differences.append(Difference(step: 0, what: "initial state", diff: StateDiff(from: headerA.initialState, to: initialB)))
            }
            while differences.isEmpty || parsed.isSet(DiffCommand.all) {
                let left = try nextAction(a)
                let right = try nextAction(b)
                if left == nil && right == nil { break }
                steps += 1
                guard let left, let right else {
                    let (longer, missing) = left == nil ? (second.displayName, first.displayName) : (first.displayName, second.displayName)
                    differences.append(
                        Difference(step: steps, what: "\(missing) ends here; \(longer) goes on", diff: StateDiff(from: .null, to: .null)))
                    break
                }
                let rightAction = comparable(left.action, right.action, step: left.sequence)
                let rightState = comparable(left.state, right.state, step: left.sequence)
                if left.action != rightAction {
                    differences.append(Difference(step: left.sequence, what: "action", diff: StateDiff(from: left.action, to: rightAction)))
                } else if left.state != rightState {
                    differences.append(Difference(step: left.sequence, what: "state after \(left.name.escapingControls())", diff: StateDiff(from: left.state, to: rightState)))
                }
            }
            // A verdict needs both files whole: the rest is read, so a broken line after a difference is still exit 2.
            while try a.next() != nil {}
            while try b.next() != nil {}
        } catch let error as SessionReadError {
            throw CLIError(error)
        } catch {
            throw CLIError(.session, "\(error)")
        }
        if parsed.isSet(SharedOptions.json) {
            context.terminal.out(
                JSONValue.object([
                    "sessions": .array([.string(first.displayName), .string(second.displayName)]),
                    "same": .bool(differences.isEmpty),
                    "differences": .array(differences.map { .object(["step": .integer(Int64($0.step)), "what": .string($0.what), "changes": $0.diff.jsonValue]) }),
                    "ignoring": .array(ignoring.map { .string($0.text) }), "ignored": .array(ignored.map(\.jsonValue)),
                ]).prettyString())
        } else if differences.isEmpty {
            context.terminal.out("\(first.displayName) and \(second.displayName): the same \(steps) steps")
            for line in ReplayReport.ignoredExplanation(ignoring: ignoring.map(\.text), ignored: ignored) {
                context.terminal.out(line)
            }
        } else {
            context.terminal.out("\(first.displayName) and \(second.displayName) differ (- \(first.displayName), + \(second.displayName))")
            for difference in differences {
                context.terminal.out("\nstep \(difference.step): \(difference.what)")
                if !difference.diff.isEmpty {
                    context.terminal.out(difference.diff.renderedLines())
                    context.terminal.out(difference.diff.summary)
                }
            }
            for line in ReplayReport.ignoredExplanation(ignoring: ignoring.map(\.text), ignored: ignored) {
                context.terminal.out(line)
            }
        }
        return differences.isEmpty ? .ok : .different
    }

    private static func nextAction(_ reader: SessionReader) throws -> ActionEvent? {
        while let event = try reader.next() {
            if case .action(let action) = event { return action }
        }
        return nil
    }
}
