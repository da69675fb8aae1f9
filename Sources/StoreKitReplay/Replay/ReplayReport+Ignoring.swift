import StoreKitCore
import StoreKitJSON

extension IgnoredPattern {
    /// The pattern's findings as JSON: `{"pattern", "steps", "firstStep", "firstPath", "firstPathText"}`, the path
    /// as components (as a change's are) and as text.
    public var jsonValue: JSONValue {
        .object([
            "pattern": .string(pattern), "steps": .integer(Int64(steps)), "firstStep": .integer(Int64(firstStep)),
            "firstPath": firstPath.componentsJSON, "firstPathText": .string(firstPath.description),
        ])
    }

    /// Reads findings written by ``jsonValue``.
    /// - Throws: ``SessionEventDecodingError`` naming the field that does not fit.
    init(jsonValue: JSONValue) throws(SessionEventDecodingError) {
        guard let pattern = jsonValue["pattern"]?.stringValue, let steps = jsonValue["steps"]?.integerValue,
            let firstStep = jsonValue["firstStep"]?.integerValue
        else {
            throw SessionEventDecodingError(path: "ignored[]", message: "needs 'pattern', 'steps' and 'firstStep'")
        }
        self.init(
            pattern: pattern, steps: Int(steps), firstStep: Int(firstStep),
            firstPath: try JSONPath(componentsJSON: jsonValue["firstPath"] ?? .null, at: "ignored[].firstPath"))
    }
}

extension IgnoredDifferences {
    /// The differences as JSON: `{"pattern", "paths": [components…], "pathsText": [text…]}`.
    public var jsonValue: JSONValue {
        .object([
            "pattern": .string(pattern), "paths": .array(paths.map(\.componentsJSON)),
            "pathsText": .array(paths.map { .string($0.description) }),
        ])
    }

    /// Reads differences written by ``jsonValue``.
    /// - Throws: ``SessionEventDecodingError`` naming the field that does not fit.
    init(jsonValue: JSONValue) throws(SessionEventDecodingError) {
        guard let pattern = jsonValue["pattern"]?.stringValue, let paths = jsonValue["paths"]?.arrayValue else {
            throw SessionEventDecodingError(path: "divergences[].ignored[]", message: "needs 'pattern' and 'paths'")
        }
        var read: [JSONPath] = []
        for path in paths { read.append(try JSONPath(componentsJSON: path, at: "divergences[].ignored[].paths[]")) }
        self.init(pattern: pattern, paths: read)
    }
}

extension Array where Element == IgnoredPattern {
    /// Counts the differences one step's comparison ignored, by pattern: a step more for a pattern already seen,
    /// else its first step and place.
    public mutating func note(_ differences: [IgnoredDifferences], step: Int) {
        for difference in differences {
            if let index = firstIndex(where: { $0.pattern == difference.pattern }) {
                self[index].steps += 1
            } else if let path = difference.paths.first {
                append(IgnoredPattern(pattern: difference.pattern, steps: 1, firstStep: step, firstPath: path))
            }
        }
    }
}
