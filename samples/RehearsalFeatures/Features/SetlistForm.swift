import Foundation
import SampleSupport
import StoreKitCore

/// The form that creates or edits a setlist: its name, the gig date, and its songs (added, retitled, timed, keyed,
/// removed, reordered and shuffled).
public enum SetlistForm {
    /// Which text field has the keyboard.
    public enum Field: Codable, Equatable, Hashable, Sendable {
        /// The setlist's name.
        case name
        /// The title of the song with this id.
        case songTitle(Song.ID)
    }

    /// The form's state: the draft it edits.
    public struct State: Codable, Equatable, Sendable {
        /// The setlist as edited so far.
        public var setlist: Setlist
        /// The focused field, if any.
        public var focus: Field?

        /// Creates a form editing `setlist`.
        public init(setlist: Setlist, focus: Field? = .name) {
            self.setlist = setlist
            self.focus = focus
        }
    }

    /// What the user does in the form.
    public enum Action: Codable, Equatable, Sendable {
        /// Types the setlist's name.
        case setName(String)
        /// Picks the gig date, or clears it.
        case setGigDate(Date?)
        /// Adds an untitled song at the end, with an id the app made, and focuses its title.
        case addSongTapped(id: Song.ID)
        /// Types a song's title.
        case setSongTitle(id: Song.ID, title: String)
        /// Sets how long a song is planned to take.
        case setSongLength(id: Song.ID, length: Duration)
        /// Sets or clears a song's key.
        case setSongKey(id: Song.ID, key: String?)
        /// Removes a song.
        case removeSong(id: Song.ID)
        /// Drags the song at one position to another.
        case moveSong(from: Int, to: Int)
        /// Shuffles the songs; the seed is drawn by the app, so replay shuffles the same way.
        case shuffleSongs(seed: UInt64)
        /// The keyboard moves to a field, or goes away.
        case focusChanged(Field?)
    }

    /// The form's reducer.
    public static let reducer = Reducer<State, Action> { state, action in
        switch action {
        case .setName(let name):
            state.setlist.name = name
        case .setGigDate(let date):
            state.setlist.gigDate = date
        case .addSongTapped(let id):
            state.setlist.songs.append(Song(id: id))
            state.focus = .songTitle(id)
        case .setSongTitle(let id, let title):
            state.setlist.songs[id: id]?.title = title
        case .setSongLength(let id, let length):
            state.setlist.songs[id: id]?.length = length
        case .setSongKey(let id, let key):
            state.setlist.songs[id: id]?.key = key
        case .removeSong(let id):
            state.setlist.songs[id: id] = nil
            if state.focus == .songTitle(id) { state.focus = nil }
        case .moveSong(let source, let destination):
            state.setlist.songs.move(from: source, to: destination)
        case .shuffleSongs(let seed):
            var random = SeededRandom(seed: seed)
            state.setlist.songs.shuffle(using: &random)
        case .focusChanged(let field):
            state.focus = field
        }
    }

    /// The setlist as saved: the name trimmed, untitled songs dropped.
    static func saved(_ setlist: Setlist) -> Setlist {
        var saved = setlist
        saved.name = setlist.name.trimmingCharacters(in: .whitespaces)
        saved.songs.removeAll { $0.title.trimmingCharacters(in: .whitespaces).isEmpty }
        return saved
    }
}
