import StoreKitCore

extension JSONPatch {
    /// Reads a patch in RFC 6902 form.
    /// - Parameters:
    ///   - jsonValue: The array of operations.
    ///   - path: Where the patch sits in its line, for error messages.
    /// - Throws: ``SessionEventDecodingError`` naming the offending operation's field.
    public init(jsonValue: JSONValue, path: String) throws(SessionEventDecodingError) {
        guard case .array(let elements) = jsonValue else {
            throw SessionEventDecodingError(path: path, message: "expected an array of patch operations, found \(jsonValue.typeName)")
        }
        var operations: [Operation] = []
        for (index, element) in elements.enumerated() {
            let here = "\(path)[\(index)]"
            guard case .string(let op)? = element["op"] else {
                throw SessionEventDecodingError(path: "\(here).op", message: "is missing (expected 'add', 'remove' or 'replace')")
            }
            guard case .string(let pointer)? = element["path"], let target = JSONPath(pointer: pointer) else {
                throw SessionEventDecodingError(path: "\(here).path", message: "is missing or not a JSON Pointer")
            }
            switch (op, element["value"]) {
            case ("add", let value?): operations.append(.add(path: target, value: value))
            case ("replace", let value?): operations.append(.replace(path: target, value: value))
            case ("remove", _): operations.append(.remove(path: target))
            case ("add", nil), ("replace", nil):
                throw SessionEventDecodingError(path: "\(here).value", message: "is missing")
            default:
                throw SessionEventDecodingError(path: "\(here).op", message: "is '\(op)'; expected 'add', 'remove' or 'replace'")
            }
        }
        self.init(operations)
    }
}
