/// Constants of the session file format (NDJSON, one event per line); the full spec is `docs/session-format.md`.
public enum SessionFormat {
    /// The format version this library writes and reads.
    public static let version = 1
    /// The default longest line a reader accepts, in bytes (16 MiB).
    public static let defaultMaxLineBytes = 16 << 20
    /// The usual file name extension for a session.
    public static let fileExtension = "jsonl"
}
