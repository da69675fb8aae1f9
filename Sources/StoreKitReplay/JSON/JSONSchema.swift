import StoreKitCore
import StoreKitJSON

/// A validator for the subset of JSON Schema (draft 2020-12) that the session schema uses.
///
/// Supported keywords: `$ref` (to `#/$defs/...`), `oneOf`, `type`, `const`, `enum`, `properties`, `required`,
/// `additionalProperties` (a boolean), `items`, `minimum` and `minLength`. Other keywords are ignored, so use it
/// for schemas written with this subset in mind, such as ``SessionSchema``.
///
/// The document is read once, into a tree of ``JSONSchemaNode``s whose keywords are fields, so a check looks up
/// nothing but the members of the value it checks.
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
    /// The document's schemas, read once; the document itself is the first.
    private let nodes: [JSONSchemaNode]
    /// The index of the document's own node in ``nodes``.
    private static let documentNode = 0

    /// Creates a validator for `document`.
    public init(_ document: JSONValue) {
        self.document = document
        nodes = JSONSchemaNode.read(document)
    }

    /// Every violation of the schema by `value`; empty when it is valid.
    ///
    /// A valid value is only tested (``isValid(_:against:)``, which stops at the first thing wrong and words
    /// nothing); the violations, with their paths and messages, are worked out only for a value that is not.
    public func validate(_ value: JSONValue) -> [Violation] {
        if isValid(value, against: Self.documentNode) { return [] }
        var findings = Findings(violations: [])
        _ = check(value, against: Self.documentNode, path: "", into: &findings)
        return findings.violations ?? []
    }

    /// What ``check(_:against:path:into:)`` finds: every violation, worded, or only whether there is one.
    private struct Findings {
        /// The violations found so far; `nil` when only whether there is one is asked, and the check stops at the
        /// first without wording it.
        var violations: [Violation]?
        /// Whether a violation was found.
        var found = false

        /// Whether violations are worded, and the check goes on after one.
        var words: Bool { violations != nil }

        /// Records a violation at `path`, wording it only when violations are worded.
        /// - Returns: Whether the check goes on.
        mutating func add(_ path: @autoclosure () -> String, _ message: @autoclosure () -> String) -> Bool {
            found = true
            violations?.append(Violation(path: path(), message: message()))
            return words
        }
    }

    /// Whether `value` meets schema `index`: checked without wording anything, up to the first violation.
    private func isValid(_ value: JSONValue, against index: Int) -> Bool {
        var findings = Findings(violations: nil)
        _ = check(value, against: index, path: "", into: &findings)
        return !findings.found
    }

    /// Checks `value` against schema `index` at `path`, adding what is wrong to `out`.
    /// - Returns: Whether the check goes on: false once `out` has found what it asks for.
    private func check(_ value: JSONValue, against index: Int, path: String, into out: inout Findings) -> Bool {
        let node = nodes[index]
        switch node.keywords.reference {
        case .none: break
        case .resolved(let target):
            if !check(value, against: target, path: path, into: &out) { return false }
        case .unresolved(let reference):
            return out.add(path, "the schema's $ref '\(reference)' does not resolve")
        }
        if let branches = node.keywords.oneOf, !checkOneOf(value, branches, path: path, into: &out) {
            return false
        }
        if let type = node.keywords.type, !type.matches(value) {
            return out.add(path, "expected \(type.description), found \(value.typeName)")
        }
        if let constant = node.keywords.constant, constant != value,
            !out.add(path, "expected \(constant.canonicalString), found \(value.canonicalString)")
        {
            return false
        }
        if let allowed = node.keywords.allowed, !allowed.contains(value),
            !out.add(
                path, "expected one of \(allowed.map(\.canonicalString).joined(separator: ", ")), found \(value.canonicalString)")
        {
            return false
        }
        if let minimum = node.keywords.minimum, let number = value.doubleValue, number < minimum,
            !out.add(path, "\(value.canonicalString) is less than the minimum \(minimum)")
        {
            return false
        }
        if let minimum = node.keywords.minLength, case .string(let string) = value,
            string.count < minimum, !out.add(path, "is shorter than \(minimum) characters")
        {
            return false
        }
        if case .object(let members) = value, !checkObject(members, node, path: path, into: &out) {
            return false
        }
        if case .array(let elements) = value, let items = node.keywords.items {
            for (index, element) in elements.enumerated() {
                if !check(element, against: items, path: out.words ? "\(path)[\(index)]" : "", into: &out) { return false }
            }
        }
        return true
    }

    private func checkObject(
        _ members: [String: JSONValue], _ node: JSONSchemaNode, path: String, into out: inout Findings
    ) -> Bool {
        if !out.words {
            // Only whether: the members a constant decides first (a line's `kind`), so a `oneOf` branch for
            // another kind of object is turned away at once.
            for (name, property) in node.keywords.constantProperties {
                if let member = members[exactKey: name], !check(member, against: property, path: "", into: &out) {
                    return false
                }
            }
        }
        for name in node.keywords.required where members[exactKey: name] == nil {
            if !out.add(join(path, name), "is required but missing") { return false }
        }
        func checkMember(_ name: String, _ member: JSONValue) -> Bool {
            if let property = node.keywords.properties[name] {
                return check(member, against: property, path: out.words ? join(path, name) : "", into: &out)
            }
            return node.keywords.isClosed ? out.add(join(path, name), "is not a known field") : true
        }
        guard out.words else { return members.allSatisfy { checkMember($0.key, $0.value) } }
        // Worded violations come in the members' name order; a test for the first one takes them as they are.
        for (name, member) in members.sorted(by: { $0.key < $1.key }) where !checkMember(name, member) { return false }
        return true
    }

    /// Checks that exactly one of `branches` passes; when none does, adds the violations of the one that came
    /// closest.
    private func checkOneOf(_ value: JSONValue, _ branches: [Int], path: String, into out: inout Findings) -> Bool {
        let passing = branches.count { isValid(value, against: $0) }
        if passing == 1 { return true }
        if passing > 1 { return out.add(path, "matches \(passing) alternatives of oneOf; expected exactly one") }
        guard out.words else {
            out.found = true
            return false
        }
        // Report the alternative that came closest: it is almost always the one the writer meant.
        let results = branches.map { branch in
            var findings = Findings(violations: [])
            _ = check(value, against: branch, path: path, into: &findings)
            return findings.violations ?? []
        }
        out.violations?.append(contentsOf: results.min(by: { $0.count < $1.count }) ?? [])
        return true
    }

    private func join(_ path: String, _ name: String) -> String {
        path.isEmpty ? name : "\(path).\(name)"
    }
}
