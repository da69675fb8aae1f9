import StoreKitJSON

/// One schema of a ``JSONSchema`` document with the keywords the validator supports read into fields, and the
/// schemas it names (through `$ref`, `oneOf`, `properties` and `items`) as indices into the document's list. A class,
/// so a check reaches a node's fields through one reference instead of copying them.
final class JSONSchemaNode: Sendable {
    /// Where a `$ref` leads.
    enum Reference: Sendable {
        /// No `$ref`.
        case none
        /// The schema it names.
        case resolved(Int)
        /// A reference that names nothing in the document.
        case unresolved(String)
    }

    /// Its keywords.
    let keywords: Keywords

    private init(_ keywords: Keywords) {
        self.keywords = keywords
    }

    /// The keywords a node holds, read from its schema.
    struct Keywords: Sendable {
        /// Its `$ref`.
        var reference = Reference.none
        /// Its `oneOf` branches.
        var oneOf: [Int]?
        /// Its `type`.
        var type: JSONSchemaType?
        /// Its `const`.
        var constant: JSONValue?
        /// Its `enum`.
        var allowed: [JSONValue]?
        /// Its `minimum`.
        var minimum: Double?
        /// Its `minLength`.
        var minLength: Int?
        /// Its `properties`, by name.
        var properties: [String: Int] = [:]
        /// The properties whose schema holds a `const` (directly), which decide at once whether an object can
        /// match.
        var constantProperties: [(name: String, node: Int)] = []
        /// Its `required` members.
        var required: [String] = []
        /// Whether `additionalProperties` is `false`.
        var isClosed = false
        /// Its `items`.
        var items: Int?
    }

    /// The schemas of `document`, the document itself first; each `$ref` is read once, however often it is named,
    /// so a schema that refers to itself is read once too.
    static func read(_ document: JSONValue) -> [JSONSchemaNode] {
        var reader = Reader(document: document)
        _ = reader.node(document)
        return reader.nodes.map(JSONSchemaNode.init)
    }

    /// Reads a document's schemas into nodes.
    private struct Reader {
        let document: JSONValue
        var nodes: [Keywords] = []
        /// The node each `$ref` was read into.
        var referenced: [String: Int] = [:]

        /// Reads `schema` into a new node, and what it names; returns the node's index.
        mutating func node(_ schema: JSONValue) -> Int {
            let index = nodes.count
            nodes.append(Keywords())
            guard case .object(let keywords) = schema else { return index }
            var node = Keywords()
            if let reference = keywords["$ref"]?.stringValue {
                node.reference = resolve(reference)
            }
            if let branches = keywords["oneOf"]?.arrayValue {
                var read: [Int] = []
                for branch in branches { read.append(self.node(branch)) }
                node.oneOf = read
            }
            node.type = keywords["type"].map(JSONSchemaType.init)
            node.constant = keywords["const"]
            node.allowed = keywords["enum"]?.arrayValue
            node.minimum = keywords["minimum"]?.doubleValue
            node.minLength = keywords["minLength"]?.integerValue.map { Int(clamping: $0) }
            for (name, property) in keywords["properties"]?.objectValue ?? [:] {
                let propertyIndex = self.node(property)
                node.properties[name] = propertyIndex
                if property["const"] != nil { node.constantProperties.append((name, propertyIndex)) }
            }
            node.required = keywords["required"]?.arrayValue?.compactMap(\.stringValue) ?? []
            node.isClosed = keywords["additionalProperties"] == .bool(false)
            if let items = keywords["items"] { node.items = self.node(items) }
            nodes[index] = node
            return index
        }

        /// The node `reference` leads to, read the first time it is named.
        private mutating func resolve(_ reference: String) -> Reference {
            if let index = referenced[reference] { return .resolved(index) }
            guard let target = find(reference) else { return .unresolved(reference) }
            // Noted before it is read, so a schema that names itself leads back to this node.
            let index = nodes.count
            referenced[reference] = index
            return .resolved(node(target))
        }

        /// The schema a `#/...` reference names in the document.
        private func find(_ reference: String) -> JSONValue? {
            guard reference.hasPrefix("#/") else { return nil }
            var node = document
            for part in reference.dropFirst(2).split(separator: "/") {
                guard let next = node[String(part)] else { return nil }
                node = next
            }
            return node
        }
    }
}
