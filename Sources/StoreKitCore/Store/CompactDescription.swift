/// A value written the way Swift source writes it, without module-qualified type names:
/// `path(.element(id: 1, action: .rehearse(.saveTapped)))`, where `String(describing:)` prints
/// `path(SampleFeatures.Path.Action.element(id: 1, action: SampleFeatures.Rehearse.Action.saveTapped))`.
///
/// The outermost enum case has no leading dot, nested cases do; strings are quoted; optionals print their value or
/// `nil`; structs print as `Todo(id: 1, title: "Milk")` by their unqualified type name; a type's own
/// `CustomStringConvertible` description (`UUID`, `Date`, numbers) is used as it is; set elements and dictionary
/// entries are sorted so the text is stable.
///
/// ```swift
/// "\(CompactDescription(action))"   // "toggleCompleted(id: 00000000-0000-0000-0000-000000000001)"
/// ```
public struct CompactDescription: CustomStringConvertible, Sendable {
    /// The rendered text.
    public let description: String

    /// Describes `value`.
    public init(_ value: Any) {
        self.description = Self.render(value, isNested: false)
    }

    private static func render(_ value: Any, isNested: Bool) -> String {
        if let string = value as? String { return string.debugDescription }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            guard let wrapped = mirror.children.first?.value else { return "nil" }
            return render(wrapped, isNested: isNested)
        case .collection:
            return "[" + mirror.children.map { render($0.value, isNested: true) }.joined(separator: ", ") + "]"
        case .set:
            return "[" + mirror.children.map { render($0.value, isNested: true) }.sorted().joined(separator: ", ") + "]"
        case .dictionary:
            let entries = mirror.children.map { entry -> String in
                let pair = Array(Mirror(reflecting: entry.value).children)
                guard pair.count == 2 else { return render(entry.value, isNested: true) }
                return render(pair[0].value, isNested: true) + ": " + render(pair[1].value, isNested: true)
            }
            return entries.isEmpty ? "[:]" : "[" + entries.sorted().joined(separator: ", ") + "]"
        case .tuple:
            return "(" + fields(mirror) + ")"
        default:
            break
        }
        if let custom = value as? any CustomStringConvertible { return custom.description }
        switch mirror.displayStyle {
        case .enum:
            let prefix = isNested ? "." : ""
            guard let payload = mirror.children.first, let name = payload.label else {
                return prefix + String(describing: value)
            }
            let payloadMirror = Mirror(reflecting: payload.value)
            let arguments =
                payloadMirror.displayStyle == .tuple ? fields(payloadMirror) : render(payload.value, isNested: true)
            return prefix + name + "(" + arguments + ")"
        case .struct, .class:
            return String(describing: type(of: value)) + "(" + fields(mirror) + ")"
        default:
            return String(describing: value)
        }
    }

    /// `label: value, value` for a tuple's or a type's stored fields (`.0`-style labels are unlabeled).
    private static func fields(_ mirror: Mirror) -> String {
        mirror.children.map { child in
            let value = render(child.value, isNested: true)
            guard let label = child.label, !label.hasPrefix(".") else { return value }
            return label + ": " + value
        }.joined(separator: ", ")
    }
}
