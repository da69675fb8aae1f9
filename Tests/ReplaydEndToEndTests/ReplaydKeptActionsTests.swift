import Foundation
import StoreKitCore
import StoreKitReplay
import Testing

@Suite struct ReplaydKeptActionsTests {
    @Test func aBurstThatOutrunsTheRecorderIsStoredWithItsActionsKeptInGapsThatTheDaemonAndVerifyTake() async throws {
        // Given a daemon on a temporary socket
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let daemon = try await DaemonProcess(folder: folder)

        // When the real sample app dispatches 20,000 actions on its growing todo list flat out, far faster than the
        // recorder encodes the states after them
        let app = try await Executables.run(
            "sample-app", ["--socket", folder.socket, "--feature", "todos", "--actions", "20000"])
        #expect(app.status == 0, "\(app.stderr)")
        #expect(await daemon.stop() == 0)

        // Then the daemon stored every line it was sent, and the session holds all 20,000 actions: with their
        // states, or kept without them in gaps that number each of their sequence numbers
        #expect(daemon.count("line.rejected") == 0)
        let files = folder.sessionFiles()
        try #require(files.count == 1, "\(files)")
        let path = folder.sessions + "/" + files[0]
        let session = try Session(contentsOf: path)
        let gaps = session.events.compactMap { if case .gap(let gap) = $0 { gap } else { nil } }
        #expect(gaps.contains { $0.keepsActions }, "\(gaps.map { ($0.firstSequence, $0.lastSequence) })")
        #expect(gaps.allSatisfy { $0.keepsActions && $0.reason == .bufferFull })
        let kept = gaps.flatMap(\.actions).map(\.sequence)
        #expect((session.actions.map(\.sequence) + kept).sorted() == Array(1...20000))

        // And `verify` reads it as a sound session
        let verified = try await Executables.run("replay-cli", ["verify", path])
        #expect(verified.status == 0, "\(verified.stderr)")
    }
}
