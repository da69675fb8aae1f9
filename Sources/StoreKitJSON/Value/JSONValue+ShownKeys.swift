extension JSONValue {
    /// The value as canonical JSON with the combining marks of its strings written as Swift escapes
    /// (`"e\u{301}"`), so that a key or id does not print like another that differs from it only by Unicode
    /// normalization (`"é"`). Paths and the diff's dump write keys and ids this way.
    package var canonicalStringShowingCombiningMarks: String {
        let text = canonicalString
        guard text.unicodeScalars.contains(where: \.isCombiningMark) else { return text }
        return text.unicodeScalars.map { $0.isCombiningMark ? "\\u{\(String($0.value, radix: 16))}" : String($0) }
            .joined()
    }
}

extension Unicode.Scalar {
    /// Whether this is a combining mark (general category Mn, Mc or Me), which joins the character before it.
    fileprivate var isCombiningMark: Bool {
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }
}
