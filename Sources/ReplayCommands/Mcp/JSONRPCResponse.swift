import StoreKitJSON

/// A JSON-RPC 2.0 response: a result or an error, for the request with `id` (`null` when the request's id could
/// not be read).
enum JSONRPCResponse {
    /// The method's result.
    case result(id: JSONValue, JSONValue)
    /// The method failed, or the message was not a request.
    case error(id: JSONValue?, JSONRPCError)

    /// The response object.
    var jsonValue: JSONValue {
        switch self {
        case .result(let id, let result):
            .object(["jsonrpc": .string("2.0"), "id": id, "result": result])
        case .error(let id, let error):
            .object(["jsonrpc": .string("2.0"), "id": id ?? .null, "error": error.jsonValue])
        }
    }
}
