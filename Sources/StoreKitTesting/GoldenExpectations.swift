import StoreKitCore
import StoreKitReplay

/// Replays the golden session at `path` as
/// ``assertReplayMatches(session:stores:ignoring:identity:record:artifacts:filePath:)``
/// does, and reports a failure at the caller's file and line instead of throwing: an XCTest failure, or a Swift
/// Testing issue, whichever framework runs the test.
///
/// The throwing form's error is reported by the test framework where it reports thrown errors: XCTest on Linux at
/// `<EXPR>:0`, Swift Testing at the test function. This form puts the failure on the line that calls it, with the
/// same text (the divergence and its -/+ diff, the artifacts kept), and lets the test go on.
///
/// ```swift
/// func testTodosGoldenStillReplays() {
///     expectReplayMatches(session: "Goldens/todos-basic.jsonl", stores: AppStores.all)
/// }
/// ```
/// - Parameters:
///   - path: The golden session file: absolute, or relative to the folder of the calling test file.
///   - stores: The replayable stores; the session's header names which one replays it.
///   - ignoring: Path patterns whose values do not count (`*` any member, `[*]` any element).
///   - identity: Which member identifies the elements of the arrays each path pattern names, where it is not `id`
///     (`["todos": "toDoID"]`), as ``assertReplayMatches(session:stores:ignoring:identity:record:artifacts:filePath:)``
///     takes it.
///   - record: The record mode; `nil` uses ``GoldenRecordMode/fromEnvironment(_:)``.
///   - artifacts: The folder a failure writes its artifacts into; `nil` uses
///     ``GoldenArtifacts/directory(forTestFile:environment:)``.
///   - fileID: The calling test file's id; leave the default.
///   - filePath: The calling test file, which relative paths start from; leave the default.
///   - line: The caller's line, where a failure is reported; leave the default.
///   - column: The caller's column; leave the default.
///   - reportFailure: Where the failure goes; by default the running test framework.
/// - Returns: The replay report when the golden matched, `nil` after reporting a failure.
@discardableResult
public func expectReplayMatches(
    session path: String, stores: [ReplayableStore], ignoring: [String] = [], identity: [String: String] = [:],
    record: GoldenRecordMode? = nil, artifacts: String? = nil, fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    reportFailure: @Sendable (TestFailure) -> Void = TestFailure.reportToTestFramework
) -> ReplayReport? {
    do {
        return try assertReplayMatches(
            session: path, stores: stores, ignoring: ignoring, identity: identity, record: record, artifacts: artifacts,
            filePath: filePath)
    } catch {
        reportFailure(
            TestFailure(message: error.description, fileID: fileID, filePath: filePath, line: line, column: column))
        return nil
    }
}

/// Runs `actions` through `reducer` against the golden session at `path` as
/// ``assertGolden(_:storeID:initialState:reducer:actions:ignoring:record:artifacts:filePath:)`` does (recording it
/// when missing), and reports a failure at the caller's file and line instead of throwing: an XCTest failure, or a
/// Swift Testing issue, whichever framework runs the test.
/// - Parameters:
///   - path: The golden session file: absolute, or relative to the folder of the calling test file.
///   - storeID: The store's id in the session's header.
///   - initialState: The state before the first action.
///   - reducer: The reducer under test.
///   - actions: The test's script.
///   - ignoring: Path patterns whose values do not count, in states and actions alike.
///   - record: The record mode; `nil` uses ``GoldenRecordMode/fromEnvironment(_:)``.
///   - artifacts: The folder a failure writes its artifacts into; `nil` uses
///     ``GoldenArtifacts/directory(forTestFile:environment:)``.
///   - fileID: The calling test file's id; leave the default.
///   - filePath: The calling test file, which relative paths start from; leave the default.
///   - line: The caller's line, where a failure is reported; leave the default.
///   - column: The caller's column; leave the default.
///   - reportFailure: Where the failure goes; by default the running test framework.
public func expectGolden<State: Codable & Equatable & Sendable, Action: Codable & Sendable>(
    _ path: String, storeID: String, initialState: State, reducer: Reducer<State, Action>, actions: [Action],
    ignoring: [String] = [], record: GoldenRecordMode? = nil, artifacts: String? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    reportFailure: @Sendable (TestFailure) -> Void = TestFailure.reportToTestFramework
) {
    do {
        try assertGolden(
            path, storeID: storeID, initialState: initialState, reducer: reducer, actions: actions,
            ignoring: ignoring, record: record, artifacts: artifacts, filePath: filePath)
    } catch {
        reportFailure(
            TestFailure(message: error.description, fileID: fileID, filePath: filePath, line: line, column: column))
    }
}
