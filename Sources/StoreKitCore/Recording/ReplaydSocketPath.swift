import Foundation

/// Where `replayd` listens unless told otherwise; the daemon and ``UnixSocketTransport`` share this rule.
///
/// In the iOS simulator `HOME` is the app's container, so the rule follows `SIMULATOR_HOST_HOME` (the Mac user's
/// home, which the simulator sets) to the socket of the Mac's `replayd`, which, with no `XDG_RUNTIME_DIR` on macOS,
/// listens at `~/.replayd/replayd.sock`.
public enum ReplaydSocketPath {
    /// The socket path from the environment: `REPLAYD_SOCKET`; else, in the iOS simulator,
    /// `$SIMULATOR_HOST_HOME/.replayd/replayd.sock`; else `$XDG_RUNTIME_DIR/replayd/replayd.sock`; else
    /// `~/.replayd/replayd.sock`.
    /// - Parameter environment: The variables to read; the process's own unless told.
    public static func resolve(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let explicit = environment["REPLAYD_SOCKET"], !explicit.isEmpty { return explicit }
        if let macHome = environment["SIMULATOR_HOST_HOME"], !macHome.isEmpty { return macHome + defaultInHome }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty { return runtime + "/replayd/replayd.sock" }
        return homeDirectory(environment) + defaultInHome
    }

    /// The user's home directory: `HOME`, else the account's.
    public static func homeDirectory(_ environment: [String: String]) -> String {
        if let home = environment["HOME"], !home.isEmpty { return home }
        return NSHomeDirectory()
    }

    /// The socket's place under a home directory.
    private static let defaultInHome = "/.replayd/replayd.sock"
}
