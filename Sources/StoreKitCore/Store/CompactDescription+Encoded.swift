import StoreKitJSON

extension CompactDescription {
    /// Describes an action from its recorded JSON the way ``init(_:)`` describes the action itself, for readers
    /// that have the JSON and not the Swift type (`replay-cli`): `{"path":{"_0":{"element":{"action":{"rehearse":
    /// {"_0":{"saveTapped":{}}}},"id":1}}}}` named `path.element.rehearse.saveTapped` reads
    /// `path(.element(action: .rehearse(.saveTapped), id: 1))`.
    ///
    /// `Codable` writes an enum case as an object with one member named after the case, holding its payload's labels
    /// (`_0`, `_1` for unlabeled values); the action's name (its case path, see ``ActionName``) says which objects on
    /// the way down are cases, and any other object with one member whose value is `{}` or holds only unlabeled
    /// values reads as a case too. A struct action reads as its name and fields (`SaveAction(id: 3)`); a struct
    /// inside an action, whose type the JSON does not name, reads as Swift writes it where the type is inferred,
    /// `.init(id: 1, title: "Milk")`, and an object whose members could not be properties as a dictionary,
    /// `["a b": 1]`. The JSON does not keep the order of a case's labels, so they come in the
    /// canonical (sorted) order; a `Date` or a `UUID` shows as the JSON holds it (a number, a string): type notes
    /// say where states hold dates, and no notes cover actions.
    ///
    /// A ``RegisteredAction`` is written inside an object named by its registered type: a struct reads as its type
    /// and fields (`{"FetchItems":{}}` named `FetchItems` reads `FetchItems()`; a name that starts with a capital
    /// letter is taken for a type), an enum as the case it wraps. A case path that does not start with the action's
    /// outer case (a session written by hand) is not followed: the outer member reads as the case.
    /// - Parameters:
    ///   - action: The action's JSON.
    ///   - name: Its recorded name: its case path, or a struct action's type name.
    public init(encodedAction action: JSONValue, name: String) {
        var caseNames = name.split(separator: ".").map(String.init)
        var action = action
        if case .object(let members) = action, members.count == 1, let (outer, wrapped) = members.first, outer != caseNames.first,
            case .object(let inner) = wrapped, inner.count == 1, inner.keys.first == caseNames.first
        {
            // A registered enum, inside its type's name: the case it wraps.
            action = wrapped
        }
        if case .object(let members) = action, caseNames.count == 1 {
            let typeName = caseNames[0]
            if let (_, fields) = Self.caseMember(of: members, expected: typeName) {
                if typeName.first?.isUppercase == true {
                    // A registered struct, inside its type's name.
                    description = typeName + "(" + Self.fields(fields, expected: []) + ")"
                    return
                }
            } else {
                // A struct action, named by its type.
                description = typeName + "(" + Self.fields(members, expected: []) + ")"
                return
            }
        }
        if case .object(let members) = action, members.count == 1, let (outer, payload) = members.first, outer != caseNames.first,
            case .object = payload
        {
            caseNames = [outer]
        }
        description = Self.render(action, expected: caseNames[...], isNested: false)
    }

    /// Describes a value from its JSON as ``init(encodedAction:name:)`` describes an action's payload; an object of
    /// one member whose value is an object reads as an enum case, with its leading dot: `{"countingIn":
    /// {"beatsLeft":4}}` reads `.countingIn(beatsLeft: 4)`.
    public init(encodedValue value: JSONValue) {
        let caseName: [String] = if case .object(let members) = value, members.count == 1, let name = members.keys.first { [name] } else { [] }
        description = Self.render(value, expected: caseName[...], isNested: true)
    }

    /// Describes `value` as an enum case, with its leading dot, when its JSON can only be one: an object of one
    /// member holding `{}` or only unlabeled values (`{"ready":{}}` reads `.ready`, `{"failed":{"_0":"offline"}}`
    /// reads `.failed("offline")`); `nil` for any other value, which a struct's JSON could be as well.
    package init?(encodedCase value: JSONValue) {
        guard case .object(let members) = value, Self.caseMember(of: members, expected: nil) != nil else { return nil }
        self.init(encodedValue: value)
    }

    /// The case name and payload of `members` when they are an enum case: one member, an object, named `expected`
    /// or holding nothing or only unlabeled values.
    private static func caseMember(of members: [String: JSONValue], expected: String?) -> (String, [String: JSONValue])? {
        guard members.count == 1, let (name, value) = members.first, case .object(let payload) = value else { return nil }
        guard name == expected || payload.keys.allSatisfy(isUnlabeled) else { return nil }
        return (name, payload)
    }

    private static func render(_ value: JSONValue, expected: ArraySlice<String>, isNested: Bool) -> String {
        switch value {
        case .string(let string):
            return string.debugDescription
        case .null:
            return "nil"
        case .array(let elements):
            return "[" + elements.map { render($0, expected: [], isNested: true) }.joined(separator: ", ") + "]"
        case .object(let members):
            if let (name, payload) = caseMember(of: members, expected: expected.first) {
                let rest = name == expected.first ? expected.dropFirst() : []
                let prefix = isNested ? "." : ""
                return payload.isEmpty ? prefix + name : prefix + name + "(" + fields(payload, expected: rest) + ")"
            }
            return structOrDictionary(members)
        default:
            return value.canonicalString
        }
    }

    /// An object that is not an enum case, as Swift source writes it where its type is known from the context: a
    /// struct as `.init(id: 1, title: "Milk")` when every member is named like a Swift property, else a
    /// `[String: …]` dictionary as `["a b": 1]`. The JSON does not tell a struct from a dictionary whose keys
    /// look like properties (either reads `.init(…)`, and `{}` reads `.init()`, which Swift accepts for both).
    private static func structOrDictionary(_ members: [String: JSONValue]) -> String {
        guard members.keys.allSatisfy(isPropertyName) else {
            let entries = members.keys.sorted { Array($0.utf8).lexicographicallyPrecedes($1.utf8) }.map { key in
                key.debugDescription + ": " + render(members[key] ?? .null, expected: [], isNested: true)
            }
            return "[" + entries.joined(separator: ", ") + "]"
        }
        return ".init(" + fields(members, expected: []) + ")"
    }

    /// Whether `key` could name a Swift property: a letter or `_`, then letters, digits or `_`.
    private static func isPropertyName(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
        return key.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }

    /// `label: value, value` for a payload's or a struct's members: unlabeled values (`_0`, `_1`) first in their
    /// order, then the labels in canonical order.
    private static func fields(_ members: [String: JSONValue], expected: ArraySlice<String>) -> String {
        let keys = members.keys.sorted { left, right in
            switch (unlabeledIndex(left), unlabeledIndex(right)) {
            case (let l?, let r?): l < r
            case (_?, nil): true
            case (nil, _?): false
            case (nil, nil): Array(left.utf8).lexicographicallyPrecedes(right.utf8)
            }
        }
        return keys.map { key in
            let text = render(members[key] ?? .null, expected: expected, isNested: true)
            return isUnlabeled(key) ? text : key + ": " + text
        }.joined(separator: ", ")
    }

    private static func isUnlabeled(_ key: String) -> Bool { unlabeledIndex(key) != nil }

    /// `3` for `_3`, the name `Codable` gives an unlabeled value of a case's payload.
    private static func unlabeledIndex(_ key: String) -> Int? {
        guard key.hasPrefix("_") else { return nil }
        return Int(key.dropFirst())
    }
}
