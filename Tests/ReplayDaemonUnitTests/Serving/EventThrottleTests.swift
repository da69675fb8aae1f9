import Testing

@testable import ReplayDaemon

@Suite struct EventThrottleTests {
    @Test func aFloodIsWrittenAtTheRateAndTheNextEntryCountsWhatWasLeftOut() {
        // Given a throttle of 2 entries a second
        var throttle = EventThrottle(perSecond: 2)
        let second: UInt64 = 1_000_000_000

        // When 5 events come within one second and 1 more a second later
        let first = (0..<5).map { throttle.pass(now: 10 * second + UInt64($0)) }
        let later = throttle.pass(now: 11 * second + 5)

        // Then 2 are written, 3 held back, and the next one written says so
        #expect(first == [0, 0, nil, nil, nil])
        #expect(later == 3)
        #expect(throttle.pass(now: 11 * second + 6) == 0)
    }
}
