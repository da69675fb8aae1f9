/// The coding key of an array element.
package struct IndexKey: CodingKey {
    /// The element's index.
    package var intValue: Int?
    /// The index in decimal digits.
    package var stringValue: String { intValue.map(String.init) ?? "" }

    /// The key of the element at `intValue`.
    package init(intValue: Int) {
        self.intValue = intValue
    }

    /// The key of the element whose index `stringValue` spells; `nil` when it spells none.
    package init?(stringValue: String) {
        guard let index = Int(stringValue) else { return nil }
        self.intValue = index
    }
}
