@_spi(Reflection) import Swift

/// What kind of type a type is (a struct, an enum, a class ...), as the runtime tells it.
enum TypeKind {
    /// The kind of `type`, as the runtime tells it of a field of that type; `nil` when it lists no such field.
    static func of(_ type: any Any.Type) -> _MetadataKind? {
        kindOfField(type)
    }

    private static func kindOfField<T>(_: T.Type) -> _MetadataKind? {
        var kind: _MetadataKind?
        _forEachField(of: Field<T>.self) { _, _, _, fieldKind in
            kind = fieldKind
            return false
        }
        return kind
    }

    /// A struct of one field of type `T`, which the runtime describes.
    private struct Field<T> {
        var value: T
    }
}
