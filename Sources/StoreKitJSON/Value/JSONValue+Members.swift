/// An object's members looked up by their keys' code points.
///
/// A `[String: JSONValue]` finds a key by Swift's `String` equality, which is canonical equivalence: asked for
/// `"e\u{301}"` it finds the member `"é"` (U+00E9). JSON keys are the same only when their code points are, so every
/// lookup of a member by a key from elsewhere (another object, a path, a patch) goes through these.
extension Dictionary where Key == String, Value == JSONValue {
    /// The position of the member whose key has exactly the code points of `key`; `nil` when there is none.
    package func index(forExactKey key: String) -> Index? {
        guard let index = index(forKey: key), JSONValue.sameCodePoints(self[index].key, key) else { return nil }
        return index
    }

    /// The member whose key has exactly the code points of `key`; `nil` when there is none. An object of at most
    /// ``scannedMemberLimit`` members is searched by comparing its keys' bytes in turn, which costs less than
    /// hashing the key.
    package subscript(exactKey key: String) -> JSONValue? {
        guard count <= scannedMemberLimit else { return index(forExactKey: key).map { values[$0] } }
        for (candidate, value) in self where JSONValue.sameCodePoints(candidate, key) { return value }
        return nil
    }

    /// The key of a member that is canonically equivalent to `key` but not the same (`"é"` for `"e\u{301}"`): the
    /// member that keeps this object from holding one named `key` as well. `nil` when there is none.
    package func equivalentKey(standingFor key: String) -> String? {
        guard let index = index(forKey: key), !JSONValue.sameCodePoints(self[index].key, key) else { return nil }
        return self[index].key
    }
}

/// The most members an object may have for ``Swift/Dictionary/subscript(exactKey:)`` to compare its keys one by
/// one instead of hashing the key it looks for.
private let scannedMemberLimit = 8
