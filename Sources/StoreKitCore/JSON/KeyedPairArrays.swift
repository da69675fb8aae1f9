/// Where a value's JSON holds dictionaries written as arrays of alternating keys and values: the knowledge of
/// the Swift types that the JSON alone does not carry.
///
/// `Codable` writes a dictionary whose keys are neither `String`, `Int` nor `CodingKeyRepresentable` (a
/// `[UUID: Int]`, a `[TodoID: Todo]`) as `[key1, value1, key2, value2, …]`. The canonical encoders sort the pairs
/// by their keys' canonical bytes and note each such array's path here, with array indices generalised, so that
/// ``StateDiff`` can compare two of them as maps, pair by pair under `[key: …]`, instead of as arrays.
///
/// ```swift
/// let diff = StateDiff(from: recorded, to: replayed, keyedPairArrays: arrays)
/// print(diff.summary)   // 1 difference: counts[key: "3F2504E0-4F89-11D3-9A0C-0305E82C3301"]  1 -> 2
/// ```
public struct KeyedPairArrays: Sendable, Hashable {
    /// One step of a generalised path.
    public enum Step: Sendable, Hashable {
        /// An object member.
        case member(String)
        /// Any element of an (ordinary) array.
        case element
        /// The value of any pair of a keyed-pair array.
        case pairValue
    }

    /// The generalised paths of the keyed-pair arrays.
    public var paths: Set<[Step]>

    /// Creates the set from its paths; empty unless told.
    public init(_ paths: Set<[Step]> = []) {
        self.paths = paths
    }

    /// True when no array is known to hold pairs.
    public var isEmpty: Bool { paths.isEmpty }

    /// Adds the paths of `other`.
    mutating func formUnion(_ other: KeyedPairArrays) {
        paths.formUnion(other.paths)
    }

    /// The paths as JSON: an array of paths in canonical order, each an array of steps where a string is an
    /// object member, `[]` any array element, and `{}` the value of any pair.
    public var jsonValue: JSONValue {
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
        return .array(encoded.sorted { $0.canonicalBytes().lexicographicallyPrecedes($1.canonicalBytes()) })
    }

    /// Reads paths written by ``jsonValue``; `nil` when `json` is not of that form.
    public init?(jsonValue json: JSONValue) {
        guard case .array(let encoded) = json else { return nil }
        var paths: Set<[Step]> = []
        for path in encoded {
            guard case .array(let steps) = path else { return nil }
            var decoded: [Step] = []
            for step in steps {
                switch step {
                case .string(let key): decoded.append(.member(key))
                case .array(let elements) where elements.isEmpty: decoded.append(.element)
                case .object(let members) where members.isEmpty: decoded.append(.pairValue)
                default: return nil
                }
            }
            paths.insert(decoded)
        }
        self.init(paths)
    }
}
