import Foundation
import StoreKitCore

/// The rehearsal screen: a count-in, then the setlist's songs one after another on a one-second timer, moving on
/// when a song's planned length is up; the band can pause, skip back and forth, take notes, end or discard.
///
/// The timer is the app's effect (``RehearsalApp/timer``); this feature only counts its ticks.
public enum Rehearsal {
    /// How many ticks the count-in lasts.
    public static let countInBeats = 4

    /// Where the rehearsal is.
    public enum Phase: Codable, Equatable, Sendable {
        /// Not started yet.
        case ready
        /// Counting in; the songs start after this many more ticks.
        case countingIn(beatsLeft: Int)
        /// A song is playing.
        case playing
        /// Paused by the band.
        case paused
        /// Every song has been played.
        case finished
    }

    /// The rehearsal's state.
    public struct State: Codable, Equatable, Sendable {
        /// The id the rehearsal will be saved under.
        public var id: PastRehearsal.ID
        /// The setlist rehearsed.
        public var setlist: Setlist
        /// When the rehearsal started.
        public var startedAt: Date
        /// Where it is.
        public var phase: Phase = .ready
        /// The position of the current song in the setlist.
        public var songIndex = 0
        /// How long the current song has played.
        public var elapsedInSong: Duration = .zero
        /// How long the band has played in total.
        public var elapsed: Duration = .zero
        /// How long each song has played so far, by song id.
        public var songTimes: [Song.ID: Duration] = [:]
        /// What the band noted during the rehearsal.
        public var notes = ""

        /// Creates a rehearsal of `setlist`, ready to start.
        public init(id: PastRehearsal.ID, setlist: Setlist, startedAt: Date) {
            self.id = id
            self.setlist = setlist
            self.startedAt = startedAt
        }

        /// The song playing (or about to), if the setlist has one at the current position.
        public var currentSong: Song? {
            setlist.songs.indices.contains(songIndex) ? setlist.songs[songIndex] : nil
        }

        /// The rehearsal as it is saved when the band ends it.
        public var record: PastRehearsal {
            PastRehearsal(
                id: id, startedAt: startedAt, songTimes: songTimes, total: elapsed, finishedAllSongs: phase == .finished,
                notes: notes)
        }

        /// Moves on to the next song, or finishes after the last one.
        public mutating func advanceToNextSong() {
            elapsedInSong = .zero
            if songIndex + 1 < setlist.songs.count {
                songIndex += 1
            } else {
                phase = .finished
            }
        }
    }

    /// What happens during a rehearsal.
    public enum Action: Codable, Equatable, Sendable {
        /// Starts the count-in (and the app's timer).
        case startTapped
        /// One second of the timer passed.
        case timerTick
        /// Pauses (and stops the timer).
        case pauseTapped
        /// Resumes playing (and restarts the timer).
        case resumeTapped
        /// Skips to the next song.
        case nextSongTapped
        /// Goes back to the start of the previous song.
        case previousSongTapped
        /// Types the rehearsal's notes.
        case notesChanged(String)
        /// Ends the rehearsal and saves it (the app saves it and pops the screen).
        case endTapped
        /// Leaves without saving (the app pops the screen).
        case discardTapped
    }

    /// The rehearsal's reducer.
    public static let reducer = Reducer<State, Action> { state, action in
        switch action {
        case .startTapped:
            guard state.phase == .ready, !state.setlist.songs.isEmpty else { return }
            state.phase = .countingIn(beatsLeft: countInBeats)
        case .timerTick:
            switch state.phase {
            case .countingIn(let beatsLeft):
                state.phase = beatsLeft > 1 ? .countingIn(beatsLeft: beatsLeft - 1) : .playing
            case .playing:
                guard let song = state.currentSong else { return }
                state.elapsedInSong += .seconds(1)
                state.elapsed += .seconds(1)
                state.songTimes[song.id, default: .zero] += .seconds(1)
                if state.elapsedInSong >= song.length { state.advanceToNextSong() }
            case .ready, .paused, .finished:
                break
            }
        case .pauseTapped:
            switch state.phase {
            case .countingIn, .playing: state.phase = .paused
            case .ready, .paused, .finished: break
            }
        case .resumeTapped:
            if state.phase == .paused { state.phase = .playing }
        case .nextSongTapped:
            guard state.phase != .finished else { return }
            state.advanceToNextSong()
        case .previousSongTapped:
            guard state.phase != .finished else { return }
            state.songIndex = max(state.songIndex - 1, 0)
            state.elapsedInSong = .zero
        case .notesChanged(let notes):
            state.notes = notes
        case .endTapped, .discardTapped:
            break
        }
    }
}
