import Foundation
import StoreKitCore
import StoreKitTesting
import Testing

@Suite struct TestClockTests {
    @Test func aTaskThatGoesToSleepWhileTimeAdvancesIsNeverLeftAsleep() async throws {
        // A sleeper that registers while `advance` runs must either be woken by it or find the new time at once,
        // never sleep on past a deadline the clock has already reached.
        let clock = TestClock()
        for round in 1...300 {
            let deadline = TestClock.Instant(offset: .milliseconds(round))
            let sleeper = Task { try await clock.sleep(until: deadline) }
            await clock.advance(by: .milliseconds(1))
            let limit = ContinuousClock.now + .seconds(10)
            while clock.sleeperCount > 0 && ContinuousClock.now < limit { await Task.yield() }
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
        let limit = ContinuousClock.now + .seconds(10)
        while clock.sleeperCount < 3 && ContinuousClock.now < limit { await Task.yield() }
        await clock.advance(by: .milliseconds(250))
        #expect(woken.withLock { $0 } == [.milliseconds(100), .milliseconds(200)])
        await clock.advance(by: .milliseconds(50))
        for sleeper in sleepers { try await sleeper.value }
        #expect(woken.withLock { $0 } == [.milliseconds(100), .milliseconds(200), .milliseconds(300)])
    }
}
