import StoreKitReplay
import Testing
import XCTest

/// A test assertion failure with the place in the test that caused it.
public struct TestFailure: Sendable, CustomStringConvertible {
    /// The explanation, with a -/+ diff where states differ.
    public var message: String
    /// The caller's file (`#filePath`).
    public var filePath: StaticString
    /// The caller's file id (`#fileID`).
    public var fileID: StaticString
    /// The caller's line.
    public var line: UInt
    /// The caller's column.
    public var column: UInt

    /// Creates a failure at the given place.
    public init(message: String, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
        self.message = message
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
        self.column = column
    }

    /// The message.
    public var description: String { message }

    /// Reports the failure to whichever framework runs the test: Swift Testing when one of its tests is running,
    /// else XCTest; both show it at the caller's file and line.
    @Sendable public static func reportToTestFramework(_ failure: TestFailure) {
        if Test.current != nil {
            Issue.record(
                Comment(rawValue: failure.message),
                sourceLocation: SourceLocation(
                    fileID: "\(failure.fileID)", filePath: "\(failure.filePath)", line: Int(failure.line),
                    column: Int(failure.column)))
        } else {
            XCTFail(failure.message, file: failure.filePath, line: failure.line)
        }
    }
}
