import Foundation
import StoreKitTestFixtures
import Testing

@testable import ReplayCommands

/// `replay-cli pull` after `devicectl`: what it keeps, where, and what verifying each copied file says, with a fake
/// `xcrun` that writes files where `devicectl` would.
@Suite struct DevicePullTests {
    static let udid = "00008030-001A35E11A88802E"
    static let state = #"{"items":[],"labels":[],"ratio":1.0,"total":2}"#
    static let goodSession = [
        headerLine, actionLine(1, action: #"{"add":{"_0":2}}"#, state: state),
        #"{"actions":1,"dropped":0,"kind":"end","reason":"finished","time":0.6}"#,
    ].joined(separator: "\n") + "\n"
    /// A session cut off in the middle of its second line, as a copy taken while the app was writing may be.
    static let cutSession = headerLine + "\n" + actionLine(1, action: #"{"add":{"_0":2}}"#, state: state).prefix(30)

    /// A fake `xcrun` that records its arguments and writes `files` (relative path, contents, age in seconds) under
    /// the `--destination` it was given, or fails with `failure`.
    final class FakeXcrun: DeviceTool {
        var files: [(path: String, contents: String, ageSeconds: Double)] = []
        var failure: String?
        var canStart = true
        private(set) var runs: [[String]] = []

        func run(_ arguments: [String]) -> DeviceToolRun? {
            runs.append(arguments)
            guard canStart else { return nil }
            if let failure { return DeviceToolRun(succeeded: false, output: failure) }
            guard let flag = arguments.firstIndex(of: "--destination") else { return nil }
            let destination = arguments[flag + 1]
            for file in files {
                let path = destination + "/" + file.path
                try! FileManager.default.createDirectory(
                    atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try! Data(file.contents.utf8).write(to: URL(fileURLWithPath: path))
                try! FileManager.default.setAttributes(
                    [.modificationDate: Date(timeIntervalSinceNow: -file.ageSeconds)], ofItemAtPath: path)
            }
            return DeviceToolRun(succeeded: true, output: "Copied 1 item.")
        }
    }

    static func pull(into folder: String, latestOnly: Bool = false) throws -> DevicePull {
        try DevicePull(
            device: udid, bundle: "com.example.Todos", source: DeviceCopyPlan.defaultSource, destination: folder,
            latestOnly: latestOnly, stagingName: ".replay-pull-test")
    }

    @Test func eachCopiedSessionIsMovedUpAndVerifiedWithTheReadersFirstErrorAtItsLine() throws {
        // Given a device whose folder holds a good session and one cut off mid-line, copied as a folder
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let xcrun = FakeXcrun()
        xcrun.files = [
            ("replay-sessions/good.jsonl", Self.goodSession, 60), ("replay-sessions/cut.jsonl", Self.cutSession, 30),
        ]

        // When it is pulled into an output folder that does not exist yet
        let output = folder.file("out")
        let outcome = try Self.pull(into: output).run(with: xcrun)

        // Then devicectl copied into a fresh folder inside the output, which is gone, and each session is verified
        #expect(xcrun.runs.map { $0.last } == [output + "/.replay-pull-test"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: output).sorted() == ["cut.jsonl", "good.jsonl"])
        #expect(
            outcome.lines == [
                "invalid \(output)/cut.jsonl:2: the last line is cut off (no newline at the end and not valid JSON: at byte 27: "
                    + "unterminated string)",
                "ok      \(output)/good.jsonl: 3 lines, 1 actions",
            ])
        #expect(!outcome.allValid)
    }

    @Test func aGoodCopyIsAllValid() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let xcrun = FakeXcrun()
        xcrun.files = [("good.jsonl", Self.goodSession, 0)]

        let outcome = try Self.pull(into: folder.path).run(with: xcrun)

        #expect(outcome.lines == ["ok      \(folder.path)/good.jsonl: 3 lines, 1 actions"])
        #expect(outcome.allValid)
    }

    @Test func latestKeepsTheSessionModifiedLastAndSaysWhatItLeftOut() throws {
        // Given three sessions of different ages and a file that is not a session
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let xcrun = FakeXcrun()
        xcrun.files = [
            ("a.jsonl", Self.cutSession, 10), ("b.jsonl", Self.goodSession, 1), ("c.jsonl", Self.cutSession, 300),
            ("a.jsonl.tmp", "", 0),
        ]

        // When the latest is pulled
        let outcome = try Self.pull(into: folder.path, latestOnly: true).run(with: xcrun)

        // Then only the newest session is in the folder
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["b.jsonl"])
        #expect(
            outcome.lines == [
                "ok      \(folder.path)/b.jsonl: 3 lines, 1 actions", "left out 2 older session files (--latest)",
                "left out 1 file not named *.jsonl",
            ])
    }

    @Test func aFailedCopyIsAnErrorWithTheCommandAndWhatDevicectlSaid() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let xcrun = FakeXcrun()
        xcrun.failure = "ERROR: The specified device was not found. (com.apple.dt.CoreDeviceError error 1000.)"

        #expect {
            try Self.pull(into: folder.path).run(with: xcrun)
        } throws: { error in
            (error as? CLIError)?.description
                == "cannot copy from the device: 'xcrun devicectl device copy from --device 00008030-001A35E11A88802E "
                + "--domain-type appDataContainer --domain-identifier com.example.Todos --source "
                + "Library/Caches/replay-sessions --destination \(folder.path)/.replay-pull-test' failed: ERROR: The "
                + "specified device was not found. (com.apple.dt.CoreDeviceError error 1000.)"
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }

    @Test func xcrunThatCannotStartIsAnError() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let xcrun = FakeXcrun()
        xcrun.canStart = false

        #expect {
            try Self.pull(into: folder.path).run(with: xcrun)
        } throws: { error in
            (error as? CLIError)?.message.hasPrefix(
                "cannot copy from the device: xcrun could not be started ('xcrun devicectl device copy from --device") == true
        }
    }

    @Test func aCopyWithoutSessionFilesIsAnError() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let xcrun = FakeXcrun()
        xcrun.files = [("replay-sessions/notes.txt", "hello", 0)]

        #expect {
            try Self.pull(into: folder.path).run(with: xcrun)
        } throws: { error in
            (error as? CLIError)?.message
                == "the copy of 'Library/Caches/replay-sessions' from com.example.Todos on 00008030-001A35E11A88802E "
                + "holds no session file (.jsonl)"
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }
}
