import Foundation
import SampleReplayStores
import StoreKitCore
import StoreKitReplay
import Testing

@Suite struct ReplaydRehearsalSessionTests {
    @Test func theRehearsalJourneyRecordedThroughTheDaemonIsTheGoldensJourney() async throws {
        // Given a daemon on a temporary socket
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let daemon = try await DaemonProcess(folder: folder)

        // When the real sample app records the rehearsal journey through it, with delta snapshots
        let app = try await Executables.run(
            "sample-app",
            ["--socket", folder.socket, "--timeout", "60", "--feature", "rehearsals", "--actions", "150", "--delta"])
        #expect(app.status == 0, "\(app.stderr)")
        #expect(await daemon.stop() == 0)

        // Then the stored session replays as a match, and holds the golden's actions, causes and states step by step
        let files = folder.sessionFiles()
        try #require(files.count == 1, "\(files)")
        let recorded = try Session(contentsOf: folder.sessions + "/" + files[0])
        let report = ReplayEngine(stores: SampleStores.all).replay(recorded)
        #expect(report.verdict == .match)
        #expect(report.end?.reason == .finished)
        let golden = try Session(
            contentsOf: Executables.packageRoot.appendingPathComponent("samples/sessions/rehearsals-journey.jsonl").path)
        #expect(recorded.actions.count == golden.actions.count)
        for (made, expected) in zip(recorded.actions, golden.actions) {
            #expect(made.action == expected.action, "step \(made.sequence)")
            #expect(made.origin == expected.origin, "step \(made.sequence)")
            #expect(made.state == expected.state, "step \(made.sequence)")
        }
    }
}
