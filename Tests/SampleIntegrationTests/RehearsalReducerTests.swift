import Foundation
import RehearsalFeatures
import StoreKitCore
import Testing

/// The rehearsal planner's reducers where they are tricky: reordering by position, the stack's ids, what crosses
/// screens, and the timer's ticks.
@Suite struct RehearsalReducerTests {
    typealias Fixtures = RehearsalFixtures

    private func reduce(_ state: inout RehearsalApp.State, _ actions: RehearsalApp.Action...) {
        for action in actions { RehearsalApp.reducer.reduce(&state, action) }
    }

    private func appWith(_ setlists: Setlist...) -> RehearsalApp.State {
        var state = RehearsalApp.State()
        state.setlists.setlists = setlists
        return state
    }

    // MARK: - Reordering

    @Test(arguments: [
        (0, 2, [2, 3, 1]), (2, 0, [3, 1, 2]), (1, 1, [1, 2, 3]), (0, 9, [2, 3, 1]), (1, -4, [2, 1, 3]), (5, 0, [1, 2, 3]),
    ])
    func movingASongPutsItAtItsNewPosition(_ source: Int, _ destination: Int, _ expected: [Int]) {
        var form = SetlistForm.State(setlist: Fixtures.setlist(1, songs: 3))
        SetlistForm.reducer.reduce(&form, .moveSong(from: source, to: destination))
        #expect(form.setlist.songs.map(\.title) == expected.map { "Song \($0)" })
    }

    @Test func shufflingWithTheSameSeedGivesTheSameOrder() {
        var first = SetlistForm.State(setlist: Fixtures.setlist(1, songs: 8))
        var second = first
        SetlistForm.reducer.reduce(&first, .shuffleSongs(seed: 42))
        SetlistForm.reducer.reduce(&second, .shuffleSongs(seed: 42))
        #expect(first == second)
        #expect(first.setlist.songs.map(\.id) != Fixtures.setlist(1, songs: 8).songs.map(\.id))
        #expect(Set(first.setlist.songs.map(\.id)) == Set(Fixtures.setlist(1, songs: 8).songs.map(\.id)))
    }

    @Test func movingASetlistKeepsEverySetlist() {
        var state = appWith(Fixtures.setlist(1, songs: 1), Fixtures.setlist(2, songs: 1), Fixtures.setlist(3, songs: 1))
        reduce(&state, .setlists(.moveSetlist(from: 2, to: 0)))
        #expect(state.setlists.setlists.map(\.name) == ["Setlist 3", "Setlist 1", "Setlist 2"])
    }

    @Test func addingASetlistDropsUntitledSongsAndNeedsAName() {
        var state = RehearsalApp.State()
        reduce(
            &state, .setlists(.addButtonTapped(id: Fixtures.id(1))), .setlists(.addForm(.addSongTapped(id: Fixtures.id(10)))),
            .setlists(.addForm(.setSongTitle(id: Fixtures.id(10), title: "Undertow"))),
            .setlists(.addForm(.addSongTapped(id: Fixtures.id(11)))), .setlists(.confirmAddTapped))
        // Without a name the sheet stays open, focused on the last song added
        #expect(state.setlists.setlists.isEmpty)
        #expect(state.setlists.addForm?.focus == .songTitle(Fixtures.id(11)))

        reduce(&state, .setlists(.addForm(.setName("  Friday  "))), .setlists(.confirmAddTapped))
        #expect(state.setlists.addForm == nil)
        #expect(state.setlists.setlists.map(\.name) == ["Friday"])
        #expect(state.setlists.setlists.first?.songs.map(\.title) == ["Undertow"])
    }

    // MARK: - The stack

    @Test func screensArePushedUnderNewIdsAndPoppedWithEverythingAbove() {
        // Given a setlist opened, a rehearsal started on it, popped, and the setlist opened again
        var state = appWith(Fixtures.setlist(1, songs: 2))
        reduce(
            &state, .setlists(.setlistTapped(id: Fixtures.id(1))),
            .path(.element(id: 1, action: .detail(.startRehearsalTapped(id: Fixtures.id(50), at: Fixtures.date())))))
        #expect(state.path.ids == [1, 2])
        guard case .rehearsal(let rehearsal)? = state.path[id: 2] else {
            Issue.record("no rehearsal on top: \(state.path.elements)")
            return
        }
        #expect(rehearsal.startedAt == Fixtures.date())

        // When the detail is popped, the rehearsal above it goes too; ids are never given again
        reduce(&state, .path(.popFrom(id: 1)), .setlists(.setlistTapped(id: Fixtures.id(1))))
        #expect(state.path.ids == [3])
        // And actions for screens no longer on the stack change nothing
        let before = state
        reduce(&state, .path(.element(id: 2, action: .rehearsal(.startTapped))), .path(.popFrom(id: 7)))
        #expect(state == before)
    }

    @Test func aRehearsalOfAnEmptySetlistIsNotPushed() {
        var state = appWith(Fixtures.setlist(1, songs: 0))
        reduce(
            &state, .setlists(.setlistTapped(id: Fixtures.id(1))),
            .path(.element(id: 1, action: .detail(.startRehearsalTapped(id: Fixtures.id(50), at: Fixtures.date())))))
        #expect(state.path.ids == [1])
    }

    @Test func anEndedRehearsalIsSavedIntoTheListAndTheDetailBelowAndPopped() {
        var state = appWith(Fixtures.setlist(1, songs: 2, seconds: 2))
        reduce(
            &state, .setlists(.setlistTapped(id: Fixtures.id(1))),
            .path(.element(id: 1, action: .detail(.startRehearsalTapped(id: Fixtures.id(50), at: Fixtures.date())))),
            .path(.element(id: 2, action: .rehearsal(.startTapped))))
        for _ in 0..<(Rehearsal.countInBeats + 3) { reduce(&state, .path(.element(id: 2, action: .rehearsal(.timerTick)))) }
        reduce(&state, .path(.element(id: 2, action: .rehearsal(.endTapped))))

        let expected = PastRehearsal(
            id: Fixtures.id(50), startedAt: Fixtures.date(),
            songTimes: [Fixtures.id(100): .seconds(2), Fixtures.id(101): .seconds(1)], total: .seconds(3),
            finishedAllSongs: false)
        #expect(state.path.ids == [1])
        #expect(state.setlists.setlists.first?.rehearsals == [expected])
        guard case .detail(let detail)? = state.path[id: 1] else {
            Issue.record("no detail below")
            return
        }
        #expect(detail.setlist.rehearsals == [expected])
    }

    @Test func aPastRehearsalsEditsReachItsSetlistAndDeletingItPops() {
        var state = appWith(Fixtures.setlist(1, songs: 1))
        let past = PastRehearsal(
            id: Fixtures.id(50), startedAt: Fixtures.date(), songTimes: [:], total: .seconds(9), finishedAllSongs: true)
        state.setlists.setlists[0].rehearsals = [past]
        reduce(
            &state, .setlists(.setlistTapped(id: Fixtures.id(1))),
            .path(.element(id: 1, action: .detail(.pastRehearsalTapped(id: Fixtures.id(50))))),
            .path(.element(id: 2, action: .record(.ratingChanged(9)))))
        #expect(state.setlists.setlists[0].rehearsals.first?.rating == 5)

        reduce(&state, .path(.element(id: 2, action: .record(.deleteTapped))))
        #expect(state.path.ids == [1])
        #expect(state.setlists.setlists[0].rehearsals.isEmpty)
    }

    @Test func deletingASetlistFromItsDetailAsksFirstThenPops() {
        var state = appWith(Fixtures.setlist(1, songs: 1), Fixtures.setlist(2, songs: 1))
        reduce(
            &state, .setlists(.setlistTapped(id: Fixtures.id(1))), .path(.element(id: 1, action: .detail(.deleteSetlistTapped))),
            .path(.element(id: 1, action: .detail(.destination(.deletionCancelled)))))
        #expect(state.setlists.setlists.count == 2)

        reduce(
            &state, .path(.element(id: 1, action: .detail(.deleteSetlistTapped))),
            .path(.element(id: 1, action: .detail(.destination(.deletionConfirmed)))))
        #expect(state.setlists.setlists.map(\.name) == ["Setlist 2"])
        #expect(state.path.ids.isEmpty)
    }

    @Test func editsAreSavedOnDoneAndDroppedOnCancel() {
        var state = appWith(Fixtures.setlist(1, songs: 2))
        let edit = { (action: SetlistForm.Action) in RehearsalApp.Action.path(.element(id: 1, action: .detail(.destination(.edit(action))))) }
        reduce(
            &state, .setlists(.setlistTapped(id: Fixtures.id(1))), .path(.element(id: 1, action: .detail(.editTapped))),
            edit(.moveSong(from: 1, to: 0)), .path(.element(id: 1, action: .detail(.doneEditingTapped))),
            .path(.element(id: 1, action: .detail(.editTapped))), edit(.setName("Changed")),
            .path(.element(id: 1, action: .detail(.cancelEditingTapped))))
        #expect(state.setlists.setlists[0].songs.map(\.title) == ["Song 2", "Song 1"])
        #expect(state.setlists.setlists[0].name == "Setlist 1")
    }

    // MARK: - Ticks

    @Test func ticksCountInThenTimeEachSongAndMoveOnWhenItsTimeIsUp() {
        var state = Rehearsal.State(id: Fixtures.id(50), setlist: Fixtures.setlist(1, songs: 2, seconds: 2), startedAt: Fixtures.date())
        let tick = { (state: inout Rehearsal.State) in Rehearsal.reducer.reduce(&state, .timerTick) }

        // Ticks before the start change nothing; the start counts in
        tick(&state)
        #expect(state.phase == .ready)
        Rehearsal.reducer.reduce(&state, .startTapped)
        #expect(state.phase == .countingIn(beatsLeft: Rehearsal.countInBeats))
        for _ in 0..<Rehearsal.countInBeats { tick(&state) }
        #expect(state.phase == .playing)
        #expect(state.elapsed == .zero)

        // The first song's second second moves on to the second song
        tick(&state)
        #expect(state.songIndex == 0 && state.elapsedInSong == .seconds(1))
        tick(&state)
        #expect(state.songIndex == 1 && state.elapsedInSong == .zero)

        // Paused ticks are not counted; the last song's time up finishes the rehearsal
        Rehearsal.reducer.reduce(&state, .pauseTapped)
        tick(&state)
        #expect(state.elapsed == .seconds(2))
        Rehearsal.reducer.reduce(&state, .resumeTapped)
        tick(&state)
        tick(&state)
        #expect(state.phase == .finished)
        #expect(state.songTimes == [Fixtures.id(100): .seconds(2), Fixtures.id(101): .seconds(2)])
        #expect(state.record.finishedAllSongs && state.record.total == .seconds(4))
        tick(&state)
        #expect(state.elapsed == .seconds(4))
    }

    @Test func skippingMovesBetweenSongsAndRestartsTheirTime() {
        var state = Rehearsal.State(id: Fixtures.id(50), setlist: Fixtures.setlist(1, songs: 3), startedAt: Fixtures.date())
        Rehearsal.reducer.reduce(&state, .previousSongTapped)
        #expect(state.songIndex == 0)
        Rehearsal.reducer.reduce(&state, .nextSongTapped)
        Rehearsal.reducer.reduce(&state, .nextSongTapped)
        #expect(state.songIndex == 2)
        Rehearsal.reducer.reduce(&state, .previousSongTapped)
        #expect(state.songIndex == 1)
        Rehearsal.reducer.reduce(&state, .nextSongTapped)
        Rehearsal.reducer.reduce(&state, .nextSongTapped)
        #expect(state.phase == .finished && state.songIndex == 2)
    }
}
