import StoreKitCore
import StoreKitJSON

extension JSONValue {
    /// The value at `path` (members, indices, identified elements and map keys as ``StateDiff`` names them); `nil`
    /// when there is none.
    package func value(at path: JSONPath) -> JSONValue? {
        var value = self
        for component in path.components {
            guard let next = value.child(component) else { return nil }
            value = next
        }
        return value
    }

    /// This value with `replacement` at `path`, which must exist; `nil` when it does not.
    package func replacing(at path: JSONPath, with replacement: JSONValue) -> JSONValue? {
        guard let component = path.components.first else { return replacement }
        guard let child = child(component),
            let newChild = child.replacing(at: JSONPath(Array(path.components.dropFirst())), with: replacement)
        else { return nil }
        switch (self, component) {
        case (.object(var members), .key(let key)):
            members[key] = newChild
            return .object(members)
        case (.array(var elements), _):
            guard let index = elementIndex(component) else { return nil }
            elements[index] = newChild
            return .array(elements)
        default:
            return nil
        }
    }

    private func child(_ component: JSONPath.Component) -> JSONValue? {
        switch (self, component) {
        case (.object(let members), .key(let key)): return members[exactKey: key]
        case (.array(let elements), _): return elementIndex(component).map { elements[$0] }
        default: return nil
        }
    }

    /// The index in this array of the element `component` names (for a map key, the index of its value).
    private func elementIndex(_ component: JSONPath.Component) -> Int? {
        guard case .array(let elements) = self else { return nil }
        switch component {
        case .index(let index): return elements.indices.contains(index) ? index : nil
        case .identified(let id): return elements.firstIndex { $0["id"] == id }
        case .setMember(let member): return elements.firstIndex(of: member)
        case .mapKey(let key):
            return stride(from: 0, to: elements.count - 1, by: 2).first { elements[$0] == key }.map { $0 + 1 }
        case .key: return nil
        }
    }
}
