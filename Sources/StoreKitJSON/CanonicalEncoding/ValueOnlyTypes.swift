@_spi(Reflection) import Swift
import Foundation

/// Which types are proven, from their layout alone, to hold values only: nothing in them can change in place while
/// their bits stay the same, so two values of such a type with the same bits have the same contents.
///
/// A type is proven when it is made, all the way down, of structs, tuples and enums whose payloads hold no
/// reference, of the standard library's strings and copy-on-write collections (`String`, `Substring`, `Character`,
/// `Array`, `ContiguousArray`, `ArraySlice`, `Set`, `Dictionary`, `Optional`) of proven types, and of Foundation's
/// `Data` and `URL`. Anything else is not proven: a class instance, an existential, a closure, an enum whose payload
/// holds a reference (the runtime does not list an enum's payload types, so its parts cannot be looked into), or an
/// unsafe pointer. The layout comes from the runtime's field records (`_forEachField`), so the proof is made once
/// per type; a type the runtime cannot list is not proven.
enum ValueOnlyTypes {
    /// Whether `type` is proven to hold values only.
    static func contains<T>(_ type: T.Type) -> Bool {
        var inProgress: [ObjectIdentifier] = []
        return isProven(type, kind: TypeKind.of(type), inProgress: &inProgress)
    }

    /// Whether `type`, of `kind`, holds values only; `inProgress` are the types being proven further up, taken as
    /// proven (a tree of nodes holds an array of nodes: it holds values only when the rest of a node does).
    private static func isProven(
        _ type: any Any.Type, kind: _MetadataKind?, inProgress: inout [ObjectIdentifier]
    ) -> Bool {
        let id = ObjectIdentifier(type)
        if inProgress.contains(id) { return true }
        if let collection = type as? any ValueCollection.Type {
            inProgress.append(id)
            defer { inProgress.removeLast() }
            return collection.elementTypes.allSatisfy { isProven($0, kind: nil, inProgress: &inProgress) }
        }
        if sharedImmutableStorage.contains(id) { return true }
        switch kind ?? TypeKind.of(type) {
        case .struct?, .tuple?:
            var fields: [(type: any Any.Type, kind: _MetadataKind)] = []
            guard _forEachField(of: type, body: { _, _, fieldType, fieldKind in
                fields.append((fieldType, fieldKind))
                return true
            }) else { return false }
            inProgress.append(id)
            defer { inProgress.removeLast() }
            return fields.allSatisfy { isProven($0.type, kind: $0.kind, inProgress: &inProgress) }
        case .enum?, .optional?, .opaque?:
            // No reference in any payload, and not a raw pointer (the field every unsafe pointer holds).
            return isPlainData(type) && _typeName(type) != "Builtin.RawPointer"
        default:
            return false
        }
    }

    /// Whether values of `T` are plain data: copied bit for bit, with no reference to count.
    private static func isPlainData<T>(_: T.Type) -> Bool {
        _isPOD(T.self)
    }

    /// The types whose storage is shared between copies and never changed in place while shared.
    private static let sharedImmutableStorage: Set<ObjectIdentifier> = [
        ObjectIdentifier(String.self), ObjectIdentifier(Substring.self), ObjectIdentifier(Character.self),
        ObjectIdentifier(Data.self), ObjectIdentifier(URL.self),
    ]
}

/// A standard library collection whose copies share their storage until one is changed: its values hold values
/// only when its elements do.
private protocol ValueCollection {
    /// The types of its elements (a dictionary's keys and values).
    static var elementTypes: [any Any.Type] { get }
}

extension Array: ValueCollection {
    fileprivate static var elementTypes: [any Any.Type] { [Element.self] }
}

extension ContiguousArray: ValueCollection {
    fileprivate static var elementTypes: [any Any.Type] { [Element.self] }
}

extension ArraySlice: ValueCollection {
    fileprivate static var elementTypes: [any Any.Type] { [Element.self] }
}

extension Set: ValueCollection {
    fileprivate static var elementTypes: [any Any.Type] { [Element.self] }
}

extension Dictionary: ValueCollection {
    fileprivate static var elementTypes: [any Any.Type] { [Key.self, Value.self] }
}

extension Optional: ValueCollection {
    fileprivate static var elementTypes: [any Any.Type] { [Wrapped.self] }
}
