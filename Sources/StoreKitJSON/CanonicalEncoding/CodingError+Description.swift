extension DecodingError {
    /// Where decoding failed, as a JSON path such as `todos[0].isComplete` (empty at the root).
    public var jsonPath: String {
        let path = JSONPath(codingPath: fullCodingPath)
        return path.components.isEmpty ? "" : path.description
    }

    /// One line for people: what was wrong, without the path.
    public var summary: String {
        switch self {
        case .typeMismatch(_, let context):
            if context.debugDescription.hasPrefix("Invalid number of keys found") {
                return "no enum case matches (a case was renamed or removed, or its associated values changed)"
            }
            return context.debugDescription
        case .valueNotFound(_, let context):
            return context.debugDescription
        case .keyNotFound(let key, _):
            return "missing key '\(key.stringValue)'"
        case .dataCorrupted(let context):
            return context.debugDescription
        @unknown default:
            return "\(self)"
        }
    }

    /// The coding path including the missing key of a `keyNotFound` error.
    private var fullCodingPath: [any CodingKey] {
        switch self {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return context.codingPath
        case .keyNotFound(let key, let context):
            return context.codingPath + [key]
        @unknown default:
            return []
        }
    }
}

extension EncodingError {
    /// Where encoding failed, as a JSON path (empty at the root).
    public var jsonPath: String {
        guard case .invalidValue(_, let context) = self, !context.codingPath.isEmpty else { return "" }
        return JSONPath(codingPath: context.codingPath).description
    }

    /// One line for people: what was wrong, without the path.
    public var summary: String {
        guard case .invalidValue(_, let context) = self else { return "\(self)" }
        return context.debugDescription
    }
}
