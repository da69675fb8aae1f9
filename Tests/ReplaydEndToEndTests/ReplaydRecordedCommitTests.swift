import Foundation
import StoreKitCore
import StoreKitReplay
import Testing

@Suite struct ReplaydRecordedCommitTests {
    @Test func theSampleAppsSessionNamesTheCommitOfTheCheckoutItWasBuiltIn() async throws {
        // Given the commit of this package's checkout, where sample-app was built, and a daemon on a temporary socket
        let commit = try headCommit(of: Executables.packageRoot.path)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let daemon = try await DaemonProcess(folder: folder)

        // When the real sample app, which names no commit of its own, records through the daemon
        let app = try await Executables.run("sample-app", ["--socket", folder.socket, "--feature", "counter", "--actions", "5"])
        #expect(app.status == 0, "\(app.stderr)")
        #expect(await daemon.stop() == 0)

        // Then the stored header names that commit, as the reader reads it
        let files = folder.sessionFiles()
        try #require(files.count == 1, "\(files)")
        let session = try Session(contentsOf: folder.sessions + "/" + files[0])
        #expect(session.header.app.commit == commit)
        #expect(folder.lines(of: files[0]).first?.contains(#""commit":"\#(commit)""#) == true)
    }

    /// What `git -C checkout rev-parse HEAD` prints.
    private func headCommit(of checkout: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", checkout, "rev-parse", "HEAD"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "git rev-parse HEAD failed in \(checkout)")
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
