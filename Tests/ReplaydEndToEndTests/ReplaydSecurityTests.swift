import Foundation
import StoreKitCore
import StoreKitSystem
import Testing

@Suite struct ReplaydSecurityTests {
    @Test func theSocketAndSessionFilesAreOwnerOnlyInPrivateDirectories() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let nested = folder.path + "/run/replayd/d.sock"
        let daemon = try await DaemonProcess(folder: folder, socket: nested)
        let client = try RawClient(socket: nested)
        try client.send(line: SessionLines.header(session: "perm"))
        _ = try client.nextReply()

        #expect(try Syscall.status(nested)?.permissions == 0o600)
        #expect(try Syscall.status(nested)?.isSocket == true)
        #expect(try Syscall.status(folder.path + "/run/replayd")?.permissions == 0o700)
        #expect(try Syscall.status(folder.sessions)?.permissions == 0o700)
        #expect(try Syscall.status(folder.sessions + "/counter-perm.jsonl")?.permissions == 0o600)
        #expect(await daemon.stop() == 0)
    }

    @Test func aSecondInstanceOnTheSameSocketIsRefused() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let daemon = try await DaemonProcess(folder: folder)
        let second = try await Executables.run("replayd", ["--socket", folder.socket, "--dir", folder.sessions])
        #expect(second.status == 2)
        #expect(second.stderr.contains("another replayd is already serving \(folder.socket) (pid \(daemon.process.processIdentifier))"))
        // The first one still serves
        let client = try RawClient(socket: folder.socket)
        try client.send(line: SessionLines.header(session: "still"))
        #expect(try client.nextReply()?["kind"] as? String == "welcome")
        #expect(await daemon.stop() == 0)
    }

    @Test func aStaleSocketFileFromADeadDaemonIsCleanedUp() async throws {
        // Given a socket file left behind by a daemon that was killed
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await DaemonProcess(folder: folder).kill9()
        #expect(FileManager.default.fileExists(atPath: folder.socket))

        // When a new daemon starts on it, it serves
        let daemon = try await DaemonProcess(folder: folder, logName: "second.log")
        let client = try RawClient(socket: folder.socket)
        try client.send(line: SessionLines.header(session: "fresh"))
        #expect(try client.nextReply()?["kind"] as? String == "welcome")
        #expect(await daemon.stop() == 0)
    }

    @Test(arguments: [0o770, 0o777, 0o720])
    func aSocketDirectoryOthersCanWriteIsRefused(mode: Int) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let open = folder.path + "/shared"
        try FileManager.default.createDirectory(atPath: open, withIntermediateDirectories: false)
        try Syscall.changeMode(open, mode_t(mode))
        let outcome = try await Executables.run("replayd", ["--socket", open + "/d.sock", "--dir", folder.sessions])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("refusing to use \(open): others can write to it"), "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: open + "/d.sock"))
    }

    @Test func usageErrorsAndHelp() async throws {
        let help = try await Executables.run("replayd", ["--help"])
        #expect(help.status == 0)
        let wrong = try await Executables.run("replayd", ["--max-line-bytes", "ten"])
        #expect(wrong.status == 2)
        #expect(wrong.stderr.contains("Error: option '--max-line-bytes' needs a size from 1K to 16M"))
        let noThreads = try await Executables.run("replayd", ["--threads", "0"])
        #expect(noThreads.status == 2)
        #expect(noThreads.stderr.contains("Error: option '--threads' needs a whole number from 1 to 64, not '0'"))
        let unknown = try await Executables.run("replayd", ["--sockt", "/tmp/x"])
        #expect(unknown.stderr.contains("unknown option '--sockt'"))
    }

    @Test(arguments: ["64M", "67108864", "16777217"])
    func aLineLimitAboveTheSessionFormatsIsAUsageError(limit: String) async throws {
        // A socket no daemon could use, so that a limit taken by mistake ends the run instead of serving
        let outcome = try await Executables.run("replayd", ["--max-line-bytes", limit, "--socket", "/dev/null/d.sock"])
        #expect(outcome.status == 2)
        #expect(
            outcome.stderr.contains(
                "Error: option '--max-line-bytes' needs a size from 1K to 16M (1024 to 16777216 bytes), not '\(limit)'"),
            "\(outcome.stderr)")
    }

    /// A file outside the daemon's folders that a symbolic link inside them points to, and its bytes.
    struct Outside {
        let path: String
        let bytes: Data

        init(in folder: TemporaryFolder, holding text: String) throws {
            path = folder.path + "/outside.jsonl"
            bytes = Data(text.utf8)
            try bytes.write(to: URL(fileURLWithPath: path))
        }

        /// Links `link` to the file.
        func link(from link: String) throws {
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        }

        /// True when the file has the same bytes, and so the same size, as it was made with.
        var isUntouched: Bool { FileManager.default.contents(atPath: path) == bytes }
    }

    private static func makeSessionsFolder(_ folder: TemporaryFolder) throws {
        try FileManager.default.createDirectory(
            atPath: folder.sessions, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    }

    @Test func aLinkAtASessionFilesPathIsNeverAppendedTo() async throws {
        // Given a link, at the path of the session a client continues, to a session file outside the folder
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Self.makeSessionsFolder(folder)
        let outside = try Outside(in: folder, holding: SessionLines.header(session: "linked") + "\n" + SessionLines.action(1) + "\n")
        try outside.link(from: folder.sessions + "/counter-linked.jsonl")
        let daemon = try await DaemonProcess(folder: folder)

        // When the client records that session
        let client = try RawClient(socket: folder.socket)
        try client.send(line: SessionLines.header(session: "linked"))

        // Then it is refused with the reason and logged, and the file outside keeps its bytes
        let reply = try client.nextReply()
        #expect(reply?["kind"] as? String == "rejected")
        let reason = reply?["reason"] as? String ?? ""
        #expect(reason.contains("counter-linked.jsonl is a symbolic link"), "\(reason)")
        #expect(try client.nextReply() == nil)
        #expect(await daemon.stop() == 0)
        #expect(daemon.count("session.open_failed") == 1)
        #expect(outside.isUntouched)
    }

    @Test func startUpRepairDoesNotFollowALink() async throws {
        // Given a link in the sessions folder to a file outside whose last line is cut off
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Self.makeSessionsFolder(folder)
        let outside = try Outside(in: folder, holding: SessionLines.header(session: "cut") + "\n" + #"{"kind":"act"#)
        try outside.link(from: folder.sessions + "/counter-cut.jsonl")

        // When the daemon starts
        let daemon = try await DaemonProcess(folder: folder)
        #expect(await daemon.stop() == 0)

        // Then the link is reported and left alone, and the file outside keeps its bytes
        let unchecked = daemon.entries.first { $0["event"] as? String == "file.unchecked" }
        let error = unchecked?["error"] as? String ?? ""
        #expect(error.contains("counter-cut.jsonl is a symbolic link"), "\(daemon.log)")
        #expect(daemon.count("file.repaired") == 0)
        #expect(folder.sessionFiles() == ["counter-cut.jsonl"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.sessions).allSatisfy { !$0.contains(".partial-") })
        #expect(outside.isUntouched)
    }

    @Test func aLinkAtTheLockFileStopsTheStart() async throws {
        // Given `<socket>.lock` linked to a file outside
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let outside = try Outside(in: folder, holding: "precious\n")
        try outside.link(from: folder.socket + ".lock")

        // When the daemon starts, then it refuses to, saying why, and the file outside keeps its bytes
        let daemon = try await DaemonProcess(folder: folder)
        await waitUntil("replayd exits", timeout: DaemonProcess.processTimeout) { !daemon.process.isRunning }
        #expect(daemon.process.terminationStatus == 2)
        let failure = daemon.entries.first { $0["event"] as? String == "daemon.failed" }
        let error = failure?["error"] as? String ?? ""
        #expect(error.contains("d.sock.lock is a symbolic link"), "\(daemon.log)")
        #expect(outside.isUntouched)
    }

    @Test func aParentFolderEveryoneCanWriteToIsReported() async throws {
        // Given a socket folder inside a folder every user can write to
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let shared = folder.path + "/shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
        try Syscall.changeMode(shared, 0o777)

        // When the daemon starts, then it warns about that folder, and serves
        let daemon = try await DaemonProcess(folder: folder, socket: shared + "/run/d.sock")
        let warning = daemon.entries.first { $0["event"] as? String == "folder.writable_by_others" && $0["folder"] as? String == shared }
        #expect(warning?["level"] as? String == "warn", "\(daemon.log)")
        #expect(warning?["sticky"] as? Bool == false)
        #expect(warning?["below"] as? String == shared + "/run")
        #expect(await daemon.stop() == 0)
    }
}
