/// The same rows measured in several runs, folded into one table: each p99 row as the worst of the runs (the
/// target holds only when it holds in every run), each other row as the run with the median ratio, and a line per
/// p99 row with every run's ratio.
struct RepeatedRows {
    /// The runs' rows, each run's in the same order.
    var runs: [[Row]]

    /// One row per measure.
    var folded: [Row] {
        guard let first = runs.first else { return [] }
        return first.indices.map { index in
            let measured = runs.map { $0[index] }.sorted { $0.ratio < $1.ratio }
            return Self.isTail(first[index]) ? measured[measured.count - 1] : measured[(measured.count - 1) / 2]
        }
    }

    /// For each p99 row, its ratio in every run, in the order they ran.
    var details: [String] {
        guard let first = runs.first else { return [] }
        return first.indices.filter { Self.isTail(first[$0]) }.map { index in
            let ratios = runs.map { String(format: "%.2fx", $0[index].ratio) }
            return "\(first[index].name), worst of \(runs.count) runs: \(ratios.joined(separator: " "))"
        }
    }

    private static func isTail(_ row: Row) -> Bool {
        row.name.contains("p99")
    }
}
