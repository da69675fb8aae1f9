import Foundation

/// Why a benchmark could not measure what it claims.
struct BenchmarkFailure: Error, CustomStringConvertible {
    /// A sentence saying what went wrong.
    let description: String

    init(_ description: String) { self.description = description }
}

/// What `body` returns; when it throws (a daemon that would not start, a file that could not be written), its
/// error on standard error and exit status 2, as a benchmark that cannot measure ends.
func measuring<T>(_ body: () throws -> T) -> T {
    do {
        return try body()
    } catch {
        FileHandle.standardError.write(Data("storekit-benchmarks: \(error)\n".utf8))
        exit(2)
    }
}
