/// Constants of the session file format (NDJSON, one event per line); the full spec is `docs/session-format.md`.
public enum SessionFormat {
    /// The newest format version this library writes: 3, which adds `note` lines to version 2. Version 2 adds the
    /// lines of replayable effects (`call`, `effectEnd`, and the `effect` of an action an effect sent). A session is
    /// written in the lowest version that holds its lines (``version(replayableEffects:recordsNotes:)``), so older
    /// readers and daemons keep taking the sessions they can read.
    public static let version = 3
    /// The format versions this library reads.
    public static let readableVersions = 1...3
    /// The sequence numbers a session may hold (`seq`, a gap's `from` and `to`, an effect line's `cause`): from 1 to
    /// 2^53 - 1, the largest integer every JSON reader reads exactly. Readers and the daemon refuse any other, so the
    /// number after any sequence number is an `Int` too.
    package static let sequenceNumbers = 1...9_007_199_254_740_991

    /// The version a session is written in: 3 when it may hold notes, else 2 when its store has replayable
    /// effects, else 1.
    public static func version(replayableEffects: [String], recordsNotes: Bool = false) -> Int {
        recordsNotes ? 3 : replayableEffects.isEmpty ? 1 : 2
    }
    /// The default longest line a reader accepts, in bytes (16 MiB).
    public static let defaultMaxLineBytes = 16 << 20
    /// The usual file name extension for a session.
    public static let fileExtension = "jsonl"
}
