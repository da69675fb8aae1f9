import CommandLineOptions
import Foundation
import StoreKitJSON
import StoreKitSystem

/// `replay-cli mcp`: a Model Context Protocol server on stdin and stdout (the stdio transport: one JSON-RPC 2.0
/// message per line), offering the session-reading commands as tools (``McpTools``) until stdin ends.
enum McpCommand: Command {
    /// The longest message line read, in bytes; a longer one is refused with an invalid-request error.
    static let lineLimit = 1 << 20

    /// `--reports <folder>`.
    static let reports = Option<String>.string(
        "--reports", valueName: "<folder>", defaultDescription: "a new folder in the temporary directory",
        help: "where the report tool writes its pages")

    static let command = CommandDescription(
        name: "replay-cli mcp",
        abstract: "Serve the sessions to an AI agent: a Model Context Protocol server on stdin and stdout, its tools read-only.",
        options: [reports.declaration],
        discussion: """
            Tools: sessions, log, history, show, diff, report; each returns what the command's --json prints. \
            diff and report replay through the host the server's environment and working directory name \
            (REPLAY_HOST, or .replay.json under the trust rules of the command line); no tool takes a host or a \
            build command. Register it with an MCP client as the command 'replay-cli mcp', in the folder whose \
            .replay.json it should use (docs/mcp.md). Ends when stdin ends.
            """)

    static func run(_ parsed: ParsedCommandLine, _ context: CommandContext) throws(CLIError) -> ExitStatus {
        let folder = parsed.value(of: reports).map { $0.hasPrefix("/") ? $0 : context.currentDirectory + "/" + $0 }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("replay-cli-mcp-\(UUID().uuidString.prefix(8))").path
        let server = McpServer(context: context, reportsFolder: folder)
        var reader = McpLineReader(limit: lineLimit) { [UInt8](FileHandle.standardInput.availableData) }
        while let line = reader.next() {
            let response: JSONRPCResponse?
            switch line {
            case .line(let bytes):
                if bytes.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { continue }
                response = server.respond(to: bytes)
            case .tooLong(let length):
                response = .error(
                    id: nil, JSONRPCError(.invalidRequest, "a message of \(length) bytes, over the limit of \(lineLimit); it was skipped"))
            }
            guard let response else { continue }
            do {
                try Syscall.writeAll(1, Array(response.jsonValue.canonicalString.utf8) + [UInt8(ascii: "\n")])
            } catch where error.errno == EPIPE {
                // The client closed its end: there is no one left to answer.
                return .ok
            } catch {
                throw CLIError(.output, "cannot answer on stdout: \(error)")
            }
        }
        return .ok
    }
}
