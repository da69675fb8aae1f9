import Testing

@testable import ReplayCommands

/// The search over commits, with the verdicts given by a table instead of builds and replays.
@Suite struct BisectSearchTests {
    /// Runs a search over `count` commits whose outcomes `outcome` gives; the commits tested in order, and the end.
    private func search(_ count: Int, _ outcome: (Int) -> BisectSearch.Outcome) -> (tested: [Int], end: BisectSearch.End?) {
        var search = BisectSearch(count: count)
        var tested: [Int] = []
        while let index = search.next {
            tested.append(index)
            search.record(outcome(index), at: index)
        }
        return (tested, search.end)
    }

    @Test(arguments: 0..<7)
    func findsTheFirstChangingCommitWhereverItIs(_ first: Int) {
        // Given seven commits after good, the ones from `first` on changing
        // When searching
        let (tested, end) = search(7) { $0 >= first ? .changed : .same }
        // Then the first is found in at most three tests
        #expect(end == .found(first))
        #expect(tested.count <= 3)
    }

    @Test func testsTheMiddleFirst() {
        // Given seven commits after good, the fourth changing (the fifth commit counting good)
        // When searching
        let (tested, end) = search(7) { $0 >= 3 ? .changed : .same }
        // Then it tests the middle, then halves what is left
        #expect(tested == [2, 4, 3])
        #expect(end == .found(3))
    }

    @Test func aSkippedCommitAfterTheChangeLeavesTheResultExact() {
        // Given the change at 3 and commit 4, right after it, untestable
        let (tested, end) = search(7) { $0 == 4 ? .skipped : $0 >= 3 ? .changed : .same }
        // Then a neighbour of the skipped commit is tested instead, and the change is still found exactly
        #expect(tested == [2, 4, 3])
        #expect(end == .found(3))
    }

    @Test func aSkippedCommitRightBeforeTheChangeLeavesItAmbiguous() {
        // Given the change at 3 and commit 2, right before it, untestable
        let (tested, end) = search(7) { $0 == 2 ? .skipped : $0 >= 3 ? .changed : .same }
        // Then the end names both, without a guess
        #expect(tested == [2, 1, 3])
        #expect(end == .ambiguous([2, 3]))
    }

    @Test func onlySkippedCommitsBeforeBadLeaveAllOfThemOpen() {
        // Given every commit before bad untestable
        let (tested, end) = search(4) { _ in .skipped }
        // Then each is tried once, and the first change is any of them or bad
        #expect(Set(tested) == [0, 1, 2])
        #expect(end == .ambiguous([0, 1, 2, 3]))
    }

    @Test func aSingleCommitIsTheOneWithoutATest() {
        // Given bad right after good
        let (tested, end) = search(1) { _ in .same }
        // Then nothing is left to test, and bad is the first change
        #expect(tested.isEmpty)
        #expect(end == .found(0))
    }

    @Test func countsTheCommitsLeftAndTheStepsTheyTake() {
        // Given seven commits after good, bad changing
        var search = BisectSearch(count: 7)
        // Then seven may be the first change, about three tests apart
        #expect(search.candidates == 7)
        #expect(search.stepsLeft == 3)
        // When the middle one replays as good does
        search.record(.same, at: 2)
        // Then four are left, two tests apart
        #expect(search.candidates == 4)
        #expect(search.stepsLeft == 2)
    }
}
