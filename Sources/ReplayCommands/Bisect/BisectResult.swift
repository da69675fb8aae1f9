import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// What `bisect` found: the first commit whose replay of the session changes and the difference that first appeared
/// there; or that the bad revision replays as good does; or, when skipped commits leave it open, the commits the first
/// change is among. With the commits tested and their verdicts.
struct BisectResult {
    /// How the search ended.
    enum End {
        /// The bad revision replays the session as good does: nothing to find.
        case unchanged
        /// The commit at this index of the range is the first that changes; the one before it replays as good does.
        case found(Int)
        /// The first change is one of the commits at these indices: skipped ones, then the earliest changed one.
        case ambiguous([Int])
    }

    /// How the session is named.
    var session: String
    /// The commits searched.
    var range: BisectRange
    /// How many steps good replayed.
    var referenceSteps: Int
    /// The commits tested, in the order they were: bad first.
    var tested: [BisectTest]
    /// How it ended.
    var end: End

    /// 0 when a first changing commit is named, 1 when bad replays as good, 2 when skipped commits leave it open.
    var exitStatus: ExitStatus {
        switch end {
        case .found: .ok
        case .unchanged: .different
        case .ambiguous: .trouble
        }
    }

    /// The test of the commit at `index` (every commit an end names was tested).
    private func test(at index: Int) -> BisectTest {
        guard let test = tested.first(where: { $0.index == index }) else { preconditionFailure("commit \(index) was not tested") }
        return test
    }
}

extension BisectResult: CommandOutput {
    func writeText(to terminal: Terminal) {
        let good = "good \(range.good.title)"
        switch end {
        case .unchanged:
            let effects = tested[0].comparison.map { $0.effectRuns == 0 ? "" : ", and its \($0.effectRuns) effect run\($0.effectRuns == 1 ? "" : "s") alike" } ?? ""
            terminal.out("nothing to find: bad \(range.bad.title) replays \(session) as \(good) does (all \(referenceSteps) steps\(effects))")
        case .found(let index):
            let found = test(at: index)
            guard case .changed(let disagreement) = found.verdict else { preconditionFailure("a found commit changed") }
            let before = index == 0 ? "its parent is good" : "the commit before it, \(range.commits[index - 1].shortCommit), replays it as good does"
            terminal.out("first changing commit: \(found.commit.commit) \"\(found.commit.subject.escapingControls())\"")
            terminal.out(
                [
                    disagreement.headline(source: session, verdict: "changed"),
                    RenderedLine(.text, "  \(found.commit.shortCommit) replays it otherwise than \(good); \(before)"),
                ] + disagreement.detailLines)
        case .ambiguous(let indices):
            terminal.out("skipped commits leave the first changing commit open: it is one of these \(indices.count), oldest first")
            for index in indices {
                let candidate = test(at: index)
                terminal.out("  \(candidate.commit.commit) \"\(candidate.commit.subject.escapingControls())\": \(candidate.verdict.description)")
            }
            terminal.out("test the skipped ones another way, or bisect again with --good or --bad next to them")
        }
        terminal.out("")
        terminal.out("tested \(tested.count) of \(range.commits.count) commits after \(good):")
        for test in tested {
            terminal.out("  \(test.commit.title): \(test.verdict.description)")
        }
    }

    /// `verdict` (`found`, `unchanged`, `ambiguous`), the session, `good` (with the steps it replayed) and `bad`, the
    /// number of commits searched, the first changing `commit` and its `difference` (`null` unless found), the
    /// `candidates` when ambiguous, every `tested` commit with its verdict in the order tested, and the `skipped` ones.
    var jsonValue: JSONValue {
        var goodMembers = range.good.jsonMembers
        goodMembers["revision"] = .string(range.goodRevision)
        goodMembers["steps"] = .integer(Int64(referenceSteps))
        var badMembers = range.bad.jsonMembers
        badMembers["revision"] = .string(range.badRevision)
        var members: [String: JSONValue] = [
            "session": .string(session), "good": .object(goodMembers), "bad": .object(badMembers),
            "commits": .integer(Int64(range.commits.count)), "commit": .null, "difference": .null, "candidates": .array([]),
            "tested": .array(tested.map(\.jsonValue)),
            "skipped": .array(tested.filter { $0.verdict.outcome == .skipped }.map(\.jsonValue)),
        ]
        switch end {
        case .unchanged:
            members["verdict"] = .string("unchanged")
        case .found(let index):
            let found = test(at: index)
            members["verdict"] = .string("found")
            members["commit"] = .object(found.commit.jsonMembers)
            if case .changed(let disagreement) = found.verdict { members["difference"] = disagreement.jsonValue }
        case .ambiguous(let indices):
            members["verdict"] = .string("ambiguous")
            members["candidates"] = .array(indices.map { test(at: $0).jsonValue })
        }
        return .object(members)
    }
}
