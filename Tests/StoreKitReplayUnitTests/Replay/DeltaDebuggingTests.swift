import Foundation
import StoreKitReplay
import Testing

/// ddmin finds a 1-minimal passing subset, keeps the items' order, and stops at its deadline.
@Suite struct DeltaDebuggingTests {
    @Test(arguments: [
        ([3], [3]),
        ([2, 7], [2, 7]),
        ([0, 5, 9, 31], [0, 5, 9, 31]),
        ([Int](), [Int]()),
    ])
    func findsExactlyTheItemsTheTestNeeds(_ needed: [Int], _ expected: [Int]) {
        // Given 32 items of which the test needs some
        let outcome = DeltaDebugging.minimize(Array(0..<32), deadline: .distantFuture) { subset in
            needed.allSatisfy(subset.contains)
        }
        // Then exactly those are kept, in order
        #expect(outcome.kept == expected)
        #expect(outcome.finished)
    }

    @Test func theResultIsOneMinimalForATestThatNeedsAnyTwoOfAGroup() {
        // Given a test that passes with at least two of 10, 20, 30
        let outcome = DeltaDebugging.minimize(Array(0..<40), deadline: .distantFuture) { subset in
            subset.filter { [10, 20, 30].contains($0) }.count >= 2
        }
        #expect(outcome.kept.count == 2)
        #expect(outcome.kept.allSatisfy { [10, 20, 30].contains($0) })
    }

    @Test func aPassedDeadlineReturnsWhatItHasUnfinished() {
        var tests = 0
        let outcome = DeltaDebugging.minimize(Array(0..<8), deadline: Date(timeIntervalSinceNow: -1)) { _ in
            tests += 1
            return true
        }
        #expect(tests == 0)
        #expect(outcome.kept == Array(0..<8))
        #expect(!outcome.finished)
    }
}
