import StoreKitCore
import Testing

@Suite struct ReconnectBackoffTests {
    @Test func theWaitsStayAtTheFirstDelayThroughTheFixedRatePhaseThenDoubleUpToTheLongest() {
        // Given a backoff of 0.25 s waits for its first second (sums exact in binary), up to 5 s
        var backoff = ReconnectBackoff(firstDelay: 0.25, fixedRateSeconds: 1, longestDelay: 5)

        // When attempts keep failing
        let delays = (1...10).map { _ in backoff.delayAfterFailure() }

        // Then four waits fill the first second, and the waits after it double and stop at the longest
        #expect(delays == [0.25, 0.25, 0.25, 0.25, 0.5, 1, 2, 4, 5, 5])
    }

    @Test func aSuccessStartsTheSequenceAgain() {
        var backoff = ReconnectBackoff(firstDelay: 0.25, fixedRateSeconds: 0.5, longestDelay: 5)
        _ = (1...5).map { _ in backoff.delayAfterFailure() }

        backoff.reset()

        #expect((1...4).map { _ in backoff.delayAfterFailure() } == [0.25, 0.25, 0.5, 1])
    }

    @Test func theDefaultsTryEveryTenMillisecondsForAboutASecondAndNeverWaitMoreThanFiveSeconds() {
        var backoff = ReconnectBackoff()

        let delays = (1...200).map { _ in backoff.delayAfterFailure() }

        #expect(delays.prefix(99).allSatisfy { $0 == 0.01 })
        #expect(delays.prefix(while: { $0 == 0.01 }).count <= 101)
        #expect(delays.last == 5)
        #expect(delays.allSatisfy { $0 <= 5 })
    }

    @Test func aFirstDelayLongerThanThePhaseDoublesFromTheStartAsBefore() {
        // (tests that must not depend on the machine's speed wait a minute after a first failure)
        var backoff = ReconnectBackoff(firstDelay: 60)

        #expect((1...3).map { _ in backoff.delayAfterFailure() } == [60, 5, 5])
    }
}
