/// A coding key that is just a name, such as `super`.
package struct NameKey: CodingKey {
    package var stringValue: String
    package var intValue: Int? { nil }

    package init(_ name: String) {
        self.stringValue = name
    }

    package init?(stringValue: String) {
        self.stringValue = stringValue
    }

    package init?(intValue: Int) {
        nil
    }
}
