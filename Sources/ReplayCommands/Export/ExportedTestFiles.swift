import StoreKitJSON

/// What `export-test` wrote: the test file and the trimmed session beside it.
struct ExportedTestFiles {
    /// The test file's path.
    var test: String
    /// The trimmed session's path.
    var session: String
    /// The test type's name.
    var typeName: String
    /// The original steps kept.
    var steps: ClosedRange<Int>
    /// The actions in the trimmed session.
    var actions: Int
    /// How the original session is named.
    var source: String
    /// The trimmed session's file name, which a test target lists in its `exclude:`.
    var sessionFileName: String
}

extension ExportedTestFiles: CommandOutput {
    var jsonValue: JSONValue {
        .object([
            "test": .string(test), "session": .string(session), "type": .string(typeName),
            "firstStep": .integer(Int64(steps.lowerBound)), "lastStep": .integer(Int64(steps.upperBound)),
            "actions": .integer(Int64(actions)),
        ])
    }

    func writeText(to terminal: Terminal) {
        terminal.out(
            "wrote \(test) (\(typeName)) and beside it \(session): steps \(steps.lowerBound)-\(steps.upperBound) of "
                + "\(source), \(actions) action\(actions == 1 ? "" : "s")")
        terminal.err(
            "note: in a test target, list \(sessionFileName) (or its folder) in the target's exclude: in Package.swift, "
                + "or SwiftPM warns that it is unhandled")
    }
}
