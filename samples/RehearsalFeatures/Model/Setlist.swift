import Foundation

/// A setlist: the songs a band plans to play at a gig, in order, and the rehearsals it has run through it.
public struct Setlist: Codable, Equatable, Sendable, Identifiable {
    /// A setlist's id.
    public typealias ID = EntityID<Setlist>

    /// A stable id, made by the app when the setlist is created.
    public var id: ID
    /// The setlist's name.
    public var name: String
    /// The gig it is for, once there is a date.
    public var gigDate: Date?
    /// The songs, in playing order.
    public var songs: [Song]
    /// The rehearsals run through it, newest first.
    public var rehearsals: [PastRehearsal]

    /// Creates a setlist.
    public init(
        id: ID, name: String = "", gigDate: Date? = nil, songs: [Song] = [], rehearsals: [PastRehearsal] = []
    ) {
        self.id = id
        self.name = name
        self.gigDate = gigDate
        self.songs = songs
        self.rehearsals = rehearsals
    }
}
