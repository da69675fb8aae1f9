import StoreKitCore
import StoreKitJSON

/// A validator for the subset of JSON Schema (draft 2020-12) that the session schema uses.
///
/// Supported keywords: `$ref` (to `#/$defs/...`), `oneOf`, `type`, `const`, `enum`, `properties`, `required`,
/// `additionalProperties` (a boolean), `items`, `minimum` and `minLength`. Other keywords are ignored, so use it
/// for schemas written with this subset in mind, such as ``SessionSchema``.
public struct JSONSchema: Sendable {
    /// One way a value breaks the schema.
    public struct Violation: Sendable, Hashable, CustomStringConvertible {
        /// Where, as a JSON path such as `app.name`; empty for the value itself.
        public var path: String
        /// What is wrong.
        public var message: String

        /// `path: message`, or the message alone at the root.
        public var description: String { path.isEmpty ? message : "\(path): \(message)" }
    }

    /// The schema document.
    public let document: JSONValue
    /// The document's definitions by the reference that names them (`#/$defs/name`), found once.
    private let definitions: [String: JSONValue]

    /// Creates a validator for `document`.
    public init(_ document: JSONValue) {
        self.document = document
        var definitions: [String: JSONValue] = [:]
        for (name, definition) in document["$defs"]?.objectValue ?? [:] { definitions["#/$defs/" + name] = definition }
        self.definitions = definitions
    }

    /// Every violation of the schema by `value`; empty when it is valid.
    ///
    /// A valid value is only tested (``isValid(_:against:)``, which stops at the first thing wrong and words
    /// nothing); the violations, with their paths and messages, are worked out only for a value that is not.
    public func validate(_ value: JSONValue) -> [Violation] {
        if isValid(value, against: document) { return [] }
        var violations: [Violation] = []
        check(value, against: document, path: "", into: &violations)
        return violations
    }

    /// Whether `value` meets `schema`: exactly when ``check(_:against:path:into:)`` finds no violation.
    private func isValid(_ value: JSONValue, against schema: JSONValue) -> Bool {
        guard case .object(let keywords) = schema else { return true }
        if let reference = keywords["$ref"]?.stringValue {
            guard let target = resolve(reference), isValid(value, against: target) else { return false }
        }
        if let branches = keywords["oneOf"]?.arrayValue, branches.count(where: { isValid(value, against: $0) }) != 1 {
            return false
        }
        if let type = keywords["type"], !matches(value, type: type) { return false }
        if let constant = keywords["const"], constant != value { return false }
        if let allowed = keywords["enum"]?.arrayValue, !allowed.contains(value) { return false }
        if let minimum = keywords["minimum"]?.doubleValue, let number = value.doubleValue, number < minimum {
            return false
        }
        if let minimum = keywords["minLength"]?.integerValue, case .string(let string) = value,
            string.count < minimum
        {
            return false
        }
        if case .object(let members) = value {
            for name in keywords["required"]?.arrayValue ?? [] {
                if let name = name.stringValue, members[exactKey: name] == nil { return false }
            }
            let properties = keywords["properties"]?.objectValue ?? [:]
            let closed = keywords["additionalProperties"] == .bool(false)
            for (name, member) in members {
                if let property = properties[name] {
                    if !isValid(member, against: property) { return false }
                } else if closed {
                    return false
                }
            }
        }
        if case .array(let elements) = value, let items = keywords["items"] {
            return elements.allSatisfy { isValid($0, against: items) }
        }
        return true
    }

    private func check(_ value: JSONValue, against schema: JSONValue, path: String, into out: inout [Violation]) {
        guard case .object(let keywords) = schema else { return }
        if let reference = keywords["$ref"]?.stringValue {
            guard let target = resolve(reference) else {
                out.append(Violation(path: path, message: "the schema's $ref '\(reference)' does not resolve"))
                return
            }
            check(value, against: target, path: path, into: &out)
        }
        if let branches = keywords["oneOf"]?.arrayValue {
            checkOneOf(value, branches, path: path, into: &out)
        }
        if let type = keywords["type"], !matches(value, type: type) {
            out.append(Violation(path: path, message: "expected \(describe(type)), found \(value.typeName)"))
            return
        }
        if let constant = keywords["const"], constant != value {
            out.append(Violation(path: path, message: "expected \(constant.canonicalString), found \(value.canonicalString)"))
        }
        if let allowed = keywords["enum"]?.arrayValue, !allowed.contains(value) {
            let list = allowed.map(\.canonicalString).joined(separator: ", ")
            out.append(Violation(path: path, message: "expected one of \(list), found \(value.canonicalString)"))
        }
        if let minimum = keywords["minimum"]?.doubleValue, let number = value.doubleValue, number < minimum {
            out.append(Violation(path: path, message: "\(value.canonicalString) is less than the minimum \(minimum)"))
        }
        if let minimum = keywords["minLength"]?.integerValue, case .string(let string) = value,
            string.count < minimum
        {
            out.append(Violation(path: path, message: "is shorter than \(minimum) characters"))
        }
        if case .object(let members) = value {
            checkObject(members, keywords, path: path, into: &out)
        }
        if case .array(let elements) = value, let items = keywords["items"] {
            for (index, element) in elements.enumerated() {
                check(element, against: items, path: "\(path)[\(index)]", into: &out)
            }
        }
    }

    private func checkObject(
        _ members: [String: JSONValue], _ keywords: [String: JSONValue], path: String, into out: inout [Violation]
    ) {
        let properties = keywords["properties"]?.objectValue ?? [:]
        for name in keywords["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where members[exactKey: name] == nil {
            out.append(Violation(path: join(path, name), message: "is required but missing"))
        }
        for (name, member) in members.sorted(by: { $0.key < $1.key }) {
            if let property = properties[name] {
                check(member, against: property, path: join(path, name), into: &out)
            } else if keywords["additionalProperties"] == .bool(false) {
                out.append(Violation(path: join(path, name), message: "is not a known field"))
            }
        }
    }

    private func checkOneOf(_ value: JSONValue, _ branches: [JSONValue], path: String, into out: inout [Violation]) {
        let passing = branches.count { isValid(value, against: $0) }
        if passing == 1 { return }
        if passing > 1 {
            out.append(Violation(path: path, message: "matches \(passing) alternatives of oneOf; expected exactly one"))
            return
        }
        // Report the alternative that came closest: it is almost always the one the writer meant.
        let results = branches.map { branch in
            var branchViolations: [Violation] = []
            check(value, against: branch, path: path, into: &branchViolations)
            return branchViolations
        }
        out.append(contentsOf: results.min(by: { $0.count < $1.count }) ?? [])
    }

    private func resolve(_ reference: String) -> JSONValue? {
        if let definition = definitions[reference] { return definition }
        guard reference.hasPrefix("#/") else { return nil }
        var node = document
        for part in reference.dropFirst(2).split(separator: "/") {
            guard let next = node[String(part)] else { return nil }
            node = next
        }
        return node
    }

    private func matches(_ value: JSONValue, type: JSONValue) -> Bool {
        if case .array(let types) = type { return types.contains { matches(value, type: $0) } }
        switch (type.stringValue, value) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object):
            return true
        case ("integer", .integer), ("integer", .unsignedInteger), ("integer", .bigInteger):
            return true
        case ("integer", .double(let number)):
            return number.rounded() == number
        case ("number", .integer), ("number", .unsignedInteger), ("number", .bigInteger), ("number", .double):
            return true
        default:
            return false
        }
    }

    private func describe(_ type: JSONValue) -> String {
        if case .array(let types) = type { return types.compactMap(\.stringValue).joined(separator: " or ") }
        return type.stringValue ?? "?"
    }

    private func join(_ path: String, _ name: String) -> String {
        path.isEmpty ? name : "\(path).\(name)"
    }
}
