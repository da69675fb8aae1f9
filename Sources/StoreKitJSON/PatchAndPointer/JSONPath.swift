/// Where a value sits inside a JSON document, written like Swift code: `todos[0].isComplete`.
public struct JSONPath: Hashable, Sendable, CustomStringConvertible, ExpressibleByArrayLiteral {
    /// One step into a document.
    ///
    /// Two steps are equal as JSON says: keys by their code points (`"é"` precomposed is not `"e\u{301}"`, though
    /// Swift's `String` calls them equal), map keys and ids by ``JSONValue``'s equality.
    public enum Component: Hashable, Sendable {
        /// An object member.
        case key(String)
        /// An array element.
        case index(Int)
        /// The value of a dictionary's pair, by its key as canonical JSON: a dictionary whose keys are not strings
        /// is written as an array of alternating keys and values, which ``StateDiff`` compares as a map when told
        /// (see ``EncodedTypeNotes``).
        case mapKey(JSONValue)
        /// The element of an array of identified elements (objects with a unique `id` member), by its `id`:
        /// ``StateDiff`` matches such arrays' elements by identity, so a moved element stays the same element.
        case identified(JSONValue)
        /// A member of a `Set`, by its value: ``StateDiff`` compares the arrays the type notes say are sets (see
        /// ``EncodedTypeNotes``) as sets, so a member added or removed is named by what it is, not where the sorted
        /// elements put it.
        case setMember(JSONValue)
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

    /// The path as a person reads the Swift value: `todos[0].isComplete`; `(root)` for the empty path.
    ///
    /// - A key that is not an identifier is written `["my key"]`, its combining marks as escapes (`["e\u{301}"]`), so
    ///   that two keys that differ only by Unicode normalization print differently.
    /// - An enum case's unlabelled payload, which `Codable` writes as the member `_0` (`{"record": {"_0": …}}`), is
    ///   not written: `record.speakerIndex`, not `record._0.speakerIndex`. The further unlabelled values of a case
    ///   with several (`_1`, `_2`) are written by their position, as in a Swift tuple: `moved.1`. This holds for a
    ///   `_0`/`_1`… member that follows a member (a case's name); elsewhere such a key is written as it is. The
    ///   text of two paths can then be equal (`record._0.x` and `record.x`) where their ``components`` are not.
    /// - A map's key (``Component/mapKey(_:)``) is written as canonical JSON: `counts[key: "3F2504E0-…"]`, combining
    ///   marks escaped as in a key.
    /// - An element matched by its id (``Component/identified(_:)``) is written `syncUps[id: 3]`; a string id made
    ///   only of ASCII letters, digits, `-` and `_` that JSON would not read as another value (a number, `true`,
    ///   `false`, `null`) is written without quotes, as a UUID or a slug reads best:
    ///   `syncUps[id: 3F2504E0-4F89-11D3-9A0C-0305E82C3301].title`; any other id as canonical JSON
    ///   (`[id: "a b"]`, `[id: "42"]`), combining marks escaped as in a key.
    /// - A set's member (``Component/setMember(_:)``) is written as canonical JSON: `tags[member: "synced"]`,
    ///   combining marks escaped as in a key.
    public var description: String {
        if components.isEmpty { return "(root)" }
        var text = ""
        var previous: Component?
        for component in components {
            defer { previous = component }
            switch component {
            case .index(let index):
                text += "[\(index)]"
            case .key(let key):
                if previous?.isKey == true, let position = Self.payloadPosition(key) {
                    if position > 0 { text += ".\(position)" }
                } else if Self.isIdentifier(key) {
                    text += text.isEmpty ? key : ".\(key)"
                } else {
                    text += "[\(JSONValue.string(key).canonicalStringShowingCombiningMarks)]"
                }
            case .mapKey(let key):
                text += "[key: \(key.canonicalStringShowingCombiningMarks)]"
            case .identified(.string(let id)) where Self.readsUnquoted(id):
                text += "[id: \(id)]"
            case .identified(let id):
                text += "[id: \(id.canonicalStringShowingCombiningMarks)]"
            case .setMember(let member):
                text += "[member: \(member.canonicalStringShowingCombiningMarks)]"
            }
        }
        return text
    }

    /// The position of an unlabelled payload's member (`_0` is 0, `_12` is 12), or `nil` for another key.
    private static func payloadPosition(_ key: String) -> Int? {
        let digits = key.utf8.dropFirst()
        guard key.utf8.first == UInt8(ascii: "_"), !digits.isEmpty, digits.count <= 4,
            digits.allSatisfy({ $0 &- 0x30 < 10 }), digits.count == 1 || digits.first != UInt8(ascii: "0")
        else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// Whether a string id can be written without quotes: ASCII letters, digits, `-` and `_` only, and not the
    /// text of a JSON number, `true`, `false` or `null`.
    private static func readsUnquoted(_ id: String) -> Bool {
        let bytes = Array(id.utf8)
        guard !bytes.isEmpty,
            bytes.allSatisfy({ $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0 &- 0x30 < 10 || ($0 | 0x20) &- 0x61 < 26 })
        else { return false }
        return !["true", "false", "null"].contains(id) && !isJSONNumber(bytes)
    }

    /// Whether bytes of letters, digits, `-` and `_` are a JSON number: `-?(0|[1-9][0-9]*)([eE]-?[0-9]+)?`.
    private static func isJSONNumber(_ bytes: [UInt8]) -> Bool {
        var rest = bytes[...]
        if rest.first == UInt8(ascii: "-") { rest = rest.dropFirst() }
        let integer = rest.prefix { $0 &- 0x30 < 10 }
        guard !integer.isEmpty, integer.count == 1 || integer.first != UInt8(ascii: "0") else { return false }
        rest = rest.dropFirst(integer.count)
        if rest.isEmpty { return true }
        guard rest.first == UInt8(ascii: "e") || rest.first == UInt8(ascii: "E") else { return false }
        rest = rest.dropFirst()
        if rest.first == UInt8(ascii: "-") { rest = rest.dropFirst() }
        return !rest.isEmpty && rest.allSatisfy { $0 &- 0x30 < 10 }
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

extension JSONPath.Component {
    /// Whether `lhs` and `rhs` are the same step: keys with the same code points, or equal indices, map keys, ids or
    /// set members.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.key(let left), .key(let right)): JSONValue.sameCodePoints(left, right)
        case (.index(let left), .index(let right)): left == right
        case (.mapKey(let left), .mapKey(let right)): left == right
        case (.identified(let left), .identified(let right)): left == right
        case (.setMember(let left), .setMember(let right)): left == right
        default: false
        }
    }

    /// Hashes the step consistently with ``==(_:_:)``: a key by its code points.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .key(let key):
            hasher.combine(0 as UInt8)
            hasher.combine(JSONValue.string(key))
        case .index(let index):
            hasher.combine(1 as UInt8)
            hasher.combine(index)
        case .mapKey(let key):
            hasher.combine(2 as UInt8)
            hasher.combine(key)
        case .identified(let id):
            hasher.combine(3 as UInt8)
            hasher.combine(id)
        case .setMember(let member):
            hasher.combine(4 as UInt8)
            hasher.combine(member)
        }
    }
}

extension JSONPath.Component {
    /// Whether this is an object member.
    fileprivate var isKey: Bool {
        if case .key = self { return true }
        return false
    }
}

extension JSONPath {
    /// The path of a `Codable` coding path: integer keys become indexes, others members.
    public init(codingPath: [any CodingKey]) {
        self.init(codingPath.map { key in key.intValue.map(Component.index) ?? .key(key.stringValue) })
    }
}
