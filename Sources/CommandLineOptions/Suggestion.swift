/// Finds the near misses a user probably meant, for "Did you mean '...'?": a mistyped subcommand or option, and the
/// action names and state paths that a command's name or path pattern could have meant.
package enum Suggestion {
    /// The items as a sentence offers a choice between them: `a`, `a or b`, `a, b or c`; empty for none.
    package static func either(_ items: [String]) -> String {
        guard let last = items.last, items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " or " + last
    }

    /// The candidate closest to `word` by edit distance, if it is close enough to be a typo.
    package static func closest(to word: String, among candidates: [String]) -> String? {
        nearest(to: word, among: candidates, limit: 1).first
    }

    /// Up to `limit` distinct candidates close enough to `word` to be a typo of it (an edit distance of at most 2,
    /// or a third of `word`'s length when that is more), nearest first, equally near ones in alphabetical order;
    /// none when no candidate is that close.
    package static func nearest(to word: String, among candidates: some Sequence<String>, limit: Int = 3) -> [String] {
        let allowed = max(2, word.count / 3)
        let scored = Set(candidates).map { (candidate: $0, distance: distance(word, $0)) }.filter { $0.distance <= allowed }
        return scored.sorted { ($0.distance, $0.candidate) < ($1.distance, $1.candidate) }.prefix(limit).map(\.candidate)
    }

    /// The Levenshtein distance between `a` and `b`.
    package static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
