/// The search, at one place of the values encoded, for the member of an array's `Identifiable` elements that holds
/// their `id` when that member is not called `id` (ReSwift's todos store it as `toDoID`), so that
/// ``EncodedTypeNotes/identityKeys`` can say so without being told.
///
/// Both canonical encoders feed it the first elements of the arrays at the place, each with its encoded JSON: the
/// members whose value equals the element's encoded `id` are the candidates, narrowed element by element. The
/// search ends with the one member left, or with none to note: when the element holds an `id` member equal to its
/// id (the diff's default already matches it), when no member holds the id (a computed id), when the id is not a
/// string or an integer, and when several members still hold it after ``elementLimit`` elements. Nothing is
/// guessed.
struct IdentityMemberSearch {
    /// How many elements are looked at, at most, while several members hold the id in each.
    static let elementLimit = 8

    /// Where a search stands after an element.
    enum Outcome: Equatable {
        /// Several members may hold the id: look at the next element.
        case searching
        /// Ended: the member to note, or `nil` for none.
        case ended(String?)
    }

    /// The members that held the id in every element so far; `nil` before the first.
    private var candidates: [String]?
    private var examined = 0

    /// Creates a search that has seen no element.
    init() {}

    /// Which types' values a search looks into: those `Identifiable` with an `Encodable` id, found once per type.
    struct ElementTypes {
        private var known = TypeTable<Bool>()

        /// Whether the values of `type` are looked into.
        @inline(__always)
        mutating func looksInto(_ type: Any.Type) -> Bool {
            if let looks = known[type] { return looks }
            var looks = false
            if let identifiable = type as? any Identifiable.Type { looks = Self.hasEncodableID(identifiable) }
            known.set(looks, for: type)
            return looks
        }

        private static func hasEncodableID<T: Identifiable>(_: T.Type) -> Bool {
            T.ID.self is any Encodable.Type
        }
    }

    /// Narrows the search under way at `place` in `searches` (a new one if none is) with `element`, encoded as
    /// `encoded`; the search is kept while it goes on and removed once it ended.
    static func examine<Place: Hashable, Element: Encodable>(
        _ element: Element, encoded: JSONValue, at place: Place, in searches: inout [Place: Self]
    ) -> Outcome {
        var search = searches[place] ?? Self()
        let outcome = search.examine(element, encoded: encoded)
        searches[place] = outcome == .searching ? search : nil
        return outcome
    }

    /// Narrows the candidates with `element`, whose canonical encoding is `encoded`.
    mutating func examine<Element: Encodable>(_ element: Element, encoded: JSONValue) -> Outcome {
        guard let identifiable = element as? any Identifiable, let id = Self.encodedID(of: identifiable),
            case .object(let members) = encoded
        else { return .ended(nil) }
        if members[exactKey: "id"] == id { return .ended(nil) }
        let holding = members.compactMap { $0.value == id ? $0.key : nil }
        let narrowed = candidates.map { $0.filter(holding.contains) } ?? holding
        candidates = narrowed
        examined += 1
        if narrowed.count == 1 { return .ended(narrowed[0]) }
        if narrowed.isEmpty || examined >= Self.elementLimit { return .ended(nil) }
        return .searching
    }

    /// The canonical encoding of `value`'s id when it is a string or an integer, the ids ``StateDiff`` matches by;
    /// `nil` otherwise, and when the id does not encode (the search then notes nothing: an id that does not encode
    /// is no place to match elements by).
    private static func encodedID<T: Identifiable>(of value: T) -> JSONValue? {
        guard let id = value.id as? any Encodable, let encoded = try? CanonicalJSONEncoder().encode(id) else { return nil }
        switch encoded {
        case .string, .integer, .unsignedInteger, .bigInteger: return encoded
        default: return nil
        }
    }
}
