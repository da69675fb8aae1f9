import Foundation
import SampleFeatures
import SampleReplayStores
import StoreKitTesting
import Testing
import XCTest

/// The non-throwing golden assertions report their failure at the line that calls them.
@Suite struct GoldenExpectationsTests {
    @Test func expectGoldenReportsAtTheCallersLineInsteadOfThrowing() throws {
        // Given a golden that does not exist, and a record mode that may not record it
        let failures = FailureCollector()

        // When the expectation runs
        let line: UInt = #line + 1
        expectGolden(
            "no-such-golden.jsonl", storeID: "counter", initialState: Counter.State(), reducer: Counter.reducer,
            actions: [.increment], record: .never, reportFailure: failures.report)

        // Then one failure names the missing golden, at this file and line
        let failure = try #require(failures.failures.first)
        #expect(failures.failures.count == 1)
        #expect(failure.line == line)
        #expect("\(failure.filePath)" == #filePath)
        #expect(failure.message.hasPrefix("no golden session at "))
    }

    @Test func expectReplayMatchesReturnsTheReportOfAMatchingGolden() throws {
        let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("samples/sessions/counter-basic.jsonl").path
        let failures = FailureCollector()
        let report = expectReplayMatches(
            session: golden, stores: SampleStores.all, record: .never, reportFailure: failures.report)
        #expect(report?.verdict == .match)
        #expect(failures.failures.isEmpty)
    }

    @Test func expectReplayMatchesTakesIdentityKeysAsTheThrowingFormDoes() throws {
        let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("samples/sessions/counter-basic.jsonl").path
        let failures = FailureCollector()

        // When the identity keys hold a pattern that does not parse
        let report = expectReplayMatches(
            session: golden, stores: SampleStores.all, identity: ["todos[": "toDoID"], record: .never,
            reportFailure: failures.report)

        // Then the failure says so, as assertReplayMatches would throw it
        #expect(report == nil)
        let failure = try #require(failures.failures.first)
        #expect(failure.message.hasPrefix("identity: "), "\(failure.message)")
    }
}

/// Under XCTest a golden failure lands on the test's file and line, not at `<EXPR>:0` as a thrown error does.
final class GoldenExpectationsXCTests: XCTestCase {
    /// Failures recorded while ``isCapturing``, kept instead of failing the test; any other failure fails it.
    private var recorded: [(file: String, line: Int, description: String)] = []
    private var isCapturing = false

    #if canImport(Darwin)
        override func record(_ issue: XCTIssue) {
            guard isCapturing else { return super.record(issue) }
            let location = issue.sourceCodeContext.location
            recorded.append((location?.fileURL.path ?? "", location?.lineNumber ?? 0, issue.compactDescription))
        }
    #else
        override func recordFailure(
            withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
        ) {
            guard isCapturing else {
                return super.recordFailure(
                    withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
            }
            recorded.append((filePath, lineNumber, description))
        }
    #endif

    func testAGoldenFailureIsRecordedAtTheCallersFileAndLine() {
        // When a golden that cannot be read is expected to replay
        isCapturing = true
        expectReplayMatches(session: "no-such-golden.jsonl", stores: SampleStores.all, record: .never); let line = #line
        isCapturing = false

        // Then XCTest recorded one failure, at this file and line, saying why
        let failures = recorded
        XCTAssertEqual(failures.count, 1)
        XCTAssertEqual(failures.first?.file, #filePath)
        XCTAssertEqual(failures.first?.line, line)
        XCTAssertTrue(failures.first?.description.contains("golden session") ?? false, "\(failures)")
    }
}
