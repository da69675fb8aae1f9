extension JSONPath {
    /// The path as a JSON Pointer (RFC 6901): `/todos/0/isComplete`; `""` for the whole document.
    ///
    /// In a key, `~` is written `~0` and `/` is written `~1`.
    public var pointer: String {
        var text = ""
        for component in components {
            text += "/"
            text += component.referenceToken
        }
        return text
    }

    /// Reads a JSON Pointer (RFC 6901).
    ///
    /// `""` is the whole document; otherwise each reference token follows a `/`, with `~1` read as `/` and `~0` as
    /// `~` (in that order, so `~01` is `~1`). A token of digits without a leading zero (`0`, `17`) becomes an
    /// ``Component/index(_:)``, which addresses an array element and equally an object member of that name; every
    /// other token, including `-` (the end of an array, for `add`) and `01`, becomes a ``Component/key(_:)``.
    /// - Throws: ``JSONPointerError`` when the text does not start with `/` or holds a `~` not followed by `0` or `1`.
    public init(pointer: String) throws(JSONPointerError) {
        var components: [Component] = []
        if !pointer.isEmpty {
            guard pointer.utf8.first == UInt8(ascii: "/") else {
                throw JSONPointerError(pointer: pointer, reason: .missingLeadingSlash)
            }
            for token in pointer.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
                components.append(try Self.component(token, in: pointer))
            }
        }
        self.init(components)
    }

    private static func component(_ token: Substring.UTF8View, in pointer: String) throws(JSONPointerError) -> Component {
        guard token.contains(UInt8(ascii: "~")) else {
            if let index = arrayIndex(token) { return .index(index) }
            return .key(String(Substring(token)))
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(token.count)
        var position = token.startIndex
        while position != token.endIndex {
            let byte = token[position]
            position = token.index(after: position)
            guard byte == UInt8(ascii: "~") else {
                bytes.append(byte)
                continue
            }
            let next: UInt8? = position == token.endIndex ? nil : token[position]
            switch next {
            case UInt8(ascii: "0")?: bytes.append(UInt8(ascii: "~"))
            case UInt8(ascii: "1")?: bytes.append(UInt8(ascii: "/"))
            default:
                let escape = next.map { _ in String(Substring(token[token.index(before: position)...]).prefix(2)) } ?? "~"
                throw JSONPointerError(pointer: pointer, reason: .invalidEscape(escape: escape, token: String(Substring(token))))
            }
            position = token.index(after: position)
        }
        // An escaped token is never an index: digits need no escape.
        return .key(String(decoding: bytes, as: UTF8.self))
    }

    /// The token's value as an array index: `0`, or ASCII digits without a leading zero that fit in `Int`.
    private static func arrayIndex(_ token: Substring.UTF8View) -> Int? {
        guard let first = token.first, first &- UInt8(ascii: "0") < 10, first != UInt8(ascii: "0") || token.count == 1,
            token.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 })
        else { return nil }
        return Int(Substring(token))
    }
}

extension JSONPath.Component {
    /// The component as one reference token of a JSON Pointer, escaped: `~` as `~0` and `/` as `~1`.
    var referenceToken: String {
        switch self {
        case .index(let index):
            return String(index)
        case .key, .mapKey, .identified, .setMember:
            let key = memberName
            guard key.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return key }
            var escaped = ""
            for character in key.unicodeScalars {
                switch character {
                case "~": escaped += "~0"
                case "/": escaped += "~1"
                default: escaped.unicodeScalars.append(character)
                }
            }
            return escaped
        }
    }

    /// The token as its unescaped text, the name of an object member: `3` for `.index(3)`.
    var memberName: String {
        switch self {
        case .index(let index): String(index)
        case .key(let key): key
        // No pointer names a map's pair by its key, an element by its id or a set's member by its value; their
        // canonical JSON stands in (a patch never holds one).
        case .mapKey(let key): key.canonicalString
        case .identified(let id): id.canonicalString
        case .setMember(let member): member.canonicalString
        }
    }
}
