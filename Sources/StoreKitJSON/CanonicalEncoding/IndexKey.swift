/// The coding key of an array element.
package struct IndexKey: CodingKey {
    package var intValue: Int?
    package var stringValue: String { intValue.map(String.init) ?? "" }

    package init(intValue: Int) {
        self.intValue = intValue
    }

    package init?(stringValue: String) {
        guard let index = Int(stringValue) else { return nil }
        self.intValue = index
    }
}
