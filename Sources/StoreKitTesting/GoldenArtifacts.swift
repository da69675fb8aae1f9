import Foundation
import StoreKitCore
import StoreKitReplay

/// What a failing golden assertion keeps for the one who reads the failure (locally, or from CI's uploaded
/// artifacts): the golden as the current reducers replay it (`<golden>.replayed.jsonl`, which `replay-cli diff` and
/// `replay-cli update` read) and its HTML report (`<golden>.html`), named at the end of the failure message, and
/// attached to the running test (a Swift Testing attachment, or an `XCTAttachment` on Apple platforms) so Xcode's
/// test report and `swift test --attachments-path DIR` show them too.
public enum GoldenArtifacts {
    /// The environment variable naming the artifacts folder.
    public static let environmentVariable = "REPLAY_ARTIFACTS"

    /// The folder a failing assertion writes into: `$REPLAY_ARTIFACTS` when set, else `.build/replay-artifacts` in
    /// the package holding `testFile` (the nearest folder above it with a `Package.swift`), else
    /// `replay-artifacts` in the temporary folder.
    ///
    /// The package is found from the test file rather than the working directory, which differs between
    /// `swift test`, Xcode and CI.
    /// - Parameters:
    ///   - testFile: The calling test file's path (`#filePath`).
    ///   - environment: The environment to read `REPLAY_ARTIFACTS` from.
    /// - Returns: The folder's path (it may not exist yet).
    public static func directory(
        forTestFile testFile: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        if let folder = environment[environmentVariable], !folder.isEmpty { return folder }
        var folder = URL(fileURLWithPath: testFile).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                return folder.appendingPathComponent(".build/replay-artifacts").path
            }
            folder.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("replay-artifacts").path
    }

    /// Writes the artifacts of the failing golden at `goldenPath` into `directory`, attaches them to the running test
    /// (even when the folder cannot be written), and returns the message's last line,
    /// `artifacts: <replayed session>, <report>` (or why one could not be written).
    /// - Parameters:
    ///   - recorded: The golden as read.
    ///   - replayed: Makes the golden as the current code gives it.
    ///   - report: The replay's report, marked in the HTML report.
    static func keep(
        golden goldenPath: String, in directory: String, recorded: Session, report: ReplayReport,
        replayed: () throws -> Session
    ) -> String {
        let name = URL(fileURLWithPath: goldenPath).deletingPathExtension().lastPathComponent
        let base = URL(fileURLWithPath: directory).appendingPathComponent(name).path
        let session = Result { Data(try replayed().ndjson) }
        let html = Data(HTMLReport.render(session: recorded, report: report, source: goldenPath).utf8)
        if case .success(let session) = session { TestAttachment.attach(session, named: name + ".replayed.jsonl") }
        TestAttachment.attach(html, named: name + ".html")
        var written: [String] = []
        var problems: [String] = []
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            return "artifacts: none, the folder \(directory) cannot be created: \(error.localizedDescription)"
        }
        do {
            try session.get().write(to: URL(fileURLWithPath: base + ".replayed.jsonl"))
            written.append(base + ".replayed.jsonl")
        } catch {
            problems.append("no replayed session (\(error))")
        }
        do {
            try html.write(to: URL(fileURLWithPath: base + ".html"))
            written.append(base + ".html")
        } catch {
            problems.append("no HTML report (\(error.localizedDescription))")
        }
        return "artifacts: " + (written + problems).joined(separator: ", ")
    }
}
