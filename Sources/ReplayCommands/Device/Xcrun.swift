import Foundation

/// The real ``DeviceTool``: `/usr/bin/xcrun` with its arguments, through ``ChildProcess``.
struct Xcrun: DeviceTool {
    /// Whether this system can have `xcrun devicectl` at all: macOS only.
    #if os(macOS)
        static let isAvailableOnThisSystem = true
    #else
        static let isAvailableOnThisSystem = false
    #endif

    func run(_ arguments: [String]) -> DeviceToolRun? {
        guard let run = ChildProcess.run("/usr/bin/xcrun", arguments) else { return nil }
        return DeviceToolRun(
            succeeded: run.succeeded, output: (run.output + run.error).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
