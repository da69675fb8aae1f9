import Foundation
import RehearsalFeatures
import StoreKitCore
import StoreKitSystem
import StoreKitTesting
import Testing

/// The rehearsal planner under `TestStore`, as an app team would test it: every step asserted, five features deep,
/// with the timer's ticks received from the effect.
///
/// The timer sleeps on the store's clock, here a ``ScriptedClock``, and each second is advanced only once the timer sleeps on it: `TestClock`'s
/// advance-then-assert (which lets a just-started effect reach its sleep by a timing heuristic) missed the first
/// tick in about 1 of 90 runs with six test processes on this machine's two cores.
@Suite struct RehearsalTestStoreTests {
    typealias Fixtures = RehearsalFixtures

    private static let tick = RehearsalApp.Action.path(.element(id: 2, action: .rehearsal(.timerTick)))

    /// A test store on one setlist of two two-second songs, its timer on `clock`.
    private func testStore(
        clock: ScriptedClock, reportFailure: @escaping @Sendable (TestFailure) -> Void = TestFailure.reportToTestFramework
    ) -> TestStore<RehearsalApp.State, RehearsalApp.Action> {
        var state = RehearsalApp.State()
        state.setlists.setlists = [Fixtures.setlist(1, songs: 2, seconds: 2)]
        return TestStore(
            initialState: state, reducer: RehearsalApp.reducer, effects: [RehearsalApp.timer], clock: clock,
            reportFailure: reportFailure)
    }

    /// Opens the setlist and starts a rehearsal on it, asserting each push.
    private func startRehearsal(_ store: TestStore<RehearsalApp.State, RehearsalApp.Action>) async {
        let setlist = Fixtures.setlist(1, songs: 2, seconds: 2)
        await store.send(.setlists(.setlistTapped(id: setlist.id))) {
            $0.path.push(.detail(SetlistDetail.State(setlist: setlist)))
        }
        await store.send(.path(.element(id: 1, action: .detail(.startRehearsalTapped(id: Fixtures.id(50), at: Fixtures.date()))))) {
            $0.path.push(.rehearsal(Rehearsal.State(id: Fixtures.id(50), setlist: setlist, startedAt: Fixtures.date())))
        }
        await store.send(.path(.element(id: 2, action: .rehearsal(.startTapped)))) {
            $0.path[id: 2] = .rehearsal(Self.rehearsal($0) { $0.phase = .countingIn(beatsLeft: Rehearsal.countInBeats) })
        }
    }

    /// Waits until the timer sleeps on `clock`, then lets one second pass.
    private func second(on clock: ScriptedClock) async {
        #expect(await Fixtures.within { await clock.waitUntil(sleepCalls: 0, sleepers: 1) })
        clock.advance(by: .seconds(1))
    }

    /// The rehearsal on screen 2 of `state`, changed by `change`.
    private static func rehearsal(_ state: RehearsalApp.State, _ change: (inout Rehearsal.State) -> Void) -> Rehearsal.State {
        guard case .rehearsal(var rehearsal)? = state.path[id: 2] else {
            Issue.record("screen 2 is not a rehearsal: \(state.path.elements)")
            return Rehearsal.State(id: Fixtures.id(0), setlist: Fixtures.setlist(0, songs: 0), startedAt: Fixtures.date())
        }
        change(&rehearsal)
        return rehearsal
    }

    @Test func aRehearsalCountsInPlaysAndMovesOnWithEveryTickAsserted() async {
        let clock = ScriptedClock()
        let store = testStore(clock: clock)
        await startRehearsal(store)

        // The count-in, one tick a second
        for beatsLeft in (1..<Rehearsal.countInBeats).reversed() {
            await second(on: clock)
            await store.receive(Self.tick) {
                $0.path[id: 2] = .rehearsal(Self.rehearsal($0) { $0.phase = .countingIn(beatsLeft: beatsLeft) })
            }
        }
        await second(on: clock)
        await store.receive(Self.tick) { $0.path[id: 2] = .rehearsal(Self.rehearsal($0) { $0.phase = .playing }) }

        // Two seconds of the first song, and the rehearsal moves on to the second
        await second(on: clock)
        await store.receive(Self.tick) {
            $0.path[id: 2] = .rehearsal(
                Self.rehearsal($0) {
                    $0.elapsedInSong = .seconds(1)
                    $0.elapsed = .seconds(1)
                    $0.songTimes = [Fixtures.id(100): .seconds(1)]
                })
        }
        await second(on: clock)
        await store.receive(Self.tick) {
            $0.path[id: 2] = .rehearsal(
                Self.rehearsal($0) {
                    $0.songIndex = 1
                    $0.elapsedInSong = .zero
                    $0.elapsed = .seconds(2)
                    $0.songTimes = [Fixtures.id(100): .seconds(2)]
                })
        }

        // Discarding pops the rehearsal and stops the timer, so the store finishes with nothing running
        await store.send(.path(.element(id: 2, action: .rehearsal(.discardTapped)))) { $0.path.pop(from: 2) }
        await store.finish()
    }

    @Test func aWrongExpectationIsReportedAtItsStepWithTheActionFiveFeaturesDeep() async {
        // Given a test that expects the first playing tick to move on to the next song already
        let clock = ScriptedClock()
        let failures = Locked<[TestFailure]>([])
        let store = testStore(clock: clock) { failure in failures.withLock { $0.append(failure) } }
        await startRehearsal(store)
        store.exhaustivity = .off
        for _ in 0..<Rehearsal.countInBeats {
            await second(on: clock)
            await store.receive(Self.tick)
        }
        store.exhaustivity = .on

        // When the tick arrives
        await second(on: clock)
        await store.receive(Self.tick) { $0.path[id: 2] = .rehearsal(Self.rehearsal($0) { $0.songIndex = 1 }) }

        // Then one failure names the tick's store step and the action, and shows the song index
        let reported = failures.withLock { $0 }
        #expect(reported.count == 1)
        #expect(reported.first?.step == 3 + Rehearsal.countInBeats + 1)
        #expect(reported.first?.message.contains("timerTick") == true, "\(reported.first?.message ?? "")")
        #expect(reported.first?.message.contains("songIndex") == true, "\(reported.first?.message ?? "")")
        await store.send(.path(.element(id: 2, action: .rehearsal(.discardTapped)))) { $0.path.pop(from: 2) }
        await store.finish()
    }
}
