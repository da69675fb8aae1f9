import StoreKitCore
import StoreKitJSON

/// Differences a pattern made a comparison ignore: the pattern and the places where the two values differed.
public struct IgnoredDifferences: Sendable, Equatable {
    /// The pattern as written.
    public var pattern: String
    /// The places it covered whose values differed.
    public var paths: [JSONPath]

    /// Creates one.
    public init(pattern: String, paths: [JSONPath]) {
        self.pattern = pattern
        self.paths = paths
    }
}
