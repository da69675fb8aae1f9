import Foundation
import RehearsalFeatures
import SampleSupport
import StoreKitCore

/// A band's weeks with the rehearsal planner, tapped through as a user would: setlists created, typed, reordered,
/// edited, shuffled and deleted; rehearsals started, counted in, timed song by song, paused, skipped, ended,
/// discarded and rated; screens pushed and popped.
///
/// Everything the app would read from the world comes from the script: ids and shuffle seeds from the seeded
/// generator, dates from a wall clock that starts at a fixed instant, and the timer's seconds from a
/// ``ScriptedClock`` that the script advances, waiting each time until the timer has sent its tick and sleeps again.
/// So the same seed records the same actions, and a recording takes milliseconds.
struct RehearsalJourney {
    typealias Path = RehearsalApp.Path

    let store: Store<RehearsalApp.State, RehearsalApp.Action>
    let clock: ScriptedClock
    var random: SeededRandom
    /// The wall clock the app would read: Monday 2 November 2026, 18:00 UTC, moved on by the script.
    var now = Date(timeIntervalSince1970: 1_793_642_400)
    /// How many actions the script dispatched (the timer's ticks are the effect's, not counted).
    private(set) var userActions = 0

    init(store: Store<RehearsalApp.State, RehearsalApp.Action>, clock: ScriptedClock, random: SeededRandom) {
        self.store = store
        self.clock = clock
        self.random = random
    }

    /// Songs the band plays, with their planned lengths in seconds and keys.
    static let catalog: [(title: String, seconds: Int64, key: String?)] = [
        ("Harbour Lights", 214, "E minor"), ("Northbound", 187, "A"), ("Paper Moon Parade", 251, "D"),
        ("Slow Burn", 298, "C minor"), ("Last Tram Home", 176, nil), ("Glasshouse", 232, "F#"),
        ("Undertow", 265, "B minor"), ("Copper Sky", 199, "G"),
    ]

    /// Short exercises: a rehearsal of them runs through every song on the timer.
    static let warmUps: [(title: String, seconds: Int64, key: String?)] = [
        ("Scales", 6, "C"), ("Groove in A", 8, "A"), ("Dynamics", 5, nil),
    ]

    /// Runs weeks of the band's life until the script has dispatched at least `budget` actions; every week ends
    /// back on the list with no rehearsal running.
    mutating func run(actions budget: Int) async {
        var week = 0
        var warmUpsID: Setlist.ID?
        var gigID: Setlist.ID?
        while userActions < budget {
            switch week % 3 {
            case 0:
                (warmUpsID, gigID) = await firstWeek(week)
            case 1:
                if let gigID { await gigWeek(gigID) }
            default:
                if let warmUpsID { await tidyingWeek(warmUpsID, week: week) }
            }
            week += 1
            now += 7 * 86_400
        }
    }

    // MARK: - Weeks

    /// Sets up a warm-up setlist and a gig setlist, then runs through the warm-ups and rates the rehearsal.
    private mutating func firstWeek(_ week: Int) async -> (warmUps: Setlist.ID, gig: Setlist.ID) {
        let suffix = week == 0 ? "" : " (\(week / 3 + 1))"
        let warmUps = createSetlist("Warm-ups" + suffix, songs: Self.warmUps, gigInDays: nil)
        // Second thoughts: a sheet opened, a name begun, and the sheet dismissed.
        send(.setlists(.addButtonTapped(id: Setlist.ID(random.uuid()))))
        type("Scratch ideas") { .setlists(.addForm(.setName($0))) }
        send(.setlists(.dismissAddTapped))
        let songs = Array(Self.catalog.shuffled(using: &random).prefix(5))
        let gig = createSetlist("Friday at The Anchor" + suffix, songs: songs, gigInDays: 4)
        send(.setlists(.moveSetlist(from: store.state.setlists.setlists.count - 1, to: 0)))

        open(warmUps)
        await startRehearsal()
        await tick(Rehearsal.countInBeats + 3)
        send(onTop: .rehearsal(.pauseTapped))
        type("Groove drags a little") { .rehearsal(.notesChanged($0)) }
        await resume()
        await tickUntilFinished()
        send(onTop: .rehearsal(.endTapped))
        openNewestRehearsal(of: warmUps)
        send(onTop: .record(.ratingChanged(Int.random(in: 3...5, using: &random))))
        type("Groove drags a little; dynamics were great") { .record(.notesChanged($0)) }
        popTop()
        popTop()
        return (warmUps, gig)
    }

    /// Reworks the gig setlist, rehearses part of it with skips and a pause, and starts one more that is discarded.
    private mutating func gigWeek(_ gig: Setlist.ID) async {
        open(gig)
        send(onTop: .detail(.editTapped))
        let songs = detailSetlist()?.songs ?? []
        edit(.moveSong(from: songs.count - 1, to: 0))
        if let second = songs.dropFirst().first {
            edit(.focusChanged(.songTitle(second.id)))
            edit(.setSongLength(id: second.id, length: second.length + .seconds(Int64.random(in: 10...40, using: &random))))
            edit(.setSongKey(id: second.id, key: nil))
        }
        let encore = Self.catalog.randomElement(using: &random)!
        let encoreID = Song.ID(random.uuid())
        edit(.addSongTapped(id: encoreID))
        type(encore.title + " (encore)") { .detail(.destination(.edit(.setSongTitle(id: encoreID, title: $0)))) }
        edit(.setSongLength(id: encoreID, length: .seconds(encore.seconds)))
        edit(.focusChanged(nil))
        send(onTop: .detail(.doneEditingTapped))

        send(onTop: .detail(.editTapped))
        edit(.shuffleSongs(seed: random.next()))
        send(onTop: .detail(.cancelEditingTapped))

        await startRehearsal()
        await tick(Rehearsal.countInBeats + Int.random(in: 6...10, using: &random))
        send(onTop: .rehearsal(.nextSongTapped))
        await tick(Int.random(in: 4...8, using: &random))
        send(onTop: .rehearsal(.nextSongTapped))
        send(onTop: .rehearsal(.previousSongTapped))
        await tick(5)
        send(onTop: .rehearsal(.pauseTapped))
        type("Bridge of the second song rushes") { .rehearsal(.notesChanged($0)) }
        await resume()
        await tick(3)
        send(onTop: .rehearsal(.endTapped))

        await startRehearsal()
        await tick(Rehearsal.countInBeats - 1)
        send(onTop: .rehearsal(.discardTapped))
        popTop()
    }

    /// Runs the warm-ups once more (with a double tap on resume), tidies old rehearsals, walks away from one
    /// rehearsal mid-song, and deletes two setlists: one swiped away, one from its detail after second thoughts.
    private mutating func tidyingWeek(_ warmUps: Setlist.ID, week: Int) async {
        let suffix = week < 3 ? "" : " (\(week / 3 + 1))"
        let jam = createSetlist(
            "Sunday jam" + suffix, songs: Array(Self.catalog.shuffled(using: &random).prefix(3)), gigInDays: 6)
        send(.setlists(.deleteSetlist(id: jam)))

        open(warmUps)
        await startRehearsal()
        await tick(Rehearsal.countInBeats + 2)
        send(onTop: .rehearsal(.pauseTapped))
        await resume(doubleTapped: true)
        await tickUntilFinished()
        send(onTop: .rehearsal(.endTapped))
        if let oldest = detailSetlist()?.rehearsals.last {
            send(onTop: .detail(.deleteRehearsal(id: oldest.id)))
        }
        openNewestRehearsal(of: warmUps)
        send(onTop: .record(.deleteTapped))
        await startRehearsal()
        await tick(Rehearsal.countInBeats + 2)
        popTop()
        popTop()

        let covers = createSetlist(
            "Covers to learn" + suffix, songs: Array(Self.catalog.shuffled(using: &random).prefix(2)), gigInDays: nil)
        open(covers)
        send(onTop: .detail(.deleteSetlistTapped))
        send(onTop: .detail(.destination(.deletionCancelled)))
        send(onTop: .detail(.deleteSetlistTapped))
        send(onTop: .detail(.destination(.deletionConfirmed)))
    }

    // MARK: - Steps

    /// Opens the add sheet, types a name, picks a gig date, adds and fills in songs, moves and removes one, and
    /// adds the setlist.
    private mutating func createSetlist(
        _ name: String, songs: [(title: String, seconds: Int64, key: String?)], gigInDays: Int?
    ) -> Setlist.ID {
        let id = Setlist.ID(random.uuid())
        send(.setlists(.addButtonTapped(id: id)))
        type(name) { .setlists(.addForm(.setName($0))) }
        if let gigInDays {
            let evening = (now.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400 + 20 * 3_600
            form(.setGigDate(Date(timeIntervalSince1970: evening + Double(gigInDays) * 86_400)))
        }
        var ids: [Song.ID] = []
        for song in songs {
            let songID = Song.ID(random.uuid())
            ids.append(songID)
            form(.addSongTapped(id: songID))
            form(.setSongTitle(id: songID, title: song.title))
            form(.setSongLength(id: songID, length: .seconds(song.seconds)))
            if let key = song.key { form(.setSongKey(id: songID, key: key)) }
        }
        if songs.count > 3 {
            // A song added by mistake, and the order changed by a drag.
            let extra = Song.ID(random.uuid())
            form(.addSongTapped(id: extra))
            form(.removeSong(id: extra))
            form(.moveSong(from: 0, to: songs.count - 1))
        }
        form(.focusChanged(nil))
        send(.setlists(.confirmAddTapped))
        return id
    }

    /// Types `text` the way a person does: a few growing prefixes, then the whole of it.
    private mutating func type(_ text: String, as action: (String) -> RehearsalApp.Action) {
        let words = text.split(separator: " ")
        for count in stride(from: 1, to: words.count, by: 2) {
            send(action(words.prefix(count).joined(separator: " ")))
        }
        send(action(text))
    }

    /// Types `text` on the top screen.
    private mutating func type(_ text: String, as action: (String) -> Path.Action) {
        let top = topID
        type(text) { .path(.element(id: top, action: action($0))) }
    }

    private mutating func form(_ action: SetlistForm.Action) {
        send(.setlists(.addForm(action)))
    }

    private mutating func edit(_ action: SetlistForm.Action) {
        send(onTop: .detail(.destination(.edit(action))))
    }

    private mutating func open(_ setlist: Setlist.ID) {
        send(.setlists(.setlistTapped(id: setlist)))
    }

    private mutating func openNewestRehearsal(of setlist: Setlist.ID) {
        guard let newest = store.state.setlists.setlists.first(where: { $0.id == setlist })?.rehearsals.first else {
            return
        }
        send(onTop: .detail(.pastRehearsalTapped(id: newest.id)))
    }

    private mutating func popTop() {
        send(.path(.popFrom(id: topID)))
    }

    /// Starts a rehearsal of the detail on top and its count-in, and waits until the timer sleeps.
    private mutating func startRehearsal() async {
        send(onTop: .detail(.startRehearsalTapped(id: PastRehearsal.ID(random.uuid()), at: now)))
        await restartTimer(with: .startTapped)
    }

    /// Resumes the paused rehearsal on top (twice in a row when `doubleTapped`: the second start cancels the
    /// first in flight) and waits until exactly one timer sleeps.
    private mutating func resume(doubleTapped: Bool = false) async {
        if doubleTapped { await restartTimer(with: .resumeTapped) }
        await restartTimer(with: .resumeTapped)
    }

    /// Sends an action that (re)starts the timer and waits until the new timer sleeps and any timer it
    /// superseded has stopped, so the next second wakes exactly one.
    private mutating func restartTimer(with action: Rehearsal.Action) async {
        let calls = clock.sleepCallCount
        send(onTop: .rehearsal(action))
        await clock.waitUntil(sleepCalls: calls + 1, sleepers: 1)
    }

    /// Lets `seconds` seconds pass, one at a time, each time waiting until the timer has sent its tick and sleeps
    /// again; stops early when the rehearsal finishes.
    private mutating func tick(_ seconds: Int) async {
        for _ in 0..<seconds {
            guard isTimerRunning else { return }
            let calls = clock.sleepCallCount
            clock.advance(by: .seconds(1))
            now += 1
            await clock.waitUntil(sleepCalls: calls + 1)
        }
    }

    /// Lets the timer run until the rehearsal on top has played every song.
    private mutating func tickUntilFinished() async {
        while isTimerRunning { await tick(1) }
    }

    /// Whether the screen on top is a rehearsal that counts in or plays, so its timer is asleep on the clock.
    private var isTimerRunning: Bool {
        guard case .rehearsal(let rehearsal)? = store.state.path.elements.last else { return false }
        switch rehearsal.phase {
        case .countingIn, .playing: return true
        case .ready, .paused, .finished: return false
        }
    }

    /// The setlist of the detail on top, if a detail is on top.
    private func detailSetlist() -> Setlist? {
        guard case .detail(let detail)? = store.state.path.elements.last else { return nil }
        return detail.setlist
    }

    /// The id of the screen on top of the stack.
    private var topID: StackElementID {
        store.state.path.ids.last ?? StackElementID(0)
    }

    private mutating func send(onTop action: Path.Action) {
        send(.path(.element(id: topID, action: action)))
    }

    private mutating func send(_ action: RehearsalApp.Action) {
        store.dispatch(action)
        userActions += 1
        now += Double(Int.random(in: 1...6, using: &random))
    }
}
