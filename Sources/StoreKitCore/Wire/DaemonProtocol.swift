/// The versions of the protocol between a recording client and `replayd` (docs/replayd.md), in one place.
///
/// The client's side of the wire is a session's lines; the daemon's side is ``DaemonReply`` lines. The protocol only
/// grows by adding replies and fields that an older client passes over, so a client reads the replies of any version
/// from ``firstVersion`` on.
package enum DaemonProtocol {
    /// The version this package's daemon speaks, which its `welcome` says.
    package static let version = 2

    /// The first version, which a `welcome` without `protocol` speaks: it confirms nothing it stores.
    package static let firstVersion = 1

    /// The first version whose daemon confirms what it stored with `persisted` replies.
    package static let persistedRepliesVersion = 2
}
