import Foundation
import Testing

/// `replay-cli pull` as a user runs it: what it asks for and refuses before running anything, and what it says on
/// a machine without Apple's developer tools.
@Suite struct PullCommandTests {
    static let udid = "00008030-001A35E11A88802E"

    #if os(macOS)
        static let isMacOS = true
    #else
        static let isMacOS = false
    #endif

    @Test(.enabled(if: !isMacOS, "xcrun devicectl exists only on macOS"))
    func withoutXcodeItSaysWhatItNeedsAndHowToGoOn() async throws {
        let outcome = try await CLI.run(["pull", "--device", Self.udid, "--bundle", "com.example.Todos", "--latest"])
        #expect(outcome.status == 2)
        #expect(outcome.stdout == "")
        #expect(
            outcome.stderr
                == "Error: replay-cli pull needs macOS with Xcode 15 or later (xcrun devicectl); on this machine, copy "
                + "the files another way and run replay-cli verify\n")
    }

    @Test func theDeviceIsRequired() async throws {
        let outcome = try await CLI.run(["pull", "--bundle", "com.example.Todos"])
        #expect(outcome.status == 2)
        #expect(
            outcome.stderr
                == "Error: missing '--device <udid>'\nUsage: replay-cli pull --device <udid> --bundle <id> [--latest] "
                + "[--from <path>] [-o <folder>]\n")
    }

    @Test func aDeviceWithALineBreakIsRefusedBeforeAnythingRuns() async throws {
        let outcome = try await CLI.run(["pull", "--device", Self.udid + "\nx", "--bundle", "com.example.Todos"])
        #expect(outcome.status == 2)
        #expect(
            outcome.stderr
                == "Error: refusing --device '00008030-001A35E11A88802E\\nx': it holds a line break or another control "
                + "character\n")
    }
}
