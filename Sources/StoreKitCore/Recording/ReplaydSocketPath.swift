import Foundation

/// Where `replayd` listens unless told otherwise; the daemon and ``UnixSocketTransport`` share this rule.
public enum ReplaydSocketPath {
    /// The socket path from the environment: `REPLAYD_SOCKET`, else `$XDG_RUNTIME_DIR/replayd/replayd.sock`,
    /// else `~/.replayd/replayd.sock`.
    /// - Parameter environment: The variables to read; the process's own unless told.
    public static func resolve(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let explicit = environment["REPLAYD_SOCKET"], !explicit.isEmpty { return explicit }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty { return runtime + "/replayd/replayd.sock" }
        return homeDirectory(environment) + "/.replayd/replayd.sock"
    }

    /// The user's home directory: `HOME`, else the account's.
    public static func homeDirectory(_ environment: [String: String]) -> String {
        if let home = environment["HOME"], !home.isEmpty { return home }
        return NSHomeDirectory()
    }
}
