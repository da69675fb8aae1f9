import Foundation
import StoreKitCore
import StoreKitTestFixtures
import StoreKitReplay
import StoreKitSystem
import Testing

@Suite struct SessionVerifierTests {
    static let samples: [String] = {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("samples/sessions")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".jsonl") }.sorted().map { folder.appendingPathComponent($0).path }
    }()

    @Test(arguments: brokenSessions)
    func reportsTheReadersOwnErrorForABrokenSession(_ input: BrokenSession) throws {
        // Given a session that the reader refuses
        let bytes = Array(input.text.utf8)
        let refusal = #expect(throws: SessionReadError.self) { _ = try Session(ndjson: bytes, source: "broken.jsonl") }

        // When it is verified
        let result = SessionVerifier.verify(bytes: bytes, source: "broken.jsonl")

        // Then it is invalid, and its first error is the reader's, at the reader's line, in the reader's words
        #expect(!result.isValid)
        let firstError = result.problems.first { !$0.isWarning }
        #expect(firstError?.line == refusal?.line)
        #expect(firstError?.message == refusal?.reason)
    }

    @Test func passesEverySampleSession() throws {
        #expect(Self.samples.count >= 4)
        for path in Self.samples {
            // Given a sample session, when it is verified and read
            let result = SessionVerifier.verify(path: path)
            let session = try Session(contentsOf: path)

            // Then it is valid with no problem at all, and the reader read every action
            #expect(result.problems == [], "\(path)")
            #expect(result.actions == session.actions.count)
        }
    }

    @Test func reportsItsProgressInLinesAndInBytesOfTheWholeFile() throws {
        // Given a sample session, and its size and lines
        let path = try #require(Self.samples.first)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let lineCount = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").count

        // When it is verified with a progress callback
        let seen = Locked<[SessionVerifier.Progress]>([])
        let result = SessionVerifier.verify(path: path) { progress in seen.withLock { $0.append(progress) } }

        // Then each line was reported, with the bytes read growing to the whole file, out of the file's size
        let progress = seen.withLock { $0 }
        #expect(result.isValid)
        #expect(progress.map(\.lines) == Array(1...lineCount))
        #expect(progress.last?.bytesRead == Int64(size))
        #expect(zip(progress, progress.dropFirst()).allSatisfy { $0.bytesRead < $1.bytesRead })
        #expect(progress.allSatisfy { $0.totalBytes == Int64(size) })
    }

    @Test func listsEveryBrokenLineNotOnlyTheFirst() {
        // Given a session with a duplicated line, a line that is not JSON, and a skip
        let text = [
            headerLine, tallyAction(1), tallyAction(1), "hello", tallyAction(3), tallyAction(5), endLine,
        ].map { $0 + "\n" }.joined()

        // When it is verified
        let result = SessionVerifier.verify(bytes: Array(text.utf8))

        // Then each is listed with the reader's reason; after the line that is not JSON the numbers it covered are
        // unknown, so seq 3 is accepted, and the skip from 3 to 5 is found again
        #expect(
            result.problems == [
                SessionVerifier.Problem(
                    line: 3, message: "seq 1 repeats or goes backwards: the lines before it cover sequence numbers up to 1",
                    isWarning: false),
                SessionVerifier.Problem(line: 4, message: "not valid JSON: at byte 0: expected a value", isWarning: false),
                SessionVerifier.Problem(
                    line: 6, message: "seq 5 skips 4 with no 'gap' line for them (the lines before it cover up to 3)",
                    isWarning: false),
            ])
        #expect(result.lines == 7)
        #expect(result.actions == 2)  // the lines that decoded: seq 1 on line 2 and seq 3
    }

    @Test func doesNotCheckAPatchWhoseBaseIsUnknown() {
        // Given a patch line right after a line that did not decode, then a full state, then a patch that applies
        let replaceTotal = #"[{"op":"replace","path":"/total","value":1}]"#
        let text = [
            headerLine, tallyAction(1), #"{"kind":"action","seq":2}"#, patchAction(3, #"[{"op":"remove","path":"/x"}]"#),
            tallyAction(4), patchAction(5, replaceTotal), endLine,
        ].map { $0 + "\n" }.joined()

        // When it is verified
        let result = SessionVerifier.verify(bytes: Array(text.utf8))

        // Then only the undecodable line is an error: the patch after it had no known state to apply to
        #expect(result.problems.map(\.line) == [3])
        #expect(result.problems.first?.message == "field 'state' is missing (an action line has 'state' or 'patch')")
    }

    @Test func warnsOnlyAboutWhatTheReaderReads() throws {
        // Given a session with an unknown field, a line after its end line, no newline at the end and no error
        let text = [
            headerLine, tallyAction(1, extra: #","colour":"red""#),
            endLine.replacingOccurrences(of: #""actions":3"#, with: #""actions":1"#), tallyAction(2),
        ].joined(separator: "\n")

        // When it is verified
        let result = SessionVerifier.verify(bytes: Array(text.utf8))

        // Then it is valid with warnings, and the reader reads the whole of it
        #expect(result.isValid)
        #expect(
            result.problems == [
                SessionVerifier.Problem(line: 2, message: "schema: colour: is not a known field", isWarning: true),
                SessionVerifier.Problem(line: 4, message: "the last line has no newline at the end", isWarning: true),
                SessionVerifier.Problem(line: 4, message: "a line after the 'end' line", isWarning: true),
            ])
        #expect(try Session(ndjson: Array(text.utf8)).actions.count == 2)
    }

    @Test func warnsAboutAMissingEndLine() {
        let result = SessionVerifier.verify(bytes: Array((headerLine + "\n" + tallyAction(1) + "\n").utf8))
        #expect(result.isValid)
        #expect(
            result.problems == [
                SessionVerifier.Problem(
                    line: 0, message: "no 'end' line: the recording was cut off or is still running", isWarning: true)
            ])
    }

    @Test func stopsAtALineOverTheLimit() {
        // Given a session whose second line is over the limit, with broken lines after it
        let long = String(repeating: "x", count: headerLine.utf8.count + 1)
        let text = [headerLine, long, "not json", tallyAction(7)].joined(separator: "\n") + "\n"

        // When it is verified with the header's length as the limit
        let result = SessionVerifier.verify(bytes: Array(text.utf8), maxLineBytes: headerLine.utf8.count)

        // Then the over-long line is the last thing reported: the verifier reads no further
        #expect(result.problems == [SessionVerifier.Problem(line: 2, message: "line is longer than the limit of \(headerLine.utf8.count) bytes", isWarning: false)])
    }

    @Test func stopsAfterAHundredErrors() {
        // Given a header and then 150 lines that are not JSON
        let text = ([headerLine] + Array(repeating: "not json", count: 150)).joined(separator: "\n") + "\n"

        // When it is verified
        let result = SessionVerifier.verify(bytes: Array(text.utf8))

        // Then the first 100 errors are listed, and the verifier says where it stopped
        #expect(result.problems.count == 101)
        #expect(result.problems.dropLast().allSatisfy { !$0.isWarning && $0.message.hasPrefix("not valid JSON") })
        #expect(result.problems.last == SessionVerifier.Problem(line: 0, message: "stopped after 100 errors: the lines after line 101 were not read", isWarning: false))
    }

    @Test func reportsAnEmptyInputAndAMissingFileAsTheReaderDoes() {
        let empty = SessionVerifier.verify(bytes: [])
        #expect(empty.problems == [SessionVerifier.Problem(line: 0, message: "the session is empty (expected a 'session' header line)", isWarning: false)])
        #expect(empty.isReadable)

        let missing = SessionVerifier.verify(path: "/tmp/no-such-session.jsonl")
        #expect(!missing.isReadable)
        #expect(missing.problems.map(\.message) == ["cannot read the session: open /tmp/no-such-session.jsonl: No such file or directory (errno 2)"])
    }
}
