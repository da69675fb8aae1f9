/// What a value's JSON alone does not carry of its Swift types: where it holds dictionaries written as arrays of
/// alternating keys and values, `Date`s, and `Duration`s.
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
    }

    /// The generalised paths of each kind of place.
    public var paths: [Kind: Set<[Step]>]

    /// Creates the notes from their paths; none unless told.
    public init(_ paths: [Kind: Set<[Step]>] = [:]) {
        self.paths = paths.filter { !$0.value.isEmpty }
    }

    /// True when nothing is noted.
    public var isEmpty: Bool { paths.values.allSatisfy(\.isEmpty) }

    /// Notes a place of `kind` at `path`.
    mutating func insert(_ path: [Step], as kind: Kind) {
        paths[kind, default: []].insert(path)
    }

    /// Adds the places of `other`, each below `prefix` (the path of the value `other` was noted in).
    mutating func formUnion(_ other: EncodedTypeNotes, below prefix: [Step] = []) {
        for (kind, paths) in other.paths {
            for path in paths { insert(prefix + path, as: kind) }
        }
    }

    /// What the place at `path` holds, if it was noted.
    public func kind(at path: JSONPath) -> Kind? {
        guard !isEmpty else { return nil }
        let generalised = Self.generalised(path)
        return Kind.allCases.first { paths[$0]?.contains(generalised) == true }
    }

    /// Whether the place at `path` holds `kind`.
    func holds(_ kind: Kind, at path: JSONPath) -> Bool {
        guard let paths = paths[kind] else { return false }
        return paths.contains(Self.generalised(path))
    }

    /// `path` with its indices and ids generalised to ``Step/element`` and its map keys to ``Step/pairValue``.
    static func generalised(_ path: JSONPath) -> [Step] {
        path.components.map { component in
            switch component {
            case .key(let key): .member(key)
            case .index, .identified: .element
            case .mapKey: .pairValue
            }
        }
    }

    /// The notes as JSON members, one per kind noted (`keyedPairArrays`, `dates`, `durations`): an array of paths
    /// in canonical order, each an array of steps where a string is an object member, `[]` any array element, and
    /// `{}` the value of any pair.
    public var jsonMembers: [String: JSONValue] {
        var members: [String: JSONValue] = [:]
        for (kind, paths) in self.paths where !paths.isEmpty {
            let encoded = paths.map { path in
                JSONValue.array(
                    path.map { step in
                        switch step {
                        case .member(let key): .string(key)
                        case .element: .array([])
                        case .pairValue: .object([:])
                        }
                    })
            }
            members[kind.rawValue] = .array(encoded.sorted { $0.canonicalBytes().lexicographicallyPrecedes($1.canonicalBytes()) })
        }
        return members
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
                guard case .array(let steps) = path else { throw FormError(member: kind.rawValue) }
                var decoded: [Step] = []
                for step in steps {
                    switch step {
                    case .string(let key): decoded.append(.member(key))
                    case .array(let elements) where elements.isEmpty: decoded.append(.element)
                    case .object(let members) where members.isEmpty: decoded.append(.pairValue)
                    default: throw FormError(member: kind.rawValue)
                    }
                }
                paths[kind, default: []].insert(decoded)
            }
        }
        self.init(paths)
    }

    /// A member of ``jsonMembers``' form that is not an array of paths of strings, `[]` and `{}`.
    public struct FormError: Error, Sendable, Equatable {
        /// The member's name: `keyedPairArrays`, `dates` or `durations`.
        public var member: String
    }
}
