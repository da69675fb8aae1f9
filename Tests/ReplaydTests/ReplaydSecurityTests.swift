import Foundation
import StoreKitCore
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
        #expect(wrong.stderr.contains("Error: option '--max-line-bytes' needs a whole number"))
        let noThreads = try await Executables.run("replayd", ["--threads", "0"])
        #expect(noThreads.status == 2)
        #expect(noThreads.stderr.contains("Error: option '--threads' needs a whole number from 1 to 64, not '0'"))
        let unknown = try await Executables.run("replayd", ["--sockt", "/tmp/x"])
        #expect(unknown.stderr.contains("unknown option '--sockt'"))
    }
}
