import StoreKitCore
import StoreKitJSON

/// Which member identifies the elements of the arrays a path pattern names: `todos` by `toDoID`, as `.replay.json`'s
/// `"identity": {"todos": "toDoID"}` says.
///
/// ``StateDiff`` matches the elements of such arrays by that member, as it matches arrays of objects with an `id`
/// member by `id` (see ``EncodedTypeNotes/identityKeys``): an element inserted in the middle is one added element,
/// not a change of every element after it. The pattern is written as ``JSONPathPattern`` writes places
/// (`lists[*].items`). Where the replay host or a test encodes the state, the member of an `Identifiable` element's
/// stored id is found without a key; a key given wins over it, and is what a comparison of recorded files alone
/// (`diff A B`, `diff --states`) or an id computed from several members needs.
public struct IdentityKey: Sendable, Hashable, CustomStringConvertible {
    /// The arrays.
    public var pattern: JSONPathPattern
    /// The member of each of their elements that identifies it.
    public var member: String

    /// Creates one.
    public init(pattern: JSONPathPattern, member: String) {
        self.pattern = pattern
        self.member = member
    }

    /// `todos=toDoID`.
    public var description: String { "\(pattern)=\(member)" }

    /// The generalised paths of the arrays this key's pattern names in `value` (see ``EncodedTypeNotes``).
    func arrayPlaces(in value: JSONValue) -> Set<[EncodedTypeNotes.Step]> {
        var places: Set<[EncodedTypeNotes.Step]> = []
        collectArrays(0, in: value, at: [], into: &places)
        return places
    }

    private func collectArrays(
        _ step: Int, in value: JSONValue, at path: [EncodedTypeNotes.Step], into places: inout Set<[EncodedTypeNotes.Step]>
    ) {
        let components = pattern.components
        guard step < components.count else {
            if case .array = value { places.insert(path) }
            return
        }
        switch (components[step], value) {
        case (.key(let key), .object(let members)):
            if let member = members[exactKey: key] {
                collectArrays(step + 1, in: member, at: path + [.member(key)], into: &places)
            } else if key != "_0", let payload = members[exactKey: "_0"] {
                // An unlabeled enum payload, which paths print without.
                collectArrays(step, in: payload, at: path + [.member("_0")], into: &places)
            }
        case (.anyMember, .object(let members)), (.anyElement, .object(let members)):
            for (key, member) in members { collectArrays(step + 1, in: member, at: path + [.member(key)], into: &places) }
        case (.index(let index), .array(let elements)) where index < elements.count:
            collectArrays(step + 1, in: elements[index], at: path + [.element], into: &places)
        case (.anyElement, .array(let elements)):
            for element in elements { collectArrays(step + 1, in: element, at: path + [.element], into: &places) }
        case (.identified(let id), .array(let elements)):
            for element in elements where element["id"] == id {
                collectArrays(step + 1, in: element, at: path + [.element], into: &places)
            }
        case (.mapKey(let key), .array(let elements)):
            guard let index = JSONPathPattern.pairValueIndex(of: key, in: elements) else { return }
            collectArrays(step + 1, in: elements[index], at: path + [.pairValue], into: &places)
        default:
            return
        }
    }
}

extension Array where Element == IdentityKey {
    /// `notes` with the identity keys of the arrays these keys name in any of `values`, each replacing the one
    /// `notes` held there (found when the state was encoded). Where two keys name the same arrays with different
    /// members, neither is noted there: the arrays are not matched by a guess.
    public func noting(_ values: [JSONValue], in notes: EncodedTypeNotes) -> EncodedTypeNotes {
        guard !isEmpty else { return notes }
        var keys: [[EncodedTypeNotes.Step]: String] = [:]
        var conflicting: Set<[EncodedTypeNotes.Step]> = []
        for key in self {
            for value in values {
                for place in key.arrayPlaces(in: value) {
                    let earlier = keys.updateValue(key.member, forKey: place)
                    if let earlier, earlier != key.member { conflicting.insert(place) }
                }
            }
        }
        var noted = notes
        for (place, member) in keys where !conflicting.contains(place) { noted.identityKeys[place] = member }
        return noted
    }

    /// The keys whose patterns name no array in any of `compared`, in order: a pattern with a typo, or one the
    /// state's shape no longer has, which a caller warns about rather than pass over.
    public func namingNoArray(in compared: [JSONValue]) -> [IdentityKey] {
        filter { key in compared.allSatisfy { key.arrayPlaces(in: $0).isEmpty } }
    }

    /// The warning about each key ``namingNoArray(in:)`` finds in the states `compared`, one line each, `source`
    /// saying where the keys were given; none when nothing was compared.
    public func warnings(about compared: [JSONValue], source: String) -> [String] {
        guard !compared.isEmpty else { return [] }
        return namingNoArray(in: compared).map { key in
            "warning: \(source): identity '\(key.pattern)' names no array in the states compared; no element was matched by '\(key.member)' there"
        }
    }

    /// The warnings of ``warnings(about:source:)`` about the states `reports`' divergences compared (recorded and
    /// replayed); none when nothing diverged, since no diff was made.
    public func warnings(comparedIn reports: [ReplayReport], source: String) -> [String] {
        warnings(about: reports.flatMap(\.divergences).flatMap { [$0.recorded, $0.replayed] }, source: source)
    }

    /// Reads `"identity"`'s form, an object from path patterns to member names (`{"todos": "toDoID"}`), in the
    /// patterns' order.
    /// - Throws: ``IdentityKey/FormError`` saying what is wrong and where.
    public init(jsonValue: JSONValue) throws(IdentityKey.FormError) {
        guard case .object(let members) = jsonValue else {
            throw IdentityKey.FormError("must be an object from path patterns to member names, such as {\"todos\": \"toDoID\"}")
        }
        var keys: [IdentityKey] = []
        for text in StateDiff.sortedKeys(of: members, and: [:]) {
            guard case .string(let member)? = members[exactKey: text], !member.isEmpty else {
                throw IdentityKey.FormError("'\(text)' must name a member as a non-empty string, such as \"toDoID\"")
            }
            do {
                keys.append(IdentityKey(pattern: try JSONPathPattern(text), member: member))
            } catch {
                throw IdentityKey.FormError("\(error)")
            }
        }
        self = keys
    }

    /// The keys as `"identity"`'s form: an object from path patterns to member names.
    public var jsonValue: JSONValue {
        .object(Dictionary(map { ($0.pattern.text, .string($0.member)) }, uniquingKeysWith: { _, last in last }))
    }
}

extension IdentityKey {
    /// An `"identity"` value that is not an object from path patterns to member names.
    public struct FormError: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong.
        public var description: String

        /// Creates one.
        public init(_ description: String) {
            self.description = description
        }
    }
}
