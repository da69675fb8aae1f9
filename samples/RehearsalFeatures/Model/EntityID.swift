import Foundation

/// An id backed by a UUID and typed by what it identifies, so a song's id cannot stand where a setlist's is wanted.
///
/// It is `Codable` as the bare UUID string. A dictionary keyed by it (`[Song.ID: Duration]`) is therefore written by
/// `Codable` as an array of alternating keys and values, as for any key that is not a `String` or an `Int`.
public struct EntityID<Entity>: Hashable, Codable, Sendable, CustomStringConvertible {
    /// The UUID behind the id.
    public var uuid: UUID

    /// Creates an id from a UUID the app made (never inside a reducer).
    public init(_ uuid: UUID) {
        self.uuid = uuid
    }

    /// Decodes the id from a single UUID string.
    public init(from decoder: any Decoder) throws {
        uuid = try decoder.singleValueContainer().decode(UUID.self)
    }

    /// Encodes the id as a single UUID string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(uuid)
    }

    /// The UUID string.
    public var description: String { uuid.uuidString }
}
