/// Constants of the session file format (NDJSON, one event per line); the full spec is `docs/session-format.md`.
public enum SessionFormat {
    /// The newest format version this library writes: 2, which adds the lines of replayable effects (`call`,
    /// `effectEnd`, and the `effect` of an action an effect sent). A session without them is written as version 1,
    /// so older readers and daemons keep taking it.
    public static let version = 2
    /// The format versions this library reads.
    public static let readableVersions = 1...2

    /// The version a session is written in: 2 when its store has replayable effects, else 1.
    public static func version(replayableEffects: [String]) -> Int {
        replayableEffects.isEmpty ? 1 : 2
    }
    /// The default longest line a reader accepts, in bytes (16 MiB).
    public static let defaultMaxLineBytes = 16 << 20
    /// The usual file name extension for a session.
    public static let fileExtension = "jsonl"
}
