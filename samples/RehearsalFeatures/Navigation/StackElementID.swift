/// The id of one screen on a navigation stack: 1 for the first screen ever pushed, 2 for the next, and so on.
///
/// Ids come from a counter in the stack's state, so replaying the same actions gives the same ids.
public struct StackElementID: Hashable, Codable, Sendable, Comparable, ExpressibleByIntegerLiteral,
    CustomStringConvertible
{
    /// The number.
    public var rawValue: Int

    /// Creates an id from its number.
    public init(_ rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Creates an id from an integer literal (`.element(id: 1, action: …)`).
    public init(integerLiteral value: Int) {
        self.rawValue = value
    }

    /// Decodes the id from a single number.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(Int.self)
    }

    /// Encodes the id as a single number.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// Earlier pushed screens sort first.
    public static func < (lhs: StackElementID, rhs: StackElementID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The number.
    public var description: String { "\(rawValue)" }
}
