import CommandLineOptions
import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// `replay-cli diff A B`: two recordings compared step by step, actions and states, without reducers.
///
/// With ignored places (`--ignore`, `.replay.json`), each of B's actions and states takes A's values there before
/// the two are compared as JSON, so a difference lists only what is left; the report says what was ignored. The
/// states' arrays that `.replay.json`'s `"identity"` names are diffed by the member it gives.
enum SessionComparison {
    static func run(_ parsed: ParsedCommandLine, _ context: CommandContext, ignoring: [JSONPathPattern]) throws(CLIError) -> ExitStatus {
        let first = try SessionInput(parsed.positionals[0])
        defer { first.cleanUp() }
        let second = try SessionInput(parsed.positionals[1])
        defer { second.cleanUp() }
        let identity = try ConfiguredIdentity.resolve(context)
        let result = try compare(first, second, all: parsed.isSet(DiffCommand.all), ignoring: ignoring, identity: identity.keys)
        let comparedStates = result.differences.filter { $0.what != "action" }.flatMap { [$0.diff.old, $0.diff.new] }
        for warning in identity.warnings(about: comparedStates)
            + IgnoredPaths.warnings(
                about: IgnoredPaths.given(parsed, in: ignoring), in: [first, second],
                source: "\(first.displayName) or \(second.displayName)")
        {
            context.terminal.err(warning)
        }
        context.terminal.present(result, json: parsed.isSet(SharedOptions.json))
        return result.differences.isEmpty ? .ok : .different
    }

    /// Compares the two sessions step by step: up to the first difference, or with `all` every one.
    private static func compare(
        _ first: SessionInput, _ second: SessionInput, all: Bool, ignoring: [JSONPathPattern], identity: [IdentityKey]
    ) throws(CLIError) -> SessionComparisonResult {
        var result = SessionComparisonResult(first: first.displayName, second: second.displayName, ignoring: ignoring.map(\.text))
        /// `right` with `left`'s values at the ignored places, noting what differed there at `step`.
        func comparable(_ left: JSONValue, _ right: JSONValue, step: Int) -> JSONValue {
            guard !ignoring.isEmpty else { return right }
            let overlay = ignoring.overlay(from: left, onto: right)
            result.ignored.note(overlay.ignored, step: step)
            return overlay.value
        }
        func differ(_ step: Int, _ what: String, _ diff: StateDiff) {
            result.differences.append(SessionComparisonResult.Difference(step: step, what: what, diff: diff))
        }
        /// The type notes of the first session's header (else the second's), read before any diff.
        var headerNotes = EncodedTypeNotes()
        /// The diff of two states, read with the header's type notes, the arrays `identity` names matched by their
        /// members.
        func stateDiff(_ old: JSONValue, _ new: JSONValue) -> StateDiff {
            StateDiff(from: old, to: new, typeNotes: identity.noting([old, new], in: headerNotes))
        }
        do {
            let a = try SessionReader(path: first.path)
            let b = try SessionReader(path: second.path)
            guard case .header(let headerA) = try a.next(), case .header(let headerB) = try b.next() else {
                throw CLIError(.session, "a session without its header line")
            }
            headerNotes = headerA.typeNotes.isEmpty ? headerB.typeNotes : headerA.typeNotes
            let initialB = comparable(headerA.initialState, headerB.initialState, step: 0)
            if headerA.initialState != initialB { differ(0, "initial state", stateDiff(headerA.initialState, initialB)) }
            while result.differences.isEmpty || all {
                let left = try nextAction(a)
                let right = try nextAction(b)
                if left == nil && right == nil { break }
                result.steps += 1
                guard let left, let right else {
                    let (longer, missing) = left == nil ? (second.displayName, first.displayName) : (first.displayName, second.displayName)
                    differ(result.steps, "\(missing) ends here; \(longer) goes on", StateDiff(from: .null, to: .null))
                    break
                }
                let rightAction = comparable(left.action, right.action, step: left.sequence)
                let rightState = comparable(left.state, right.state, step: left.sequence)
                if left.action != rightAction {
                    differ(left.sequence, "action", StateDiff(from: left.action, to: rightAction))
                } else if left.state != rightState {
                    differ(left.sequence, "state after \(left.name.escapingControls())", stateDiff(left.state, rightState))
                }
            }
            // A verdict needs both files whole: the rest is read, so a broken line after a difference is still exit 2.
            while try a.next() != nil {}
            while try b.next() != nil {}
        } catch let error as CLIError {
            throw error
        } catch let error as SessionReadError {
            throw CLIError(error)
        } catch {
            throw CLIError(.session, "\(error)")
        }
        return result
    }

    private static func nextAction(_ reader: SessionReader) throws -> ActionEvent? {
        while let event = try reader.next() {
            if case .action(let action) = event { return action }
        }
        return nil
    }
}
