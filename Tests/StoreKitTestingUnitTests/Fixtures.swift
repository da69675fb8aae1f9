import Foundation
import SampleFeatures
import StoreKitTesting

/// A score server double that answers every post with the next receipt, or fails with `failure`.
struct StubScoreServer: Scoreboard.ScoreServer {
    var receipt = 7
    var failure: (any Error & Sendable)?

    func post(home: Int, away: Int) async throws -> Int {
        if let failure { throw failure }
        return receipt
    }
}

/// An error a stub throws.
struct ServerDown: Error, CustomStringConvertible {
    var description: String { "server down" }
}

/// Fixed ids and dates for todo tests.
enum TodoFixtures {
    static let milk = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!
    static let eggs = UUID(uuidString: "00000000-0000-0000-0000-000000000002")!
    static let date = Date(timeIntervalSince1970: 1_795_000_000)
}

/// Collects reported test failures instead of failing the test, so a test can assert on their text.
final class FailureCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [TestFailure] = []

    var failures: [TestFailure] { lock.withLock { stored } }

    var report: @Sendable (TestFailure) -> Void {
        { [self] failure in lock.withLock { stored.append(failure) } }
    }
}
