import StoreKitJSON

/// A JSON-RPC 2.0 message the client sent: a request (with an `id`, answered) or a notification (without, never
/// answered). A response the client sent (to a request of ours; this server sends none) is ignored.
struct JSONRPCMessage {
    /// The request's id (a string or a number), `nil` for a notification.
    var id: JSONValue?
    /// The method's name, such as `tools/call`.
    var method: String
    /// The parameters, an object when given.
    var params: [String: JSONValue]

    /// Whether the sender expects a response.
    var isRequest: Bool { id != nil }

    /// Reads one message from the JSON value of a line.
    /// - Returns: `nil` for a response from the client.
    /// - Throws: ``JSONRPCMessageError`` when the value is not a JSON-RPC 2.0 message (invalid request) or its
    ///   `params` is not an object (invalid params), with the request's id when it had a usable one.
    static func read(_ value: JSONValue) throws(JSONRPCMessageError) -> JSONRPCMessage? {
        guard case .object(let members) = value else {
            let what = value.arrayValue != nil ? "a batch (a JSON array): send one message per line" : "a JSON \(value.typeName), not an object"
            throw JSONRPCMessageError(id: nil, error: JSONRPCError(.invalidRequest, "the message is \(what)"))
        }
        let id = members["id"]
        let usableID: JSONValue? = switch id {
        case .string, .integer, .unsignedInteger: id
        default: nil
        }
        func invalid(_ message: String) -> JSONRPCMessageError {
            JSONRPCMessageError(id: usableID, error: JSONRPCError(.invalidRequest, message))
        }
        guard members["jsonrpc"] == .string("2.0") else { throw invalid("the message lacks \"jsonrpc\": \"2.0\"") }
        if id != nil, usableID == nil { throw invalid("\"id\" must be a string or an integer") }
        guard let method = members["method"] else {
            if members["result"] != nil || members["error"] != nil { return nil }
            throw invalid("the message has no \"method\"")
        }
        guard let name = method.stringValue else { throw invalid("\"method\" must be a string") }
        var params: [String: JSONValue] = [:]
        switch members["params"] {
        case nil: break
        case .object(let object)?: params = object
        case let other?:
            throw JSONRPCMessageError(
                id: usableID, error: JSONRPCError(.invalidParams, "\"params\" of '\(name)' must be an object, not a JSON \(other.typeName)"))
        }
        return JSONRPCMessage(id: usableID, method: name, params: params)
    }
}

/// A message that could not be read, with the id its error response carries (`null` when it had none).
struct JSONRPCMessageError: Error {
    /// The id of the request, when it had a usable one.
    var id: JSONValue?
    /// What is wrong.
    var error: JSONRPCError
}
