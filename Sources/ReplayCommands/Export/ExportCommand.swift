import CommandLineOptions
import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// `replay-cli export SESSION --format redux-devtools -o FILE`: writes a session in another tool's format, for
/// people who read sessions there. Reads the session only; no replay host runs.
enum ExportCommand: Command {
    /// The formats, as `--format` spells them.
    enum Format: String, CaseIterable, Sendable {
        /// Redux DevTools' lifted state (``ReduxDevToolsLiftedState``).
        case reduxDevTools = "redux-devtools"
    }

    /// `--format <format>`.
    static let format = Option<Format>.choice(
        "--format", valueName: "<format>", help: "the format to write: redux-devtools (Redux DevTools' lifted state, for its Import)\n(required)").required()
    /// `-o <file>`.
    static let output = Option<String>.string("-o", valueName: "<file>", help: "the file to write (required)").required()

    static let command = CommandDescription(
        name: "replay-cli export",
        abstract: "Write a session in another tool's format: Redux DevTools' lifted state, which its extension and app import.",
        arguments: [ArgumentDeclaration("<session>", help: "a recorded session (.jsonl), or '-' for standard input")],
        options: [format.declaration, output.declaration, SharedOptions.json.declaration],
        discussion: """
            redux-devtools: one entry per action, its type the action's name as log shows it and its JSON beside \
            it, and the recorded state after it; the first entry is @@INIT with the initial state, and a gap is a \
            @@GAP entry naming the lost steps (or the kept ones, with their actions), the state unchanged. Import \
            the file in the DevTools inspector \
            (extension or standalone app). Reads the session only; no replay host runs.
            """)

    static func run(_ parsed: ParsedCommandLine, _ context: CommandContext) throws(CLIError) -> ExitStatus {
        guard parsed.value(of: format) != nil else {
            throw CLIError("missing --format (one of: \(Format.allCases.map(\.rawValue).joined(separator: ", ")))", usage: command.usage)
        }
        guard let path = parsed.value(of: output) else { throw CLIError("missing -o <file>, the file to write", usage: command.usage) }
        let session = try SessionInput(parsed.positionals[0])
        defer { session.cleanUp() }
        let lifted = ReduxDevToolsLiftedState(try session.readWhole())
        let bytes = Array(lifted.jsonValue.canonicalString.utf8) + [UInt8(ascii: "\n")]
        let target = path.hasPrefix("/") ? path : context.currentDirectory + "/" + path
        try ExportedFile.write(bytes, to: target)
        context.terminal.present(
            ExportedSession(
                file: path, source: session.displayName, format: .reduxDevTools, entries: lifted.entries.count,
                gaps: lifted.gaps, bytes: bytes.count),
            json: parsed.isSet(SharedOptions.json))
        return .ok
    }
}
