import Foundation

/// The real ``DeviceTool``: `/usr/bin/xcrun`, started directly with its arguments, with no terminal for input.
struct Xcrun: DeviceTool {
    /// Whether this system can have `xcrun devicectl` at all: macOS only.
    #if os(macOS)
        static let isAvailableOnThisSystem = true
    #else
        static let isAvailableOnThisSystem = false
    #endif

    func run(_ arguments: [String]) -> DeviceToolRun? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xcrun")
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        // One pipe for both streams, read to its end before the wait, so that neither can fill while unread.
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        do {
            try process.run()
        } catch {
            return nil
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return DeviceToolRun(
            succeeded: process.terminationReason == .exit && process.terminationStatus == 0,
            output: String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
