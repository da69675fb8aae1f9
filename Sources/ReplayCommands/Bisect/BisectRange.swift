/// The commits `bisect` searches: the first-parent line from the good revision (excluded) to the bad one (included),
/// oldest first, as `git rev-list --first-parent --reverse good..bad` lists them.
struct BisectRange {
    /// The good revision as given, and its commit.
    var goodRevision: String
    /// The commit whose replay is the reference.
    var good: BisectCommit
    /// The bad revision as given.
    var badRevision: String
    /// The commits after good up to bad, oldest first; the last is bad's.
    var commits: [BisectCommit]

    /// The bad revision's commit.
    var bad: BisectCommit { commits[commits.count - 1] }

    /// Lists the commits from `good` to `bad` in `repository`.
    /// - Throws: ``CLIError`` when a revision names no commit, good is not on bad's first-parent line, or there is no
    ///   commit after good up to bad.
    init(good goodRevision: String, bad badRevision: String, in repository: BaselineHost.Repository) throws(CLIError) {
        let goodCommit = try repository.commit(goodRevision)
        let badCommit = try repository.commit(badRevision)
        let quotedGood = "'\(goodRevision.escapingControls())' (\(goodCommit.prefix(7)))"
        let quotedBad = "'\(badRevision.escapingControls())' (\(badCommit.prefix(7)))"
        guard goodCommit != badCommit else {
            throw CLIError(.usage, "the good revision \(quotedGood) and the bad one \(quotedBad) are the same commit: there is nothing between them to search")
        }
        guard repository.git.output(["merge-base", "--is-ancestor", goodCommit, badCommit]) != nil else {
            throw CLIError(.usage, "the good revision \(quotedGood) is not an ancestor of the bad one \(quotedBad): bisect searches the commits from good to bad")
        }
        let listed = try repository.git.run(
            ["log", "--first-parent", "--reverse", "--format=%H %s", "\(goodCommit)..\(badCommit)"],
            doing: "list the commits from \(goodCommit) to \(badCommit)")
        commits = listed.split(separator: "\n").map { line in
            let words = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
            return BisectCommit(commit: String(words[0]), subject: words.count > 1 ? String(words[1]) : "")
        }
        let firstParent = commits.first.flatMap { repository.git.output(["rev-parse", "--verify", "--quiet", "\($0.commit)^1"]) }
        guard firstParent == goodCommit else {
            throw CLIError(.usage, "the good revision \(quotedGood) is not on the first-parent line of the bad one \(quotedBad) (it was merged from a side branch): name a commit of that line as good")
        }
        self.goodRevision = goodRevision
        self.badRevision = badRevision
        good = BisectCommit(commit: goodCommit, subject: try repository.subject(of: goodCommit))
    }
}
