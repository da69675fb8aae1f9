import Foundation
import SampleFeatures
import StoreKitCore
import StoreKitSystem
import StoreKitTesting
import Testing

/// The rounds of a stress test that asserted something else than expected, for one summary expectation.
private struct Misses {
    private(set) var rounds: [String] = []

    mutating func check<Value: Equatable>(_ round: Int, _ actual: Value, _ expected: Value) {
        if actual != expected { rounds.append("round \(round): \(actual), expected \(expected)") }
    }
}

@Suite struct TestClockTests {
    /// Rounds of advance-then-assert in each stress test.
    static let rounds = 200

    @Test func advanceThenAssertSeesEveryTickOfAStoreTimer() async {
        // Given a store whose timer effect was just started (its task may not have reached its first sleep yet)
        let clock = TestClock()
        let store = Store(initialState: Stack.State(), reducer: Stack.reducer, effects: Stack.effects(clock: clock))
        store.dispatch(.push(id: 1, title: "Intro"))
        store.dispatch(.path(.element(id: 1, action: .startTapped)))

        // When the test advances one second at a time, asserting right after each advance
        var misses = Misses()
        for round in 1...Self.rounds {
            await clock.advance(by: .seconds(1))
            misses.check(round, store.state.path[1]?.ticks ?? -1, round)
        }

        // Then every tick was there at once
        #expect(misses.rounds == [], "\(misses.rounds.count) of \(Self.rounds) rounds missed")
        store.dispatch(.path(.element(id: 1, action: .stopTapped)))
        await #expect(throws: Never.self) { try await store.waitForEffects(timeout: .seconds(60)) }
    }

    @Test func advanceThenAssertStampsActionsThatHopThroughAnotherTaskAtTheirTime() async {
        // Given a signal task that emits every 100 ms into a stream another task dispatches to a mock store
        let clock = TestClock()
        let store = MockStore<Counter.State, Counter.Action>(initialState: Counter.State(), clock: clock)
        let rounds = Self.rounds
        let (values, emit) = AsyncStream<Int>.makeStream()
        let signal = Task {
            for value in 1...rounds {
                try await clock.sleep(until: .init(offset: .milliseconds(100 * value)))
                emit.yield(value)
            }
            emit.finish()
        }
        let wiring = Task { for await value in values { store.dispatch(.setStep(value)) } }

        // When time advances 100 ms at a time, asserting right after each advance
        var misses = Misses()
        for round in 1...rounds {
            await clock.advance(by: .milliseconds(100))
            let dispatched = store.dispatched.all
            misses.check(round, dispatched.count, round)
            misses.check(round, dispatched.last?.time ?? .zero, .milliseconds(100 * round))
        }

        // Then each action was there, stamped with its own virtual time
        #expect(misses.rounds == [], "\(misses.rounds.count) checks missed")
        try? await signal.value
        await wiring.value
    }

    @Test func advanceRightAfterStartingATaskWakesItsFirstSleep() async {
        // Given, each round, a task that has only just been created when the test advances
        let clock = TestClock()
        let woke = Locked(0)
        var misses = Misses()
        for round in 1...Self.rounds {
            let sleeper = Task {
                try await clock.sleep(for: .seconds(1))
                woke.withLock { $0 = round }
            }
            // When the clock advances by that one second
            await clock.advance(by: .seconds(1))
            // Then the task woke and ran to its end before advance returned
            misses.check(round, woke.withLock { $0 }, round)
            sleeper.cancel()
        }
        #expect(misses.rounds == [], "\(misses.rounds.count) of \(Self.rounds) rounds missed")
    }

    @Test func aTaskThatGoesToSleepWhileTimeAdvancesIsNeverLeftAsleep() async throws {
        // A sleeper that registers while `advance` runs must either be woken by it or find the new time at once,
        // never sleep on past a deadline the clock has already reached.
        let clock = TestClock()
        for round in 1...300 {
            let deadline = TestClock.Instant(offset: .milliseconds(round))
            let sleeper = Task { try await clock.sleep(until: deadline) }
            await clock.advance(by: .milliseconds(1))
            #expect(clock.sleeperCount == 0, "round \(round): a sleeper is still asleep at \(clock.now.offset)")
            sleeper.cancel()
            _ = try? await sleeper.value
        }
    }

    @Test func sleepersWakeInDeadlineOrderAtTheirVirtualTimes() async throws {
        let clock = TestClock()
        let woken = Locked([Duration]())
        let sleepers = [300, 100, 200].map { milliseconds in
            Task {
                try await clock.sleep(until: .init(offset: .milliseconds(milliseconds)))
                woken.withLock { $0.append(clock.now.offset) }
            }
        }
        await clock.advance(by: .milliseconds(250))
        #expect(woken.withLock { $0 } == [.milliseconds(100), .milliseconds(200)])
        await clock.advance(to: .init(offset: .milliseconds(300)))
        #expect(woken.withLock { $0 } == [.milliseconds(100), .milliseconds(200), .milliseconds(300)])
        for sleeper in sleepers { try await sleeper.value }
    }

    @Test func aCancelledSleeperThrowsCancellationError() async {
        let clock = TestClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
        await clock.advance(by: .zero)
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
    }
}
