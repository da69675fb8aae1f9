import Foundation
import Testing

@testable import ReplayDaemon

/// The `--on-finish` command's process, run in a process that does not ignore `SIGPIPE` (as a test runner does not).
@Suite struct HookProcessTests {
    @Test func aCommandThatExitsWithoutReadingItsInputLeavesTheCallerRunning() async {
        await #expect(processExitsWith: .success) {
            // Given a process where a write to a pipe nobody reads would kill it, as SIGPIPE does by default
            signal(SIGPIPE, SIG_DFL)

            // When commands that read none of their input (more than a pipe holds) exit, again and again
            for _ in 0..<20 {
                let run = HookProcess.run(
                    "exit 0", path: "/tmp/none.jsonl", input: [UInt8](repeating: 0x41, count: 1 << 20), environment: [:],
                    timeout: .seconds(120), stopping: { false })

                // Then each run succeeds, and the process is still here to say so
                if run.outcome != .succeeded { exit(3) }
            }
        }
    }
}
