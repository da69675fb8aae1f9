import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// One run of `bisect`: the good revision built and replayed as the reference, then the bad one and the commits the
/// search picks, each built and compared with good's replay (``ReplayPair``, as `diff --baseline` compares), with a
/// line of progress on standard error for each.
///
/// Good stays built in the worktree ``goodWorktree`` for the whole run and is replayed beside each tested commit; the
/// tested commits are checked out one after another in the one worktree ``worktree``, so each build after the first is
/// incremental. Both worktrees are kept under `.build/replay-baselines` for the next run.
struct Bisection {
    /// The session replayed at every commit.
    var session: SessionInput
    /// The commits searched.
    var range: BisectRange
    /// The current host, whose commands run in the worktrees.
    var host: HostCommand
    /// Seconds a silent host is given.
    var timeout: Double
    /// The places whose values do not count.
    var ignoring: [JSONPathPattern]
    /// The members that identify the elements of arrays where it is not `id` (`.replay.json`'s `"identity"`).
    var identity: [IdentityKey]
    /// Where progress goes.
    var terminal: Terminal

    /// The worktree every tested commit is checked out and built in, in turn.
    static let worktree = "bisect"
    /// The worktree the good revision is built in.
    static let goodWorktree = "bisect-good"

    /// Builds and replays good, tests bad, then searches the commits between.
    /// - Throws: ``CLIError`` when good does not build or cannot replay the session, bad cannot be tested, or git
    ///   cannot check a commit out.
    func run() throws(CLIError) -> BisectResult {
        let count = range.commits.count
        terminal.err(
            "bisecting \(session.displayName): \(count) commit\(count == 1 ? "" : "s") after good \(range.good.title), up to bad \(range.bad.title)")
        let good = try BaselineHost.prepare(revision: range.good.commit, current: host, worktree: Self.goodWorktree, terminal: terminal)
        let steps = try reference(good)
        terminal.err("good \(range.good.title): replays all \(steps) steps, the reference")
        var result = BisectResult(session: session.displayName, range: range, referenceSteps: steps, tested: [], end: .unchanged)
        let bad = try test(count - 1, against: good)
        result.tested.append(bad)
        terminal.err("bad \(range.bad.title): \(bad.verdict.description)")
        switch bad.verdict {
        case .same:
            return result
        case .doesNotBuild(let error), .cannotReplay(let error):
            throw CLIError(
                .host,
                "the bad revision \(range.bad.title) cannot be tested, so there is no changed replay to search back from; name a bad revision that builds and replays the session: \(error.description)")
        case .changed:
            break
        }
        var search = BisectSearch(count: count)
        while let index = search.next {
            let left = "\(search.candidates) commits left (about \(search.stepsLeft) step\(search.stepsLeft == 1 ? "" : "s"))"
            terminal.progress("\(left), testing \(range.commits[index].title)...")
            let tested = try test(index, against: good)
            search.record(tested.verdict.outcome, at: index)
            result.tested.append(tested)
            terminal.err("\(left), \(tested.commit.title): \(tested.verdict.description)")
        }
        switch search.end {
        case .found(let index)?:
            result.end = .found(index)
        case .ambiguous(let indices)?:
            result.end = .ambiguous(indices)
        case nil:
            preconditionFailure("the search ends when no commit is left to test")
        }
        return result
    }

    /// Builds good and replays the session through it alone; the number of steps it replays.
    /// - Throws: ``CLIError`` when good does not build, or its host does not replay the whole session.
    private func reference(_ good: BaselineHost) throws(CLIError) -> Int {
        let refused = "the good revision \(range.good.title) cannot be the reference"
        do {
            _ = try good.bringUpToDate(terminal)
        } catch {
            throw CLIError(.host, "\(refused): \(error.description)")
        }
        terminal.progress("replaying \(session.displayName) through good \(good.shortCommit)...")
        defer { terminal.endProgress() }
        switch try ReplayHostClient(host: good.host, timeout: timeout).exchange(ReplayHostRequest(command: .states), session: session) {
        case .answered(let answer):
            if let failure = answer.result.failure { throw CLIError(.input, "\(refused): \(failure)", file: session.displayName) }
            return answer.states.count
        case .stopped(let stop):
            throw CLIError(.host, "\(refused): \(stop.error.description)")
        }
    }

    /// Checks out and builds the commit at `index` in ``worktree``, and compares its replay of the session with good's.
    /// - Throws: ``CLIError`` when git cannot check the commit out (a build or replay that fails is a verdict).
    private func test(_ index: Int, against good: BaselineHost) throws(CLIError) -> BisectTest {
        let commit = range.commits[index]
        let tested = try BaselineHost.prepare(revision: commit.commit, current: host, worktree: Self.worktree, terminal: terminal)
        do {
            _ = try tested.bringUpToDate(terminal)
        } catch {
            return BisectTest(index: index, commit: commit, verdict: .doesNotBuild(error))
        }
        let pair = ReplayPair(
            first: ReplayPair.Side(name: "good \(good.shortCommit)", client: ReplayHostClient(host: good.host, timeout: timeout)),
            second: ReplayPair.Side(name: commit.shortCommit, client: ReplayHostClient(host: tested.host, timeout: timeout)),
            ignoring: ignoring, identity: identity)
        terminal.progress("replaying \(session.displayName) through good \(good.shortCommit) and \(commit.shortCommit)...")
        defer { terminal.endProgress() }
        let comparison: ReplayPair.Comparison
        do {
            comparison = try pair.compare(session, stopsDisagree: true)
        } catch {
            return BisectTest(index: index, commit: commit, verdict: .cannotReplay(error))
        }
        return BisectTest(
            index: index, commit: commit, verdict: comparison.disagreement.map { .changed($0) } ?? .same, comparison: comparison)
    }
}
