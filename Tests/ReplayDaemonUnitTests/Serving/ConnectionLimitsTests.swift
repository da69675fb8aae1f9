import Testing

@testable import ReplayDaemon

@Suite struct ConnectionLimitsTests {
    @Test(arguments: [
        (limit: UInt64(1024), workers: 8, total: 484),  // 1024 - 55 reserved, halved
        (limit: 256, workers: 1, total: 107),
        (limit: 10, workers: 8, total: 1),  // never none
    ])
    func theTotalIsWhatTheOpenFileLimitLeavesAfterTheReserveHalved(limit: UInt64, workers: Int, total: Int) {
        #expect(ConnectionLimits(descriptorLimit: limit, workerCount: workers, perPeer: 64).total == total)
    }

    @Test func oneProcessGetsItsShareAndNoMoreAndTheTotalBoundsEveryone() {
        // Given room for 3 connections, at most 2 from one process
        var limits = ConnectionLimits(descriptorLimit: 1024, workerCount: 1, perPeer: 2)
        limits.total = 3
        var state = SharedDaemonState()

        // When process 10 opens three and process 20 two
        let outcomes = [10, 10, 10, 20, 20].map { state.admit(from: $0, within: limits) }

        // Then the third from 10 is refused for its share, and the second from 20 for the total
        #expect(outcomes == [.success(1), .success(2), .failure(.perPeer), .success(3), .failure(.total)])

        // And once one of 10's closes, 20 gets in again
        state.release(from: 10)
        #expect(state.admit(from: 20, within: limits) == .success(3))
        #expect(state.openConnectionsByProcess == [10: 1, 20: 2])
        state.release(from: 10)
        #expect(state.openConnectionsByProcess == [20: 2])
    }
}
