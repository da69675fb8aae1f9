import StoreKitCore
import StoreKitJSON

/// A commit `bisect` names: its hash and subject.
struct BisectCommit: Equatable {
    /// The full hash.
    var commit: String
    /// The subject line.
    var subject: String

    /// The hash's first seven hex digits, as messages name it.
    var shortCommit: String { String(commit.prefix(7)) }

    /// `1a2b3c4 "Subject"`, as messages name the commit.
    var title: String { "\(shortCommit) \"\(subject.escapingControls())\"" }

    /// `{"commit", "subject"}`.
    var jsonMembers: [String: JSONValue] { ["commit": .string(commit), "subject": .string(subject)] }
}
