import Foundation

/// A rehearsal the band ran through a setlist: when, how long each song really took, and what they noted.
public struct PastRehearsal: Codable, Equatable, Sendable, Identifiable {
    /// A past rehearsal's id.
    public typealias ID = EntityID<PastRehearsal>

    /// A stable id, made by the app when the rehearsal starts.
    public var id: ID
    /// When the rehearsal started.
    public var startedAt: Date
    /// How long the band played each song, by song id (a song skipped is absent).
    public var songTimes: [Song.ID: Duration]
    /// How long the band played in total.
    public var total: Duration
    /// Whether the band got through every song.
    public var finishedAllSongs: Bool
    /// What the band noted about it.
    public var notes: String
    /// How it went, from 1 to 5, once someone rated it.
    public var rating: Int?

    /// Creates a past rehearsal.
    public init(
        id: ID, startedAt: Date, songTimes: [Song.ID: Duration], total: Duration, finishedAllSongs: Bool,
        notes: String = "", rating: Int? = nil
    ) {
        self.id = id
        self.startedAt = startedAt
        self.songTimes = songTimes
        self.total = total
        self.finishedAllSongs = finishedAllSongs
        self.notes = notes
        self.rating = rating
    }
}
