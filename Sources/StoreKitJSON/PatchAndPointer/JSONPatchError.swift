/// Why a JSON Patch does not apply to a value: which operation failed and what was wrong.
///
/// Rendered as `patch operation 2 (replace '/todos/7'): index 7 is out of range: '/todos' has 3 elements`.
public struct JSONPatchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong.
    public enum Reason: Sendable, Equatable {
        /// Nothing is at `pointer`: a missing object member (or a missing parent of the target).
        case missing(pointer: String)
        /// `index` is outside the array at `array`, which has `count` elements.
        case indexOutOfRange(array: String, index: Int, count: Int)
        /// `token` addresses an element of the array at `array` but is not an index: not digits, or digits with a
        /// leading zero such as `01`.
        case notAnArrayIndex(array: String, token: String)
        /// `-` (the position after the last element of the array at `array`) used by an operation other than `add`,
        /// or by `add` before the last token of its path.
        case endOfArrayOutsideAdd(array: String)
        /// The path goes through `pointer`, which holds a value of type `typeName` (a string, a number...), not
        /// an object or an array.
        case notAContainer(pointer: String, typeName: String)
        /// A `test` found `actual` at `pointer` where it expected `expected`.
        case testFailed(pointer: String, actual: JSONValue, expected: JSONValue)
        /// A `move` whose `from` is a proper prefix of its `path`: a value cannot move into its own child.
        case moveIntoOwnChild
        /// A `remove` of the whole document (path `""`): a document has to remain.
        case removeWholeDocument
        /// An `add` of the member at `pointer` into an object that holds `existingKey`, a key with other code points
        /// that Swift's `String` calls equal (`"é"` precomposed and `"e\u{301}"`): one object cannot hold both.
        case equivalentKeyPresent(pointer: String, existingKey: String)
    }

    /// The position of the failing operation in the patch (0-based).
    public var operationIndex: Int
    /// The failing operation's name: `add`, `remove`, `replace`, `move`, `copy` or `test`.
    public var operationName: String
    /// The failing operation's path, as a JSON Pointer.
    public var path: String
    /// The failing operation's `from` (for `move` and `copy`), as a JSON Pointer.
    public var from: String?
    /// What was wrong.
    public var reason: Reason

    /// Creates an error for the operation at `operationIndex`.
    public init(operationIndex: Int, operationName: String, path: String, from: String? = nil, reason: Reason) {
        self.operationIndex = operationIndex
        self.operationName = operationName
        self.path = path
        self.from = from
        self.reason = reason
    }

    /// `patch operation 0 (test '/a'): test failed: value at '/a' is 1, expected 2`.
    public var description: String {
        "patch operation \(operationIndex) (\(operation)): \(reasonDescription)"
    }

    /// The operation as it reads: `test '/a'`, `move from '/a' to '/b'`.
    public var operation: String {
        "\(operationName) " + (from.map { "from '\($0)' to '\(path)'" } ?? "'\(path)'")
    }

    /// What was wrong, without the operation: `test failed: value at '/a' is 1, expected 2`.
    public var reasonDescription: String {
        switch reason {
        case .missing(let pointer):
            "'\(pointer)' does not exist"
        case .indexOutOfRange(let array, let index, let count):
            "index \(index) is out of range: '\(array)' has \(count) element\(count == 1 ? "" : "s")"
        case .notAnArrayIndex(let array, let token) where token.count > 1 && token.allSatisfy(\.isASCIIDigit):
            "'\(token)' is not an index into the array '\(array)': an index has no leading zeros"
        case .notAnArrayIndex(let array, let token):
            "'\(token)' is not an index into the array '\(array)'"
        case .endOfArrayOutsideAdd(let array):
            "'-' (the end of the array '\(array)') can only be the last token of an add's path"
        case .notAContainer(let pointer, let typeName):
            "'\(pointer)' is \(typeName == "null" ? "null" : "a \(typeName)"), not an object or an array"
        case .testFailed(let pointer, let actual, let expected):
            "test failed: value at '\(pointer)' is \(Self.excerpt(actual)), expected \(Self.excerpt(expected))"
        case .moveIntoOwnChild:
            "cannot move '\(from ?? "")' into its own child '\(path)'"
        case .removeWholeDocument:
            "cannot remove the whole document (a patch has to leave a document)"
        case .equivalentKeyPresent(let pointer, let existingKey):
            "cannot add '\(pointer)': its object holds the key \(Self.codePoints(existingKey)), the same text in another"
                + " Unicode normalization, and cannot hold both"
        }
    }

    /// A key's code points, which tell apart keys that print alike: `U+0065 U+0301`.
    private static func codePoints(_ key: String) -> String {
        key.unicodeScalars.map(\.notation).joined(separator: " ")
    }

    /// The value as canonical JSON, cut short after 80 characters.
    private static func excerpt(_ value: JSONValue) -> String {
        let text = value.canonicalString
        return text.count > 80 ? text.prefix(80) + "…" : text
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
