import CommandLineOptions
import StoreKitCore
import StoreKitReplay

/// `replay-cli diff A B`: two recordings compared step by step, actions and states, without reducers.
enum SessionComparison {
    struct Difference {
        var step: Int
        var what: String
        var diff: StateDiff
    }

    static func run(_ parsed: ParsedCommandLine, _ context: CommandContext) throws(CLIError) -> Int32 {
        let first = try SessionInput(parsed.positionals[0])
        defer { first.cleanUp() }
        let second = try SessionInput(parsed.positionals[1])
        defer { second.cleanUp() }
        var differences: [Difference] = []
        var steps = 0
        do {
            let a = try SessionReader(path: first.path)
            let b = try SessionReader(path: second.path)
            guard case .header(let headerA) = try a.next(), case .header(let headerB) = try b.next() else { return 2 }
            if headerA.initialState != headerB.initialState {
                differences.append(Difference(step: 0, what: "initial state", diff: StateDiff(from: headerA.initialState, to: headerB.initialState)))
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
                if left.action != right.action {
                    differences.append(Difference(step: left.sequence, what: "action", diff: StateDiff(from: left.action, to: right.action)))
                } else if left.state != right.state {
                    differences.append(Difference(step: left.sequence, what: "state after \(left.name)", diff: StateDiff(from: left.state, to: right.state)))
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
                ]).prettyString())
        } else if differences.isEmpty {
            context.terminal.out("\(first.displayName) and \(second.displayName): the same \(steps) steps")
        } else {
            context.terminal.out("\(first.displayName) and \(second.displayName) differ (- \(first.displayName), + \(second.displayName))")
            for difference in differences {
                context.terminal.out("\nstep \(difference.step): \(difference.what)")
                if !difference.diff.isEmpty {
                    context.terminal.out(context.terminal.render(difference.diff.renderedLines()))
                    context.terminal.out(difference.diff.summary)
                }
            }
        }
        return differences.isEmpty ? 0 : 1
    }

    private static func nextAction(_ reader: SessionReader) throws -> ActionEvent? {
        while let event = try reader.next() {
            if case .action(let action) = event { return action }
        }
        return nil
    }
}
