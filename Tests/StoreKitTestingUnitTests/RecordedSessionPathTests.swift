import Foundation
import SampleFeatures
import StoreKitTesting
import Testing

/// `RecordedSession(contentsOf:)` finds a relative path as the golden assertions do: from the test file's folder.
@Suite struct RecordedSessionPathTests {
    /// samples/sessions/todos-basic.jsonl, from this file's folder.
    static let fromThisFolder = "../../samples/sessions/todos-basic.jsonl"

    @Test func aRelativePathIsLookedUpFromTheTestFilesFolder() throws {
        // Given a path relative to this test file's folder, which is not the working directory under `swift test`
        let notes = FailureCollector()

        // When the session is read
        let recording = try RecordedSession<Todos.State, Todos.Action>(
            contentsOf: Self.fromThisFolder, reportNote: notes.report)

        // Then it is the file beside the test, read without a note
        #expect(recording.steps.count == 40)
        #expect(notes.failures.isEmpty)
    }

    @Test func aRelativePathFoundOnlyFromTheWorkingDirectoryStillOpensWithANoteAtTheCaller() throws {
        // Given the same file named relative to the working directory, as callers wrote it before
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent(Self.fromThisFolder).standardizedFileURL.path
        let fromWorkingDirectory = Self.relativePath(to: file, from: FileManager.default.currentDirectoryPath)
        let notes = FailureCollector()

        // When the session is read
        let line: UInt = #line + 1
        let recording = try RecordedSession<Todos.State, Todos.Action>(
            contentsOf: fromWorkingDirectory, reportNote: notes.report)

        // Then it opens, and a note at this line asks for the path from the test file's folder
        #expect(recording.steps.count == 40)
        let note = try #require(notes.failures.first)
        #expect(notes.failures.count == 1)
        #expect(note.severity == .note)
        #expect(note.line == line)
        #expect("\(note.filePath)" == #filePath)
        #expect(note.message.contains("read \(file), from the working directory"))
        #expect(note.message.contains("relative paths are now looked up from the test file's folder"))
    }

    @Test func aMissingRelativePathNamesWhereItLooked() {
        let expected = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("no-such-session.jsonl").path
        #expect {
            _ = try RecordedSession<Todos.State, Todos.Action>(contentsOf: "no-such-session.jsonl")
        } throws: { error in
            "\(error)".contains(expected)
        }
    }

    /// `path` relative to the folder `base`, both absolute.
    private static func relativePath(to path: String, from base: String) -> String {
        let target = URL(fileURLWithPath: path).standardizedFileURL.pathComponents
        let start = URL(fileURLWithPath: base).standardizedFileURL.pathComponents
        let shared = zip(target, start).prefix { $0 == $1 }.count
        return (Array(repeating: "..", count: start.count - shared) + target.dropFirst(shared)).joined(separator: "/")
    }
}
