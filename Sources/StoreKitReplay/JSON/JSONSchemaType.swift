import StoreKitJSON

/// A schema's `type`: one type name or a list of them, read once.
struct JSONSchemaType: Sendable {
    /// The JSON Schema type names; any other name matches nothing.
    private enum Name: String {
        case null, boolean, string, array, object, integer, number
    }

    /// The names, `nil` for one that is not a type name.
    private let names: [Name?]
    /// The names as a violation words them: `string or null`.
    let description: String

    /// The type `keyword` names.
    init(_ keyword: JSONValue) {
        if case .array(let types) = keyword {
            names = types.map { $0.stringValue.flatMap(Name.init) }
            description = types.compactMap(\.stringValue).joined(separator: " or ")
        } else {
            names = [keyword.stringValue.flatMap(Name.init)]
            description = keyword.stringValue ?? "?"
        }
    }

    /// Whether `value` is of one of the types.
    func matches(_ value: JSONValue) -> Bool {
        names.contains { name in
            switch (name, value) {
            case (.null, .null), (.boolean, .bool), (.string, .string), (.array, .array), (.object, .object):
                return true
            case (.integer, .integer), (.integer, .unsignedInteger), (.integer, .bigInteger):
                return true
            case (.integer, .double(let number)):
                return number.rounded() == number
            case (.number, .integer), (.number, .unsignedInteger), (.number, .bigInteger), (.number, .double):
                return true
            default:
                return false
            }
        }
    }
}
