import Foundation
import SampleReplayStores
import StoreKitReplay
import StoreKitTestFixtures
import Testing

/// A replay that reruns effects runs them on a thread of its own; the thread ends with the replay, however the
/// replay ends.
@Suite(.enabled(if: ThreadNames.areReadable, "counts threads through /proc"))
struct EffectThreadTests {
    /// How many threads of this process are named as the effects' thread.
    private static func effectThreads() -> Int {
        ThreadNames.count { $0 == "replay effects" }
    }

    @Test func replaysThatStopAtADamagedLineLeaveNoThreadBehind() async throws {
        // Given the scoreboard's session, whose effects a replay reruns, damaged after its first call
        let lines = try String(contentsOfFile: SampleSessions.path("scoreboard-match.jsonl"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        let damaged = Array((lines.prefix(3) + ["{not json"]).joined(separator: "\n").utf8)
        let before = Self.effectThreads()

        // When it is replayed twenty times, each replay stopping at the damaged line
        for _ in 0..<20 {
            #expect(throws: SessionReadError.self) {
                try ReplayEngine(stores: SampleStores.all).replay(reader: SessionReader(bytes: damaged, source: "damaged"))
            }
        }

        // Then their effects' threads end (other tests' replays may hold a few meanwhile)
        let deadline = ContinuousClock.now + .seconds(120)
        while Self.effectThreads() > before + 5 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(Self.effectThreads() <= before + 5)
    }
}
