/// Where a value sits inside a JSON document, written like Swift code: `todos[0].isComplete`.
public struct JSONPath: Hashable, Sendable, CustomStringConvertible, ExpressibleByArrayLiteral {
    /// One step into a document.
    public enum Component: Hashable, Sendable {
        /// An object member.
        case key(String)
        /// An array element.
        case index(Int)
        /// The value of a dictionary's pair, by its key as canonical JSON: a dictionary whose keys are not strings
        /// is written as an array of alternating keys and values, which ``StateDiff`` compares as a map when told
        /// (see ``KeyedPairArrays``).
        case mapKey(JSONValue)
        /// The element of an array of identified elements (objects with a unique `id` member), by its `id`:
        /// ``StateDiff`` matches such arrays' elements by identity, so a moved element stays the same element.
        case identified(JSONValue)
    }

    /// The steps from the root.
    public var components: [Component]

    /// Creates a path from its steps.
    public init(_ components: [Component] = []) {
        self.components = components
    }

    /// Creates a path from its steps.
    public init(arrayLiteral elements: Component...) {
        self.components = elements
    }

    /// The path one step further.
    public func appending(_ component: Component) -> JSONPath {
        var longer = self
        longer.components.append(component)
        return longer
    }

    /// `todos[0].isComplete`; `(root)` for the empty path; keys that are not identifiers as `["my key"]`; a map's
    /// key as `counts[key: "3F2504E0-4F89-11D3-9A0C-0305E82C3301"]`, with the key as canonical JSON.
    public var description: String {
        if components.isEmpty { return "(root)" }
        var text = ""
        for component in components {
            switch component {
            case .index(let index):
                text += "[\(index)]"
            case .key(let key) where Self.isIdentifier(key):
                text += text.isEmpty ? key : ".\(key)"
            case .key(let key):
                text += "[\(JSONValue.string(key).canonicalString)]"
            case .mapKey(let key):
                text += "[key: \(key.canonicalString)]"
            case .identified(let id):
                text += "[id: \(id.canonicalString)]"
            }
        }
        return text
    }

    private static func isIdentifier(_ key: String) -> Bool {
        // Most keys are ASCII: letters, digits and `_` by their bytes, without a look at Unicode's properties.
        if let first = key.utf8.first, key.utf8.allSatisfy({ $0 < 0x80 }) {
            return first &- 0x30 >= 10 && key.utf8.allSatisfy { $0 == UInt8(ascii: "_") || $0 &- 0x30 < 10 || ($0 | 0x20) &- 0x61 < 26 }
        }
        guard let first = key.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
        return key.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }
}

extension JSONPath {
    /// The path of a `Codable` coding path: integer keys become indexes, others members.
    public init(codingPath: [any CodingKey]) {
        self.init(codingPath.map { key in key.intValue.map(Component.index) ?? .key(key.stringValue) })
    }
}
