import Foundation

/// Delta debugging (Zeller and Hildebrandt's ddmin): the smallest subset of some items that still passes a test,
/// found by trying chunks of the items and their complements at a growing granularity.
public enum DeltaDebugging {
    /// What a minimization found.
    public struct Outcome<Item> {
        /// The smallest passing subset found, in the items' order: 1-minimal (removing any single item makes the test
        /// fail) when ``finished``.
        public var kept: [Item]
        /// How many subsets were tested.
        public var tests: Int
        /// False when the deadline came first: ``kept`` is then the smallest passing subset found so far.
        public var finished: Bool
    }

    /// Reduces `items` to a 1-minimal subset for which `test` holds.
    ///
    /// `test` is assumed to hold for all of `items` and is never called with them. The empty subset is tried first
    /// (the caller adds what every candidate needs, so it may well pass). Subsets keep the items' order.
    /// - Parameters:
    ///   - items: What may be left out.
    ///   - deadline: When to stop and return the best subset so far.
    ///   - test: Whether a subset still shows what is being minimized.
    /// - Throws: What `test` throws.
    public static func minimize<Item, Failure: Error>(
        _ items: [Item], deadline: Date, test: ([Item]) throws(Failure) -> Bool
    ) throws(Failure) -> Outcome<Item> {
        var current = items
        var granularity = 2
        var tests = 0
        if !items.isEmpty, Date() < deadline {
            tests += 1
            if try test([]) { return Outcome(kept: [], tests: tests, finished: true) }
        }
        while current.count >= 2 {
            let chunks = split(current, into: min(granularity, current.count))
            var reduced = false
            // Try each chunk alone, then each complement.
            for chunk in chunks {
                if Date() >= deadline { return Outcome(kept: current, tests: tests, finished: false) }
                tests += 1
                if try test(chunk) {
                    current = chunk
                    granularity = 2
                    reduced = true
                    break
                }
            }
            if reduced { continue }
            if chunks.count > 2 {
                for index in chunks.indices {
                    if Date() >= deadline { return Outcome(kept: current, tests: tests, finished: false) }
                    let complement = chunks.indices.filter { $0 != index }.flatMap { chunks[$0] }
                    tests += 1
                    if try test(complement) {
                        current = complement
                        granularity = max(granularity - 1, 2)
                        reduced = true
                        break
                    }
                }
            }
            if reduced { continue }
            if granularity >= current.count { break }
            granularity = min(granularity * 2, current.count)
        }
        return Outcome(kept: current, tests: tests, finished: true)
    }

    /// `items` in `count` consecutive chunks of nearly equal size.
    private static func split<Item>(_ items: [Item], into count: Int) -> [[Item]] {
        var chunks: [[Item]] = []
        var start = 0
        for index in 0..<count {
            let end = start + (items.count - start) / (count - index)
            chunks.append(Array(items[start..<end]))
            start = end
        }
        return chunks
    }
}
