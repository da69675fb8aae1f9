import Foundation
import StoreKitJSON
import Testing

@testable import ReplayCommands

/// The server's answers to single lines: negotiation, the tool list, a call, and every kind of bad message as a
/// JSON-RPC error (never a crash, never an answer to a notification).
@Suite struct McpServerTests {
    private static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// A sample session, by its absolute path.
    private static let counter = packageRoot + "/samples/sessions/counter-basic.jsonl"

    private let server = McpServer(
        context: CommandContext(terminal: Terminal(useColor: false, showProgress: false), environment: [:], currentDirectory: packageRoot),
        reportsFolder: "/tmp/skr-mcp-unused")

    /// The server's response to `line`, as JSON.
    private func respond(_ line: String) -> JSONValue? {
        server.respond(to: Array(line.utf8))?.jsonValue
    }

    /// The error response `line` gets: its id, code and message.
    private func error(_ line: String) throws -> (id: JSONValue?, code: Int64?, message: String?) {
        let response = try #require(respond(line))
        #expect(response["result"] == nil)
        return (response["id"], response["error"]?["code"]?.integerValue, response["error"]?["message"]?.stringValue)
    }

    private func call(_ arguments: String, tool: String = "show") -> String {
        #"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"\#(tool)","arguments":\#(arguments)}}"#
    }

    @Test func agreesOnTheClientsVersionWhenItSpeaksItElseOffersItsNewest() throws {
        let known = try #require(respond(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#))
        #expect(known["id"] == .integer(1))
        #expect(known["result"]?["protocolVersion"] == .string("2024-11-05"))
        #expect(known["result"]?["capabilities"] == .object(["tools": .object(["listChanged": .bool(false)])]))
        let unknown = try #require(respond(#"{"jsonrpc":"2.0","id":"a","method":"initialize","params":{"protocolVersion":"1999-01-01"}}"#))
        #expect(unknown["result"]?["protocolVersion"] == .string(McpServer.protocolVersions[0]))
    }

    @Test func listsEachToolWithAnObjectSchemaOfItsArguments() throws {
        let response = try #require(respond(#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#))
        let tools = try #require(response["result"]?["tools"]?.arrayValue)
        #expect(tools.compactMap { $0["name"]?.stringValue } == ["sessions", "log", "history", "show", "diff", "report"])
        let show = try #require(tools.first { $0["name"] == .string("show") })
        #expect(show["inputSchema"]?["required"] == .array([.string("session")]))
        #expect(show["inputSchema"]?["properties"]?["step"]?["type"] == .string("integer"))
        #expect(show["annotations"]?["readOnlyHint"] == .bool(true))
    }

    @Test func aCallReturnsTheCommandsJSONAsTextAndStructuredContent() throws {
        let response = try #require(respond(call(#"{"session":"\#(Self.counter)","step":2}"#)))
        let result = try #require(response["result"])
        let expected: JSONValue = .object(["step": .integer(2), "action": .string("increment"), "state": .object(["count": .integer(2), "step": .integer(1)])])
        #expect(result["structuredContent"] == expected)
        #expect(result["content"] == .array([.object(["type": .string("text"), "text": .string(expected.prettyString() + "\n")])]))
        #expect(result["isError"] == .bool(false))
    }

    @Test func aCommandThatFailsIsAToolResultMarkedAsAnError() throws {
        let response = try #require(respond(call(#"{"session":"/tmp/skr-no-such-session.jsonl"}"#)))
        #expect(response["error"] == nil)
        #expect(response["result"]?["isError"] == .bool(true))
        let text = try #require(response["result"]?["content"]?.arrayValue?.first?["text"]?.stringValue)
        let document = try JSONParser().parse(Array(text.utf8))
        #expect(document["exitStatus"] == .integer(2))
        #expect(document["file"] == .string("/tmp/skr-no-such-session.jsonl") || document["message"]?.stringValue?.contains("skr-no-such-session") == true)
    }

    @Test(arguments: [
        ("{\"jsonrpc\":", nil, -32700, "the line is not JSON"),
        ("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]", nil, -32600, "the message is a batch"),
        ("{\"id\":3,\"method\":\"ping\"}", 3, -32600, "the message lacks \"jsonrpc\": \"2.0\""),
        ("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"resources/list\"}", 4, -32601, "no method 'resources/list'"),
        ("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":[1]}", 5, -32602, "\"params\" of 'tools/call' must be an object"),
        ("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"name\":\"rm\"}}", 6, -32602, "no tool 'rm'"),
    ] as [(String, Int?, Int64, String)])
    func aBadMessageIsAJSONRPCError(_ line: String, id: Int?, code: Int64, message: String) throws {
        let found = try error(line)
        #expect(found.id == id.map { .integer(Int64($0)) } ?? .null)
        #expect(found.code == code)
        #expect(found.message?.hasPrefix(message) == true, "\(found.message ?? "no message")")
    }

    @Test(arguments: [
        (#"{}"#, "tool 'show' needs the argument 'session'"),
        (#"{"session":"\#(Self.counter)","host":"rm -rf /"}"#, "tool 'show' takes no argument 'host'"),
        (#"{"session":"\#(Self.counter)","step":"2"}"#, "'step' of tool 'show' must be an integer, not a string"),
        (#"{"session":"-"}"#, "'session' must name a file: standard input is the server's transport"),
        (#"{"session":"\#(Self.counter)","step":-1}"#, "tool 'show': option '--step' needs"),
    ])
    func badArgumentsAreInvalidParams(_ arguments: String, message: String) throws {
        let found = try error(call(arguments))
        #expect(found.id == .integer(7))
        #expect(found.code == -32602)
        #expect(found.message?.hasPrefix(message) == true, "\(found.message ?? "no message")")
    }

    @Test func notificationsAndResponsesGetNoAnswer() {
        #expect(respond(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#) == nil)
        #expect(respond(#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#) == nil)
        #expect(respond(#"{"jsonrpc":"2.0","id":9,"result":{}}"#) == nil)
    }
}
