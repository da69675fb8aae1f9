import StoreKitCore
import StoreKitJSON

/// The common edits a migration makes to an old session's JSON (see ``ReplayableStore`` and `docs/migrations.md`),
/// each at every place a ``JSONPathPattern`` names (`nil` for the value itself). As paths print without the `_0` of
/// an enum case's unlabeled payload, a member edit at such a case (`{"rehearse": {"_0": {…}}}` at `rehearse`) edits the
/// payload.
///
/// ```swift
/// migrate: { version, value in
///     guard version == "1", value.kind == .state else { return value.json }
///     return try value.json.addingMember("isPaused", default: .bool(false), at: "timers[*]")
/// }
/// ```
extension JSONValue {
    /// Adds a member with a default value to each object at `path` that lacks it (a field added with a default).
    /// - Throws: ``JSONPathPatternError`` when `path` does not parse.
    public func addingMember(_ name: String, default value: JSONValue, at path: String? = nil) throws(JSONPathPatternError) -> JSONValue {
        try Self.pattern(path).transforming(self) { target in
            target.editingPayload { object in
                guard case .object(var members) = object, members[name] == nil else { return object }
                members[name] = value
                return .object(members)
            }
        }
    }

    /// Renames a member of each object at `path` that has it (a renamed field).
    /// - Throws: ``JSONPathPatternError`` when `path` does not parse.
    public func renamingMember(_ oldName: String, to newName: String, at path: String? = nil) throws(JSONPathPatternError) -> JSONValue {
        try Self.pattern(path).transforming(self) { target in
            target.editingPayload { object in
                guard case .object(var members) = object, let index = members.index(forExactKey: oldName) else { return object }
                let member = members.remove(at: index).value
                members[newName] = member
                return .object(members)
            }
        }
    }

    /// Renames an enum case at `path`: `Codable` writes a case as an object with one member named after it
    /// (`{"timerTick": {}}`, `{"rehearse": {"_0": …}}`), so the value at `path` that is such an object with the old
    /// name gets the new one, its payload unchanged. A case of an enum with a `String` raw value is written as the
    /// string itself, which is renamed too.
    /// - Throws: ``JSONPathPatternError`` when `path` does not parse.
    public func renamingCase(_ oldName: String, to newName: String, at path: String? = nil) throws(JSONPathPatternError) -> JSONValue {
        try Self.pattern(path).transforming(self) { value in
            switch value {
            case .object(let members) where members.count == 1 && members[exactKey: oldName] != nil:
                return .object([newName: members[exactKey: oldName] ?? .object([:])])
            case .string(oldName):
                return .string(newName)
            default:
                return value
            }
        }
    }

    /// `edit` applied to the payload of an object whose only member is `_0` (an unlabeled enum payload), else to
    /// the value itself.
    private func editingPayload(_ edit: (JSONValue) -> JSONValue) -> JSONValue {
        guard case .object(let members) = self, members.count == 1, let payload = members[exactKey: "_0"] else { return edit(self) }
        return .object(["_0": edit(payload)])
    }

    private static func pattern(_ path: String?) throws(JSONPathPatternError) -> JSONPathPattern {
        guard let path else { return .root }
        return try JSONPathPattern(path)
    }
}
