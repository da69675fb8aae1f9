import StoreKitCore
import StoreKitJSON

extension JSONPatch {
    /// Reads a patch in RFC 6902 form.
    ///
    /// Each operation is an object with `op` and `path`; `add`, `replace` and `test` need `value`, `move` and `copy`
    /// need `from`. Members an operation does not define are ignored, as RFC 6902 requires. Pointers are read
    /// strictly (see ``JSONPath/init(pointer:)``); whether they fit a document is only known when the patch is
    /// applied.
    /// - Parameters:
    ///   - jsonValue: The array of operations.
    ///   - path: Where the patch sits in its line, for error messages.
    /// - Throws: ``SessionEventDecodingError`` naming the offending operation's field, such as `patch[2].value`.
    public init(jsonValue: JSONValue, path: String) throws(SessionEventDecodingError) {
        guard case .array(let elements) = jsonValue else {
            throw SessionEventDecodingError(
                path: path, message: "expected an array of patch operations, found \(jsonValue.typeName)")
        }
        var operations: [Operation] = []
        operations.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            operations.append(try Self.operation(element, at: "\(path)[\(index)]"))
        }
        self.init(operations)
    }

    private static let operationNames = "'add', 'remove', 'replace', 'move', 'copy' or 'test'"

    private static func operation(_ element: JSONValue, at here: String) throws(SessionEventDecodingError) -> Operation {
        guard case .object(let members) = element else {
            throw SessionEventDecodingError(
                path: here, message: "expected a patch operation (an object), found \(element.typeName)")
        }
        let op: String
        switch members["op"] {
        case .string(let name)?:
            op = name
        case nil:
            throw SessionEventDecodingError(path: "\(here).op", message: "is missing (expected \(operationNames))")
        case let other?:
            throw SessionEventDecodingError(path: "\(here).op", message: "expected a string, found \(other.typeName)")
        }
        func pointer(_ key: String) throws(SessionEventDecodingError) -> JSONPath {
            switch members[key] {
            case .string(let text)?:
                do {
                    return try JSONPath(pointer: text)
                } catch {
                    throw SessionEventDecodingError(path: "\(here).\(key)", message: "is not valid: \(error)")
                }
            case nil:
                throw SessionEventDecodingError(
                    path: "\(here).\(key)", message: "is missing (expected a JSON Pointer for '\(op)')")
            case let other?:
                throw SessionEventDecodingError(
                    path: "\(here).\(key)", message: "expected a JSON Pointer string, found \(other.typeName)")
            }
        }
        func value() throws(SessionEventDecodingError) -> JSONValue {
            guard let value = members["value"] else {
                throw SessionEventDecodingError(path: "\(here).value", message: "is missing")
            }
            return value
        }
        switch op {
        case "add": return .add(path: try pointer("path"), value: try value())
        case "remove": return .remove(path: try pointer("path"))
        case "replace": return .replace(path: try pointer("path"), value: try value())
        case "move": return .move(from: try pointer("from"), path: try pointer("path"))
        case "copy": return .copy(from: try pointer("from"), path: try pointer("path"))
        case "test": return .test(path: try pointer("path"), value: try value())
        default:
            throw SessionEventDecodingError(path: "\(here).op", message: "is '\(op.escapingControls())'; expected \(operationNames)")
        }
    }
}
