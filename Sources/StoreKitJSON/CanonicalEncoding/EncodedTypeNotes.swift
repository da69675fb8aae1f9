/// What a value's JSON alone does not carry of its Swift types: where it holds dictionaries written as arrays of
/// alternating keys and values, `Date`s, `Duration`s, and `Set`s.
///
/// The canonical encoders note each such place while they encode, by its path with array indices generalised
/// (every element of an array is one place), so that ``StateDiff`` and its renderings read the JSON as the Swift
/// value it came from:
/// - `Codable` writes a dictionary whose keys are neither `String`, `Int` nor `CodingKeyRepresentable` (a
///   `[UUID: Int]`, a `[TodoID: Todo]`) as `[key1, value1, key2, value2, …]`. The canonical encoders sort the pairs
///   by their keys' canonical bytes; ``StateDiff`` compares two of them as maps, pair by pair under `[key: …]`,
///   instead of as arrays.
/// - A `Date` is written as seconds since 1970 (a number); the text of a diff shows it as ISO 8601.
/// - A `Duration` is written by its own `Codable` as `[high, low]`, its attoseconds in two 64-bit halves;
///   ``StateDiff`` compares it as one value, and the text of a diff shows it in seconds (`12.5 s`).
/// - A `Set` is written as an array, its elements sorted by their canonical bytes; ``StateDiff`` compares two of
///   them as sets, a member added or removed under `[member: …]` (`tags[member: "synced"]`), never by index.
///
/// The notes also say which member identifies the elements of an array (``identityKeys``) where it is not `id`
/// (ReSwift's todos use `toDoID`): ``StateDiff`` matches such elements by that member. The canonical encoders note
/// it for arrays of `Identifiable` elements whose id is stored under another name
/// (``CanonicalJSONEncoder/encodeToBytes(_:typeNotes:)``); a key given per path can be added to the notes.
///
/// The notes never change the encoded bytes. The places inside a `Set`'s elements are not noted.
///
/// ```swift
/// var notes = EncodedTypeNotes()
/// let bytes = try CanonicalJSONEncoder().encodeToBytes(state, typeNotes: &notes)
/// let diff = StateDiff(from: recorded, to: replayed, typeNotes: notes)
/// print(diff.summary)   // 1 difference: counts[key: "3F2504E0-4F89-11D3-9A0C-0305E82C3301"]  1 -> 2
/// ```
public struct EncodedTypeNotes: Sendable, Hashable {
    /// One step of a generalised path.
    public enum Step: Sendable, Hashable {
        /// An object member.
        case member(String)
        /// Any element of an (ordinary) array.
        case element
        /// The value of any pair of a keyed-pair array.
        case pairValue
    }

    /// What a noted place holds.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A dictionary written as alternating keys and values (the name of its paths in JSON: `keyedPairArrays`).
        case keyedPairArrays
        /// A `Date`, written as seconds since 1970 (`dates`).
        case dates
        /// A `Duration`, written as `[high, low]` attoseconds (`durations`).
        case durations
        /// A `Set`, written as an array of its elements sorted by their canonical bytes (`sets`).
        case sets
    }

    /// The generalised paths of each kind of place.
    public var paths: [Kind: Set<[Step]>]
    /// The member that identifies the elements of the arrays at each generalised path, where it is not `id`
    /// (see ``StateDiff``); the arrays elsewhere are identified by `id`.
    public var identityKeys: [[Step]: String]

    /// Creates the notes from their paths and identity keys; none unless told.
    public init(_ paths: [Kind: Set<[Step]>] = [:], identityKeys: [[Step]: String] = [:]) {
        self.paths = paths.filter { !$0.value.isEmpty }
        self.identityKeys = identityKeys
    }

    /// True when nothing is noted.
    public var isEmpty: Bool { paths.values.allSatisfy(\.isEmpty) && identityKeys.isEmpty }

    /// The member that identifies the elements of the array at `path`: its ``identityKeys`` entry, else `id`.
    public func identityKey(at path: JSONPath) -> String {
        identityKeys.isEmpty ? "id" : identityKeys[Self.generalised(path)] ?? "id"
    }

    /// Notes a place of `kind` at `path`.
    mutating func insert(_ path: [Step], as kind: Kind) {
        paths[kind, default: []].insert(path)
    }

    /// Adds the places of `other`, each below `prefix` (the path of the value `other` was noted in).
    mutating func formUnion(_ other: EncodedTypeNotes, below prefix: [Step] = []) {
        for (kind, paths) in other.paths {
            for path in paths { insert(prefix + path, as: kind) }
        }
        for (path, key) in other.identityKeys { identityKeys[prefix + path] = key }
    }

    /// These notes and those of `other`.
    package func union(_ other: EncodedTypeNotes) -> EncodedTypeNotes {
        var union = self
        union.formUnion(other)
        return union
    }

    /// What the place at `path` holds, if it was noted.
    public func kind(at path: JSONPath) -> Kind? {
        guard !paths.isEmpty else { return nil }
        let generalised = Self.generalised(path)
        return Kind.allCases.first { paths[$0]?.contains(generalised) == true }
    }

    /// Whether the place at `path` holds `kind`.
    func holds(_ kind: Kind, at path: JSONPath) -> Bool {
        guard let paths = paths[kind] else { return false }
        return paths.contains(Self.generalised(path))
    }

    /// `path` with its indices, ids and set members generalised to ``Step/element`` and its map keys to
    /// ``Step/pairValue``.
    static func generalised(_ path: JSONPath) -> [Step] {
        path.components.map { component in
            switch component {
            case .key(let key): .member(key)
            case .index, .identified, .setMember: .element
            case .mapKey: .pairValue
            }
        }
    }

    /// The notes as JSON members, one per kind noted (`keyedPairArrays`, `dates`, `durations`, `sets`): an array of
    /// paths in canonical order, each an array of steps where a string is an object member, `[]` any array element,
    /// and `{}` the value of any pair; and `identityKeys`, when there are any: an array of `[path, member]` pairs.
    public var jsonMembers: [String: JSONValue] {
        var members: [String: JSONValue] = [:]
        for (kind, paths) in self.paths where !paths.isEmpty {
            members[kind.rawValue] = Self.canonicallySorted(paths.map(Self.json(of:)))
        }
        if !identityKeys.isEmpty {
            members[Self.identityKeysMember] = Self.canonicallySorted(
                identityKeys.map { .array([Self.json(of: $0.key), .string($0.value)]) })
        }
        return members
    }

    /// The name of ``identityKeys``' member in ``jsonMembers``.
    private static let identityKeysMember = "identityKeys"

    /// A generalised path as JSON: a string for an object member, `[]` for any array element, `{}` for any pair's
    /// value.
    private static func json(of path: [Step]) -> JSONValue {
        .array(
            path.map { step in
                switch step {
                case .member(let key): .string(key)
                case .element: .array([])
                case .pairValue: .object([:])
                }
            })
    }

    /// `values` as an array in canonical order.
    private static func canonicallySorted(_ values: [JSONValue]) -> JSONValue {
        .array(values.sorted { $0.canonicalBytes().lexicographicallyPrecedes($1.canonicalBytes()) })
    }

    /// Reads notes written by ``jsonMembers`` from the members of `object` (others are ignored; an absent kind is
    /// none noted).
    /// - Throws: ``FormError`` naming the member that is not of that form.
    public init(jsonMembers object: [String: JSONValue]) throws(EncodedTypeNotes.FormError) {
        var paths: [Kind: Set<[Step]>] = [:]
        for kind in Kind.allCases {
            guard let json = object[kind.rawValue] else { continue }
            guard case .array(let encoded) = json else { throw FormError(member: kind.rawValue) }
            for path in encoded {
                paths[kind, default: []].insert(try Self.path(of: path, member: kind.rawValue))
            }
        }
        var identityKeys: [[Step]: String] = [:]
        if let json = object[Self.identityKeysMember] {
            guard case .array(let entries) = json else { throw FormError(member: Self.identityKeysMember) }
            for entry in entries {
                guard case .array(let pair) = entry, pair.count == 2, case .string(let key) = pair[1] else {
                    throw FormError(member: Self.identityKeysMember)
                }
                identityKeys[try Self.path(of: pair[0], member: Self.identityKeysMember)] = key
            }
        }
        self.init(paths, identityKeys: identityKeys)
    }

    /// The generalised path written as ``json(of:)`` writes it.
    /// - Throws: ``FormError`` naming `member` when it is not of that form.
    private static func path(of json: JSONValue, member: String) throws(FormError) -> [Step] {
        guard case .array(let steps) = json else { throw FormError(member: member) }
        var decoded: [Step] = []
        for step in steps {
            switch step {
            case .string(let key): decoded.append(.member(key))
            case .array(let elements) where elements.isEmpty: decoded.append(.element)
            case .object(let members) where members.isEmpty: decoded.append(.pairValue)
            default: throw FormError(member: member)
            }
        }
        return decoded
    }

    /// A member of ``jsonMembers``' form that is not an array of paths of strings, `[]` and `{}`.
    public struct FormError: Error, Sendable, Equatable {
        /// The member's name: `keyedPairArrays`, `dates`, `durations`, `sets` or `identityKeys`.
        public var member: String
    }
}
