import Foundation

/// One song of a setlist, as the band plans to play it.
public struct Song: Codable, Equatable, Sendable, Identifiable {
    /// A song's id.
    public typealias ID = EntityID<Song>

    /// A stable id, made by the app when the song is added.
    public var id: ID
    /// The song's title.
    public var title: String
    /// How long the band plans to play it.
    public var length: Duration
    /// The key it is played in, when someone wrote it down.
    public var key: String?

    /// Creates a song.
    public init(id: ID, title: String = "", length: Duration = .seconds(180), key: String? = nil) {
        self.id = id
        self.title = title
        self.length = length
        self.key = key
    }
}
