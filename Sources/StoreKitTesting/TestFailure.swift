import StoreKitReplay
import Testing
import XCTest

/// A test assertion failure, or a note about what a non-exhaustive test let pass, with the place in the test that
/// caused it.
public struct TestFailure: Sendable, CustomStringConvertible {
    /// How much a report weighs.
    public enum Severity: Sendable, Equatable {
        /// The test fails.
        case failure
        /// Information only: what a non-exhaustive `TestStore` skipped, when asked to show it.
        case note
    }

    /// The explanation, with a -/+ diff where states differ; `TestStore` starts it with the step (`step 7: …`).
    public var message: String
    /// The caller's file (`#filePath`).
    public var filePath: StaticString
    /// The caller's file id (`#fileID`).
    public var fileID: StaticString
    /// The caller's line.
    public var line: UInt
    /// The caller's column.
    public var column: UInt
    /// The store step (action sequence number) the report is about, when there is one.
    public var step: Int?
    /// A failure, or a note.
    public var severity: Severity

    /// Creates a report at the given place.
    public init(
        message: String, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt, step: Int? = nil,
        severity: Severity = .failure
    ) {
        self.message = message
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
        self.column = column
        self.step = step
        self.severity = severity
    }

    /// The message.
    public var description: String { message }

    /// Reports the failure to whichever framework runs the test: Swift Testing when one of its tests is running,
    /// else XCTest; both show it at the caller's file and line. A note is a Swift Testing warning, and under XCTest
    /// (which has no warnings) a line on standard output starting with the caller's `file:line:`.
    @Sendable public static func reportToTestFramework(_ failure: TestFailure) {
        if Test.current != nil {
            let location = SourceLocation(
                fileID: "\(failure.fileID)", filePath: "\(failure.filePath)", line: Int(failure.line),
                column: Int(failure.column))
            #if compiler(>=6.3)
                Issue.record(
                    Comment(rawValue: failure.message), severity: failure.severity == .note ? .warning : .error,
                    sourceLocation: location)
            #else
                // Swift Testing before 6.3 has no warnings: a note goes to standard output.
                if failure.severity == .note {
                    print("\(failure.filePath):\(failure.line): note: \(failure.message)")
                } else {
                    Issue.record(Comment(rawValue: failure.message), sourceLocation: location)
                }
            #endif
        } else if failure.severity == .note {
            print("\(failure.filePath):\(failure.line): note: \(failure.message)")
        } else {
            XCTFail(failure.message, file: failure.filePath, line: failure.line)
        }
    }
}
