import StoreKitCore
import StoreKitJSON

extension JSONPathPattern {
    /// `value` with every place this pattern names replaced by what `transform` makes of it; places the document
    /// does not hold are left alone. The root pattern transforms the whole value.
    /// - Throws: What `transform` throws.
    public func transforming(
        _ value: JSONValue, _ transform: (JSONValue) throws -> JSONValue
    ) rethrows -> JSONValue {
        try transforming(0, value, transform)
    }

    private func transforming(
        _ step: Int, _ value: JSONValue, _ transform: (JSONValue) throws -> JSONValue
    ) rethrows -> JSONValue {
        guard step < components.count else { return try transform(value) }
        switch (components[step], value) {
        case (.key(let key), .object(var members)):
            if let member = members[exactKey: key] {
                members[key] = try transforming(step + 1, member, transform)
            } else if key != "_0", let payload = members[exactKey: "_0"] {
                // An unlabeled enum payload, which paths print without.
                members["_0"] = try transforming(step, payload, transform)
            }
            return .object(members)
        case (.anyMember, .object(var members)), (.anyElement, .object(var members)):
            for (key, member) in members { members[key] = try transforming(step + 1, member, transform) }
            return .object(members)
        case (.index(let index), .array(var elements)) where index < elements.count:
            elements[index] = try transforming(step + 1, elements[index], transform)
            return .array(elements)
        case (.anyElement, .array(var elements)):
            for index in elements.indices { elements[index] = try transforming(step + 1, elements[index], transform) }
            return .array(elements)
        case (.identified(let id), .array(var elements)):
            guard let index = elements.firstIndex(where: { $0["id"] == id }) else { return value }
            elements[index] = try transforming(step + 1, elements[index], transform)
            return .array(elements)
        case (.mapKey(let key), .array(var elements)):
            guard let index = Self.pairValueIndex(of: key, in: elements) else { return value }
            elements[index] = try transforming(step + 1, elements[index], transform)
            return .array(elements)
        default:
            return value
        }
    }
}
