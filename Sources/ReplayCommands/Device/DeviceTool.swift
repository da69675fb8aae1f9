/// The one way `replay-cli pull` runs Apple's developer tools: `xcrun` with an argument vector, never a shell.
///
/// ``Xcrun`` is the real one; tests put a fake in its place.
protocol DeviceTool {
    /// Runs `xcrun` with `arguments` and waits for it to end.
    /// - Returns: How it ended, or `nil` when it could not be started.
    func run(_ arguments: [String]) -> DeviceToolRun?
}

/// How a run of a ``DeviceTool`` ended.
struct DeviceToolRun: Equatable {
    /// Whether it exited with status 0.
    var succeeded: Bool
    /// What it printed, standard output then standard error, trimmed.
    var output: String
}
