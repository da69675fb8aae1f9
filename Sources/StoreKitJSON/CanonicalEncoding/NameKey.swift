/// A coding key that is just a name, such as `super`.
package struct NameKey: CodingKey {
    /// The name.
    package var stringValue: String
    /// Always `nil`: a name is no index.
    package var intValue: Int? { nil }

    /// The key named `name`.
    package init(_ name: String) {
        self.stringValue = name
    }

    /// The key named `stringValue`.
    package init?(stringValue: String) {
        self.stringValue = stringValue
    }

    /// Always `nil`: a name is no index.
    package init?(intValue: Int) {
        nil
    }
}
