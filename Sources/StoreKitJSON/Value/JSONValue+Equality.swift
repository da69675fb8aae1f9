import StoreKitSystem

/// Equality as JSON means it, for `diff --states`, `diff A B` and every comparison without Swift types.
///
/// - Strings and object keys compare by their Unicode code points (their UTF-8 bytes), not by Swift's canonical
///   equivalence: `"é"` (U+00E9) and `"e\u{301}"` are different strings. (One object cannot hold both as keys:
///   the parser refuses them as duplicates.)
/// - Numbers compare by exact value, whatever their kind: `1` equals `1.0`, `0.0` equals `-0.0`, and integers
///   beyond 64 bits are equal only when every digit is. A whole double's value is that of its canonical text
///   (`1e+23` for the `Double` nearest 10^23), so that a value and its canonical JSON read back are always equal.
/// - Arrays compare element by element in order; objects member by member in any order.
extension JSONValue: Equatable {
    /// Whether `lhs` and `rhs` are the same JSON value (see the extension's discussion).
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let left), .bool(let right)): return left == right
        case (.integer(let left), .integer(let right)): return left == right
        case (.double(let left), .double(let right)): return left == right
        case (.string(let left), .string(let right)): return sameCodePoints(left, right)
        case (.array(let left), .array(let right)): return left == right
        case (.object(let left), .object(let right)):
            // One storage holds one value, as `Array`'s `==` (above) knows of its own.
            if sharesStorage(left, right) { return true }
            guard left.count == right.count else { return false }
            return sameMembers(left, right)
        default:
            guard let left = lhs.exactNumber, let right = rhs.exactNumber else { return false }
            return left == right
        }
    }

    /// Whether this value and `other` are objects, or arrays, that share one storage, and so are equal without a
    /// look at their members: copies of one value share it until one of them changes. False for any other values,
    /// equal or not.
    package func sharesStorage(with other: JSONValue) -> Bool {
        switch (self, other) {
        case (.object(let left), .object(let right)): Self.sharesStorage(left, right)
        case (.array(let left), .array(let right)): Self.sharesStorage(left, right)
        default: false
        }
    }

    /// Whether two objects with as many members as each other hold the same ones.
    ///
    /// Objects the parser built alike (copies of one learned shape, see `ShapeTemplates`) list their members in one
    /// order, so the two are first walked side by side; at the first pair of different keys, each member of `left`
    /// is looked up in `right` instead.
    private static func sameMembers(_ left: [String: JSONValue], _ right: [String: JSONValue]) -> Bool {
        var rightMembers = right.makeIterator()
        for (key, value) in left {
            guard let (rightKey, rightValue) = rightMembers.next(), sameCodePoints(key, rightKey) else {
                return sameMembersLookedUp(left, right)
            }
            guard value == rightValue else { return false }
        }
        return true
    }

    /// Whether two objects with as many members as each other hold the same ones, each member of `left` looked up
    /// in `right` by its key.
    private static func sameMembersLookedUp(_ left: [String: JSONValue], _ right: [String: JSONValue]) -> Bool {
        for (key, value) in left {
            guard let rightValue = right[exactKey: key], rightValue == value else { return false }
        }
        return true
    }

    /// Whether two collections are the same storage: the bits of a dictionary or an array are a reference to its
    /// storage, shared by copies until one of them changes.
    private static func sharesStorage<Storage>(_ left: Storage, _ right: Storage) -> Bool {
        sameBits(left, right)
    }

    /// Whether two values have the same bits, compared a word at a time.
    @inline(__always)
    private static func sameBits<Value>(_ left: Value, _ right: Value) -> Bool {
        withUnsafeBytes(of: left) { leftBits in
            withUnsafeBytes(of: right) { rightBits in
                var offset = 0
                while offset + 8 <= leftBits.count {
                    let leftWord = leftBits.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    guard leftWord == rightBits.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else {
                        return false
                    }
                    offset += 8
                }
                return leftBits[offset...].elementsEqual(rightBits[offset...])
            }
        }
    }

    /// Whether two strings have the same code points, which their UTF-8 bytes show.
    @inline(__always)
    static func sameCodePoints(_ left: String, _ right: String) -> Bool {
        // The same bits are one string: the same short one held inline, or one shared storage.
        if sameBits(left, right) { return true }
        guard left.utf8.count == right.utf8.count else { return false }
        return sameBytes(left, right)
    }

    /// Whether two strings of one length have the same UTF-8 bytes.
    private static func sameBytes(_ left: String, _ right: String) -> Bool {
        let leftBytes = left.utf8
        let rightBytes = right.utf8
        guard !leftBytes.isEmpty else { return true }
        // Native strings, small ones included, lend their bytes in place: one memcmp.
        let compared = leftBytes.withContiguousStorageIfAvailable { leftBuffer in
            rightBytes.withContiguousStorageIfAvailable { rightBuffer in
                memcmp(leftBuffer.baseAddress!, rightBuffer.baseAddress!, leftBuffer.count) == 0
            }
        }
        return (compared ?? nil) ?? leftBytes.elementsEqual(rightBytes)
    }

    /// A number's exact value in a form that compares across kinds: an integer's decimal digits (a whole double's
    /// by its canonical text), or a double with a fraction as itself; `nil` for anything but a number.
    private var exactNumber: ExactNumber? {
        switch self {
        case .integer(let value): .integer(String(value))
        case .unsignedInteger(let value): .integer(String(value))
        case .bigInteger(let digits): .integer(digits)
        case .double(let value) where value == value.rounded(.towardZero): .integer(IntegralDecimal.digits(ofWhole: value))
        case .double(let value): .fraction(value)
        default: nil
        }
    }

    private enum ExactNumber: Equatable {
        case integer(String)
        case fraction(Double)
    }
}

extension JSONValue: Hashable {
    /// Hashes the value consistently with ``==(_:_:)``: numbers by their nearest `Double`, strings by their bytes,
    /// object members in any order.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null:
            hasher.combine(0 as UInt8)
        case .bool(let value):
            hasher.combine(1 as UInt8)
            hasher.combine(value)
        case .integer, .unsignedInteger, .bigInteger, .double:
            // Numbers equal by value have the same nearest double.
            hasher.combine(2 as UInt8)
            hasher.combine(doubleValue ?? 0)
        case .string(let value):
            hasher.combine(3 as UInt8)
            Self.hashCodePoints(value, into: &hasher)
        case .array(let elements):
            hasher.combine(4 as UInt8)
            hasher.combine(elements)
        case .object(let members):
            hasher.combine(5 as UInt8)
            hasher.combine(members.count)
            // Independent of the members' order, as `Dictionary` hashes.
            var combined = 0
            for (key, value) in members {
                var memberHasher = Hasher()
                Self.hashCodePoints(key, into: &memberHasher)
                memberHasher.combine(value)
                combined ^= memberHasher.finalize()
            }
            hasher.combine(combined)
        }
    }

    private static func hashCodePoints(_ string: String, into hasher: inout Hasher) {
        var string = string
        string.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        hasher.combine(string.utf8.count)
    }
}
