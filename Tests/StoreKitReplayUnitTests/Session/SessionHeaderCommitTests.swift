import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import StoreKitTestFixtures
import Testing

/// The header's optional `app.commit`: written only when known, read back, and refused when it is not a commit id.
@Suite struct SessionHeaderCommitTests {
    private static let commit = "0123456789abcdef0123456789abcdef01234567"

    private static func header(commit: String) -> SessionHeader {
        SessionHeader(
            sessionID: "s1", storeID: "tally",
            app: AppInfo(name: "TallyApp", version: "2.0", build: "7", schemaVersion: "1", commit: commit),
            startedAt: "2026-11-22T10:00:00.000Z", host: "vm", pid: 1, initialState: .object(["total": .integer(0)]))
    }

    /// The header line of `header(commit:)`, with `app` as given.
    private static func line(app: String) -> String {
        #"{"app":\#(app),"format":1,"host":"vm","initialState":{"total":0},"kind":"session","metadata":{},"pid":1,"sessionId":"s1","startedAt":"2026-11-22T10:00:00.000Z","storeId":"tally"}"#
    }

    @Test func theHeaderWritesTheCommitOnlyWhenItIsKnown() throws {
        // Given the same header without and with a commit
        let without = SessionEvent.header(Self.header(commit: "")).line
        let with = SessionEvent.header(Self.header(commit: Self.commit)).line

        // Then without one the line is what it always was, and with one `app` holds it
        #expect(
            String(decoding: without, as: UTF8.self)
                == Self.line(app: #"{"build":"7","name":"TallyApp","schemaVersion":"1","version":"2.0"}"#) + "\n")
        #expect(
            String(decoding: with, as: UTF8.self)
                == Self.line(
                    app: #"{"build":"7","commit":"\#(Self.commit)","name":"TallyApp","schemaVersion":"1","version":"2.0"}"#)
                + "\n")

        // And both read back to the header they came from
        #expect(try Session(ndjson: without).header.app.commit == "")
        #expect(try Session(ndjson: with).header == Self.header(commit: Self.commit))
    }

    @Test func aSHA256CommitIsRead() throws {
        let commit = String(repeating: "9e", count: 32)
        let text = Self.line(app: #"{"commit":"\#(commit)","name":"TallyApp"}"#) + "\n"
        #expect(try Session(ndjson: Array(text.utf8)).header.app.commit == commit)
    }

    struct BadCommit: CustomTestStringConvertible, Sendable {
        let name: String
        let value: String
        let reason: String
        var testDescription: String { name }
    }

    static let badCommits: [BadCommit] = [
        BadCommit(
            name: "upper-case digits", value: #""\#(commit.uppercased())""#,
            reason: "field 'app.commit' is '\(commit.uppercased())'; expected a git commit id: 40 or 64 lowercase hex digits"),
        BadCommit(
            name: "an abbreviated commit", value: #""0123456""#,
            reason: "field 'app.commit' is '0123456'; expected a git commit id: 40 or 64 lowercase hex digits"),
        BadCommit(
            name: "an empty string", value: #""""#,
            reason: "field 'app.commit' is ''; expected a git commit id: 40 or 64 lowercase hex digits"),
        BadCommit(
            name: "a branch name", value: #""main""#,
            reason: "field 'app.commit' is 'main'; expected a git commit id: 40 or 64 lowercase hex digits"),
        BadCommit(
            name: "a number", value: "12", reason: "field 'app.commit' expected a string, found number"),
    ]

    @Test(arguments: badCommits)
    func theReaderRefusesACommitThatIsNotOne(_ bad: BadCommit) throws {
        // Given a header whose app.commit is not a commit id
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write("bad.jsonl", Self.line(app: #"{"commit":\#(bad.value),"name":"TallyApp"}"#) + "\n")

        // When it is read, then the reader refuses its first line, naming the field
        let error = #expect(throws: SessionReadError.self) { _ = try Session(contentsOf: path) }
        #expect(error?.description == "\(path):1: \(bad.reason)")
    }

    @Test func theSchemaDescribesTheCommit() throws {
        let line = Self.line(app: #"{"commit":"\#(Self.commit)","name":"TallyApp"}"#)
        #expect(SessionSchema.validator.validate(try JSONValue(parsing: Array(line.utf8))).map(\.description) == [])
    }
}
