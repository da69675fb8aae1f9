/// The binary search of `bisect`, apart from git and replays: over the commits after the good revision up to the bad
/// one (indices `0..<count`, the last the bad revision, known to change), which commit to test next, and what the
/// verdicts so far say.
///
/// It keeps the latest commit known to replay as good does and the earliest known to change; the first changing commit
/// lies after the one and at or before the other. A commit that cannot be tested (``Outcome/skipped``) is left out, as
/// `git bisect skip` does: the next test is the untested commit nearest the middle. When only skipped commits lie
/// between the two, the search ends without guessing: the first change is one of them or the earliest changed commit.
struct BisectSearch {
    /// What testing one commit came to, named as `--json` names it.
    enum Outcome: String, Equatable {
        /// It replays the session as the good revision does.
        case same
        /// Its replay differs from the good revision's, or crashes.
        case changed
        /// It could not be tested (it does not build, or its host cannot replay the session).
        case skipped
    }

    /// How the search ended.
    enum End: Equatable {
        /// The first changing commit, whose predecessor replays as good does.
        case found(Int)
        /// Skipped commits leave the first change among these, oldest first: the skipped ones, then the earliest
        /// changed commit.
        case ambiguous([Int])
    }

    /// How many commits the search is over.
    let count: Int
    /// The latest commit known to replay as good does; `-1` for the good revision itself.
    private(set) var lastSame = -1
    /// The earliest commit known to change.
    private(set) var firstChanged: Int
    /// The commits that could not be tested.
    private(set) var skipped: Set<Int> = []

    /// A search over `count` commits, the last of which (the bad revision) changes.
    init(count: Int) {
        precondition(count > 0, "a search needs the bad revision at least")
        self.count = count
        firstChanged = count - 1
    }

    /// How many commits may still be the first change: those after ``lastSame`` up to ``firstChanged``.
    var candidates: Int { firstChanged - lastSame }

    /// About how many more tests the search takes without skips: the number of halvings of ``candidates`` down to one.
    var stepsLeft: Int {
        var steps = 0
        while 1 << steps < candidates { steps += 1 }
        return steps
    }

    /// The commit to test next: of the untested commits between ``lastSame`` and ``firstChanged``, the one nearest the
    /// middle (the earlier of two as near); `nil` when none is left.
    var next: Int? {
        let middle = (lastSame + firstChanged) / 2
        return (lastSame + 1..<firstChanged).filter { !skipped.contains($0) }
            .min { (abs($0 - middle), $0) < (abs($1 - middle), $1) }
    }

    /// Records what testing commit `index` came to.
    mutating func record(_ outcome: Outcome, at index: Int) {
        precondition(index > lastSame && index < firstChanged, "commit \(index) is outside the search")
        switch outcome {
        case .same: lastSame = index
        case .changed: firstChanged = index
        case .skipped: skipped.insert(index)
        }
    }

    /// How the search ended; `nil` while ``next`` names a commit to test.
    var end: End? {
        guard next == nil else { return nil }
        guard firstChanged - lastSame > 1 else { return .found(firstChanged) }
        return .ambiguous(Array(lastSame + 1...firstChanged))
    }
}
