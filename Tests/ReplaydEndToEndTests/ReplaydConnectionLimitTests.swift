import Foundation
import SampleReplayStores
import StoreKitCore
import StoreKitReplay
import StoreKitSystem
import Testing

/// Connections that hold descriptors and send nothing cannot lock new apps out of the daemon.
@Suite struct ReplaydConnectionLimitTests {
    @Test func idleConnectionsFromOneProcessDoNotLockOtherAppsOut() async throws {
        // Given replayd started with the 256-file soft limit some systems give (and a hard limit of 1024), and this
        // process allowed the few hundred sockets it opens
        _ = try Syscall.raiseDescriptorSoftLimit()
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let daemon = try await DaemonProcess(
            folder: folder, arguments: ["--max-connections-per-peer", "16", "--header-timeout", "600"],
            openFiles: (soft: 256, hard: 1024))
        let limits = try #require(daemon.entries("daemon.limits").first)
        #expect(limits["openFilesBefore"] as? Int == 256)
        #expect(limits["openFiles"] as? Int == 1024)
        #expect(limits["openFilesHard"] as? Int == 1024)
        #expect(limits["maxConnectionsPerPeer"] as? Int == 16)
        // (The connections that checked the daemon was up are closed, so all 16 are this test's to take.)
        await waitUntil("the start-up probes are closed") {
            daemon.count("connection.closed") == daemon.count("connection.opened")
        }

        // When this process opens 300 connections and sends nothing on them
        let idle = try (0..<300).map { _ in try RawClient(socket: folder.socket) }

        // Then all but 16 are refused at once, told why, and closed
        await waitUntil("284 connections are refused") { idle.filter(\.isReadable).count == 284 }
        let firstRefused = idle.first { $0.isReadable }
        let refused = try #require(firstRefused)
        let reply = try refused.nextReply()
        #expect(reply?["kind"] as? String == "rejected")
        #expect(
            reply?["reason"] as? String
                == "process \(getpid()) already has 16 connections open, the most one process may have "
                + "(--max-connections-per-peer)")
        #expect(try refused.nextReply() == nil)

        // And another app records a whole session meanwhile
        let app = try await Executables.run(
            "sample-app", ["--socket", folder.socket, "--timeout", "60", "--feature", "counter", "--actions", "20"])
        #expect(app.status == 0, "\(app.stderr)")
        let files = folder.sessionFiles()
        try #require(files.count == 1, "\(files)")
        await waitUntil("the app's session is stored to its end") {
            folder.lines(of: files[0]).last?.contains(#""reason":"finished""#) == true
        }
        let report = try ReplayEngine(stores: SampleStores.all).replay(path: folder.sessions + "/" + files[0])
        #expect(report.verdict == .match)
        #expect(report.actionCount == 20)

        // And the refusals are logged, throttled, and counted in full when the daemon stops
        withExtendedLifetime(idle) {}
        #expect(await daemon.stop() == 0)
        let logged = daemon.entries("connection.refused")
        #expect((1...284).contains(logged.count))
        #expect(logged.allSatisfy { $0["limit"] as? String == "perPeer" && $0["pid"] as? Int == Int(getpid()) })
        #expect(daemon.entries("daemon.stopped").first?["connectionsRefused"] as? Int == 284)
    }

    @Test func aConnectionThatSendsNoHeaderIsClosedAfterTheHeaderTimeoutAndAnIdleSessionStays() async throws {
        // Given replayd with a one-second header timeout, serving all clients on one thread
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let daemon = try await DaemonProcess(folder: folder, arguments: ["--header-timeout", "1s", "--threads", "1"])

        // When one app sends its header and goes quiet, and then another connection sends nothing at all
        let quiet = try RawClient.startingSession("quiet", socket: folder.socket)
        let silent = try RawClient(socket: folder.socket)

        // Then the silent one is closed once its second is up, and the event is logged
        await waitUntil("the silent connection is closed") { silent.isReadable }
        #expect(try silent.nextReply() == nil)
        let timedOut = daemon.entries("connection.header_timeout")
        #expect(timedOut.count == 1)
        #expect(timedOut.first?["timeoutSeconds"] as? Double == 1)
        #expect(timedOut.first?["bytesReceived"] as? Int == 0)
        #expect(daemon.entries("connection.closed").contains { $0["reason"] as? String == "no session header within 1 s" })

        // And the quiet app, connected longer than that, is still served
        try quiet.send(line: SessionLines.action(1))
        let reply = try quiet.nextReply(skippingPersisted: false)
        #expect(reply?["kind"] as? String == "persisted")
        #expect(reply?["seq"] as? Int == 1)
        #expect(await daemon.stop() == 0)
        #expect(daemon.count("connection.header_timeout") == 1)
    }

    @Test func theNewOptionsRefuseValuesOutOfRange() async throws {
        let noTimeout = try await Executables.run("replayd", ["--header-timeout", "0"])
        #expect(noTimeout.status == 2)
        #expect(
            noTimeout.stderr.contains("Error: option '--header-timeout' needs a duration such as 90s, 30m, 12h or 7d"),
            "\(noTimeout.stderr)")
        let noConnections = try await Executables.run("replayd", ["--max-connections-per-peer", "0"])
        #expect(noConnections.status == 2)
        #expect(
            noConnections.stderr.contains("Error: option '--max-connections-per-peer' needs a whole number from 1 to 1000000"),
            "\(noConnections.stderr)")
    }
}
