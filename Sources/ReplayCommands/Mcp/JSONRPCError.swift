import StoreKitJSON

/// A JSON-RPC 2.0 error object: its code, message and optional data, as the `error` member of a response.
struct JSONRPCError: Error, Equatable {
    /// The codes JSON-RPC 2.0 reserves, which this server uses.
    enum Code: Int64 {
        /// The line is not JSON.
        case parseError = -32700
        /// The JSON is not a request (or a line is too long, or a batch).
        case invalidRequest = -32600
        /// No such method.
        case methodNotFound = -32601
        /// The method's params are wrong: an unknown tool, a missing or mistyped argument, a value the command refuses.
        case invalidParams = -32602
        /// The server failed where it should not have (a command's JSON output that does not read back).
        case internalError = -32603
        /// A tool's command ran and failed (its input is unreadable, its host failed): never sent as an error
        /// object, but as a tool result with `isError`, which the model reads.
        case toolFailed = -32000
    }

    /// What kind of error.
    var code: Code
    /// One sentence saying what is wrong and where.
    var message: String
    /// More detail: for a command's usage error, its JSON form as `--json` prints it.
    var data: JSONValue?

    /// An error of `code`.
    init(_ code: Code, _ message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    /// The error object.
    var jsonValue: JSONValue {
        var members: [String: JSONValue] = ["code": .integer(code.rawValue), "message": .string(message)]
        if let data { members["data"] = data }
        return .object(members)
    }
}
