import Foundation
import StoreKitJSON

/// The Model Context Protocol server `replay-cli mcp` runs: it answers one JSON-RPC 2.0 message at a time
/// (`initialize`, `ping`, `tools/list`, `tools/call`; notifications need no answer) with the tools of ``McpTools``.
///
/// A tool runs its command in this process as `--json` runs it, its output captured rather than written to the
/// transport, and returns that document as text content and, from protocol version 2025-06-18 on, as
/// `structuredContent`. A command's usage error is an invalid-params error; any other failure of the command is
/// a result with `isError` holding the error as `--json` prints it. Nothing a client sends crashes the server.
final class McpServer {
    /// The protocol versions this server speaks, newest first.
    static let protocolVersions = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
    /// The first version whose tool results carry `structuredContent`.
    static let structuredContentVersion = "2025-06-18"
    /// The server's name and version in `initialize`.
    static let serverInfo: JSONValue = .object(["name": .string("replay-cli"), "version": .string("0.4.0-dev")])

    /// The methods the server answers.
    enum Method: String {
        case initialize
        case ping
        case toolsList = "tools/list"
        case toolsCall = "tools/call"
    }

    private let context: CommandContext
    private let reportsFolder: String
    /// The version `initialize` agreed on; the newest until then.
    private(set) var protocolVersion = McpServer.protocolVersions[0]

    /// A server whose tools run in `context` (its environment and working directory decide the replay host, as
    /// for the command line) and write report pages into `reportsFolder`.
    init(context: CommandContext, reportsFolder: String) {
        self.context = context
        self.reportsFolder = reportsFolder
    }

    /// The response to one line of the transport, or `nil` when it needs none (a notification, a client's response).
    func respond(to line: [UInt8]) -> JSONRPCResponse? {
        let value: JSONValue
        do {
            value = try JSONParser().parse(line)
        } catch {
            return .error(id: nil, JSONRPCError(.parseError, "the line is not JSON: \(error)"))
        }
        let message: JSONRPCMessage
        do {
            guard let read = try JSONRPCMessage.read(value) else { return nil }
            message = read
        } catch {
            return .error(id: error.id, error.error)
        }
        guard let id = message.id else { return nil }
        do {
            return .result(id: id, try answer(message))
        } catch where error.code == .toolFailed {
            // A command that ran and failed is the tool's result, for the model to read, not a protocol error.
            return .result(
                id: id, .object(["content": .array([Self.text(error.data?.prettyString() ?? error.message)]), "isError": .bool(true)]))
        } catch {
            return .error(id: id, error)
        }
    }

    /// The result of a request.
    private func answer(_ message: JSONRPCMessage) throws(JSONRPCError) -> JSONValue {
        guard let method = Method(rawValue: message.method) else {
            throw JSONRPCError(.methodNotFound, "no method '\(message.method)' (this server answers: initialize, ping, tools/list, tools/call)")
        }
        switch method {
        case .initialize:
            return initialize(message.params)
        case .ping:
            return .object([:])
        case .toolsList:
            return .object(["tools": .array(McpTools.all.map(\.listing))])
        case .toolsCall:
            guard let name = message.params["name"]?.stringValue else {
                throw JSONRPCError(.invalidParams, "tools/call needs \"name\", the tool's name as a string")
            }
            guard let tool = McpTools.all.first(where: { $0.name == name }) else {
                throw JSONRPCError(.invalidParams, "no tool '\(name)' (tools: \(McpTools.all.map(\.name).joined(separator: ", ")))")
            }
            let arguments: [String: JSONValue]
            switch message.params["arguments"] {
            case nil, .null?: arguments = [:]
            case .object(let object)?: arguments = object
            case let other?: throw JSONRPCError(.invalidParams, "\"arguments\" must be an object, not a JSON \(other.typeName)")
            }
            return try call(tool, arguments)
        }
    }

    /// Agrees on the client's version when this server speaks it, else offers its newest.
    private func initialize(_ params: [String: JSONValue]) -> JSONValue {
        let asked = params["protocolVersion"]?.stringValue
        protocolVersion = asked.flatMap { Self.protocolVersions.contains($0) ? $0 : nil } ?? Self.protocolVersions[0]
        return .object([
            "protocolVersion": .string(protocolVersion),
            "capabilities": .object(["tools": .object(["listChanged": .bool(false)])]),
            "serverInfo": Self.serverInfo,
            "instructions": .string(
                "Read sessions recorded by StoreKit Replay: find them with 'sessions', list a session's actions with 'log', "
                    + "follow a path with 'history', read the state at a step with 'show', replay it with 'diff', "
                    + "write an HTML page with 'report'. Every tool reads only; values are as redacted as the session is."),
        ])
    }

    /// Runs the tool's command with its output captured and returns the `tools/call` result: its `--json`
    /// document (for a report, the page's path and what the command said), and what it wrote to stderr as a
    /// second text block.
    private func call(_ tool: McpTool, _ arguments: [String: JSONValue]) throws(JSONRPCError) -> JSONValue {
        let words = try tool.words(for: arguments)
        switch tool.output {
        case .json(let arrayMember):
            let (capture, _) = try run(tool, ["--json"] + words)
            let document: JSONValue
            do {
                document = try JSONParser().parse(Array(capture.output.utf8))
            } catch {
                throw JSONRPCError(.internalError, "'\(tool.name) --json' wrote no JSON document: \(error)")
            }
            return result(text: capture.output, structured: arrayMember.map { .object([$0: document]) } ?? document, capture)
        case .reportPage:
            let session = arguments["session"]?.stringValue ?? "session"
            let name = URL(fileURLWithPath: session).deletingPathExtension().lastPathComponent
            let path = URL(fileURLWithPath: reportsFolder).appendingPathComponent("\(name).html").path
            do {
                try FileManager.default.createDirectory(
                    atPath: reportsFolder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw JSONRPCError(.internalError, "cannot make the reports folder '\(reportsFolder)': \(error.localizedDescription)")
            }
            let (capture, status) = try run(tool, ["-o", path] + words)
            let structured: JSONValue = .object([
                "file": .string(path), "exitStatus": .integer(Int64(status.code)), "said": .string(capture.output),
            ])
            return result(text: structured.prettyString(), structured: structured, capture)
        }
    }

    /// Runs the tool's command on `words` with its output captured.
    /// - Throws: ``JSONRPCError``: invalid params for a usage error, `toolFailed` for any other failure.
    private func run(_ tool: McpTool, _ words: [String]) throws(JSONRPCError) -> (TerminalCapture, ExitStatus) {
        let capture = TerminalCapture()
        var context = context
        context.terminal = Terminal(capturingIn: capture)
        switch tool.command.execute(words, context) {
        case .success(let status):
            return (capture, status)
        case .failure(let error) where error.kind == .usage:
            throw JSONRPCError(.invalidParams, "tool '\(tool.name)': \(error.description)", data: error.jsonValue)
        case .failure(let error):
            throw JSONRPCError(.toolFailed, error.text, data: error.jsonValue)
        }
    }

    /// A successful tool result.
    private func result(text: String, structured: JSONValue, _ capture: TerminalCapture) -> JSONValue {
        var content = [Self.text(text)]
        if !capture.errors.isEmpty { content.append(Self.text(capture.errors)) }
        var result: [String: JSONValue] = ["content": .array(content), "isError": .bool(false)]
        if protocolVersion >= Self.structuredContentVersion { result["structuredContent"] = structured }
        return .object(result)
    }

    /// A text content block.
    private static func text(_ text: String) -> JSONValue {
        .object(["type": .string("text"), "text": .string(text)])
    }
}
