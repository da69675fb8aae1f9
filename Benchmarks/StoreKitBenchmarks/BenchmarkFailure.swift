/// Why a benchmark could not measure what it claims.
struct BenchmarkFailure: Error, CustomStringConvertible {
    /// A sentence saying what went wrong.
    let description: String

    init(_ description: String) { self.description = description }
}
