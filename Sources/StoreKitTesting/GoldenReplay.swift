import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// Replays the golden session at `path` through the current reducers and throws unless every state matches; the
/// stores' replayable effects are rerun against the golden's recorded inputs and must send, call and end as recorded.
///
/// Works from XCTest and Swift Testing alike: a thrown error fails the test, and its description is the text
/// `replay-cli diff` prints for the golden: the divergence with a -/+ diff, or for an effect the step, the effect's
/// name and the -/+ of the action it sent. The framework reports a thrown error where it reports every thrown error
/// (XCTest on Linux at `<EXPR>:0`, Swift Testing at the test function); ``expectReplayMatches(session:stores:ignoring:record:artifacts:fileID:filePath:line:column:reportFailure:)``
/// reports the same text at the line that calls it instead of throwing.
///
/// ```swift
/// @Test func todosGoldenStillReplays() throws {
///     // Tests/TodosTests/Goldens/todos-basic.jsonl, beside this test file
///     try assertReplayMatches(
///         session: "Goldens/todos-basic.jsonl", stores: [ReplayableStore(id: "todos", reducer: Todos.reducer)])
/// }
/// ```
///
/// A relative `path` is looked up from the folder of the test file that calls the assertion (as
/// swift-snapshot-testing does), not from the working directory, which differs between `swift test`, Xcode and CI;
/// `RecordedSession(contentsOf:)` follows the same rule.
///
/// With record mode ``GoldenRecordMode/failed`` or ``GoldenRecordMode/all`` a golden that diverges (or any golden)
/// is rewritten with the replayed states, accepting the current reducers, and the assertion still fails so the
/// change gets reviewed. An effect divergence is not re-recorded (what an effect sent is the app's recording, not a
/// replayed state): the assertion fails with it, the golden untouched. Only states change: the header, the snapshot layout (patch lines stay patch lines) and the
/// file's mode stay, so the golden's diff in version control is the states that changed (a golden of an older schema
/// version than its store's is written migrated: its actions, initial state and schema version change too, see
/// `docs/migrations.md`). A missing file always fails: there is nothing to replay (record one with your app, or use
/// ``assertGolden(_:storeID:initialState:reducer:actions:ignoring:record:filePath:)``).
///
/// A failing replay keeps two artifacts and names them on the failure message's last line (`artifacts: …`): the
/// golden as the current reducers replay it (`<golden>.replayed.jsonl`) and its HTML report (`<golden>.html`), in
/// `artifacts`, else ``GoldenArtifacts/directory(forTestFile:environment:)`` (`$REPLAY_ARTIFACTS`, else the
/// package's `.build/replay-artifacts`), for CI to upload, and attaches both to the running test (see
/// ``GoldenArtifacts``).
///
/// Values that differ from run to run (random ids, dates) can be left out by path, as `replay-cli --ignore` does:
/// `ignoring: ["todos[*].createdAt"]` makes each replayed state take the recorded values there before the state
/// type's `==` compares the two (see ``JSONPathPattern``).
/// - Parameters:
///   - path: The golden session file: absolute, or relative to the folder of the calling test file.
///   - stores: The replayable stores; the session's header names which one replays it.
///   - ignoring: Path patterns whose values do not count (`*` any member, `[*]` any element).
///   - identity: Which member identifies the elements of the arrays each path pattern names, where it is not `id`
///     (`["todos": "toDoID"]`): a divergence's diff matches them by it (see ``IdentityKey``). It wins over the
///     member found to hold the stored id of `Identifiable` elements, which needs no key.
///   - record: The record mode; `nil` uses ``GoldenRecordMode/fromEnvironment(_:)``.
///   - artifacts: The folder a failure writes its artifacts into; `nil` uses
///     ``GoldenArtifacts/directory(forTestFile:environment:)``.
///   - filePath: The calling test file, which relative paths start from; leave the default.
/// - Returns: The replay report, for further assertions.
/// - Throws: ``GoldenReplayError`` describing the divergence, the gap, the decoding failure, the read error, or a
///   pattern that does not parse.
@discardableResult
public func assertReplayMatches(
    session path: String, stores: [ReplayableStore], ignoring: [String] = [], identity: [String: String] = [:],
    record: GoldenRecordMode? = nil, artifacts: String? = nil, filePath: StaticString = #filePath
) throws(GoldenReplayError) -> ReplayReport {
    let path = TestFileRelativePath.resolve(path, calledFrom: filePath)
    let mode = try resolvedMode(record)
    let identity = try identityKeys(identity)
    let engine = ReplayEngine(
        stores: stores, options: ReplayEngine.Options(ignoring: try patterns(ignoring), identity: identity))
    let session: Session
    do {
        session = try Session(contentsOf: path)
    } catch {
        throw GoldenReplayError("golden session \(error)")
    }
    let report = engine.replay(session)
    let rewrite = mode == .all || (mode == .failed && !report.isMatch)
    if rewrite && report.effectDivergences.isEmpty {
        try writeRerecorded(session, engine: engine, to: path)
        throw GoldenReplayError(
            "re-recorded golden \(path) with the current reducers (record mode '\(mode.rawValue)'); review the change "
                + "and run again without recording\n\n" + report.explanation(source: path))
    }
    guard report.isMatch && report.effectDivergences.isEmpty else {
        let kept = GoldenArtifacts.keep(
            golden: path, in: artifacts ?? GoldenArtifacts.directory(forTestFile: "\(filePath)"), recorded: session,
            report: report, replayed: { try engine.rerecord(session, migrating: true) })
        let refused = rewrite ? effectsNotRerecorded(path, mode: mode) : ""
        throw GoldenReplayError(refused + report.explanation(source: path) + "\n" + identityWarnings(identity, report) + kept)
    }
    return report
}

/// Why record mode `mode` left the golden at `path` as it was: an effect divergence is no state to take from the
/// replay, since what an effect sent and called is the app's recording.
private func effectsNotRerecorded(_ path: String, mode: GoldenRecordMode) -> String {
    "did not re-record golden \(path) (record mode '\(mode.rawValue)'): a rerun effect did otherwise than in the "
        + "recording, and what an effect sends and calls cannot be taken from a replay; fix the effect, or record the "
        + "session again with the app\n\n"
}

/// Asserts that `actions`, run through `reducer` from `initialState`, give the states in the golden session at
/// `path`; records the golden when it is missing (or when the record mode says so) and then fails for review.
///
/// This is the snapshot-testing form: the test owns the script of actions, and the golden file holds the states
/// they produced when it was recorded. A later change to the reducer shows up as a divergence at the first step
/// whose state differs; a change to the script shows up as a different action at that step. Re-recording an
/// existing golden (record mode `failed` or `all`) keeps its header (session id, start time, pid), its snapshot
/// layout and its file mode: with the same script only states change; with a new one, the actions and states.
///
/// A relative `path` is looked up from the folder of the calling test file, not from the working directory.
/// ``expectGolden(_:storeID:initialState:reducer:actions:ignoring:record:artifacts:fileID:filePath:line:column:reportFailure:)``
/// reports a failure at the line that calls it instead of throwing.
///
/// With `ignoring`, the values at those paths do not count, in the states and in the script's actions and
/// initial state alike (a fresh random id in an action is still the same script). With `identity`, the elements of
/// the arrays each pattern names are matched by that member in a divergence's diff (`["todos": "toDoID"]`).
///
/// A failure keeps the golden as the test's script and the current reducer make it (`<golden>.replayed.jsonl`) and
/// the golden's HTML report (`<golden>.html`) in `artifacts` (else ``GoldenArtifacts/directory(forTestFile:environment:)``)
/// and names them on the message's last line (`artifacts: …`), and attaches both to the running test.
/// ```swift
/// @Test func addingTwoTodos() throws {
///     try assertGolden("Goldens/two-todos.jsonl", storeID: Todos.storeID, initialState: Todos.State(),
///                      reducer: Todos.reducer, actions: [.addTodo(id: id1, title: "Milk", createdAt: date), ...])
/// }
/// ```
/// - Throws: ``GoldenReplayError`` on any difference, and after recording.
public func assertGolden<State: Codable & Equatable & Sendable, Action: Codable & Sendable>(
    _ path: String, storeID: String, initialState: State, reducer: Reducer<State, Action>, actions: [Action],
    ignoring: [String] = [], identity: [String: String] = [:], record: GoldenRecordMode? = nil,
    artifacts: String? = nil, filePath: StaticString = #filePath
) throws(GoldenReplayError) {
    let path = TestFileRelativePath.resolve(path, calledFrom: filePath)
    let mode = try resolvedMode(record)
    let ignored = try patterns(ignoring)
    let identity = try identityKeys(identity)
    guard FileManager.default.fileExists(atPath: path) else {
        guard mode != .never else {
            throw GoldenReplayError(
                "no golden session at \(path), and record mode 'never' may not record one (CI is set, or REPLAY_RECORD=never); "
                    + "record it locally and commit it")
        }
        try writeSession(
            try recordSession(storeID: storeID, initialState: initialState, reducer: reducer, actions: actions),
            to: path)
        throw GoldenReplayError(
            "recorded golden \(path) (\(actions.count) actions, record mode '\(mode.rawValue)'); review it and run again")
    }
    let engine = ReplayEngine(
        stores: [ReplayableStore(id: storeID, reducer: reducer)],
        options: ReplayEngine.Options(ignoring: ignored, identity: identity))
    let golden: Session
    do {
        golden = try Session(contentsOf: path)
    } catch {
        throw GoldenReplayError("golden session \(error)")
    }
    let fresh = try recordSession(storeID: storeID, initialState: initialState, reducer: reducer, actions: actions)
    let sameScript = golden.actions.count == fresh.actions.count
        && zip(golden.actions, fresh.actions).allSatisfy { sameIgnoring(ignored, $0.action, $1.action) }
        && sameIgnoring(ignored, golden.header.initialState, fresh.header.initialState)
    let report = engine.replay(golden)
    if mode == .all || (mode == .failed && !(sameScript && report.isMatch)) {
        if sameScript {
            try writeRerecorded(golden, engine: engine, to: path)
        } else {
            try writeSession(rescripted(golden, by: fresh), to: path)
        }
        throw GoldenReplayError(
            "re-recorded golden \(path) (\(actions.count) actions, record mode '\(mode.rawValue)'); review the change and run again")
    }
    if sameScript && report.isMatch { return }
    let kept = GoldenArtifacts.keep(
        golden: path, in: artifacts ?? GoldenArtifacts.directory(forTestFile: "\(filePath)"), recorded: golden,
        report: report, replayed: { sameScript ? try engine.rerecord(golden, migrating: true) : rescripted(golden, by: fresh) })
    guard sameScript else {
        throw GoldenReplayError(scriptDifference(golden: golden, fresh: fresh, path: path) + "\n" + kept)
    }
    throw GoldenReplayError(report.explanation(source: path) + "\n" + identityWarnings(identity, report) + kept)
}

/// The patterns parsed.
/// - Throws: ``GoldenReplayError`` naming the pattern that does not parse, and where.
private func patterns(_ texts: [String]) throws(GoldenReplayError) -> [JSONPathPattern] {
    var patterns: [JSONPathPattern] = []
    for text in texts {
        do {
            patterns.append(try JSONPathPattern(text))
        } catch {
            throw GoldenReplayError("ignoring: \(error)")
        }
    }
    return patterns
}

/// The identity keys of `mapping`, from path patterns to member names, in the patterns' order.
/// - Throws: ``GoldenReplayError`` naming the pattern that does not parse, or the member that is empty.
private func identityKeys(_ mapping: [String: String]) throws(GoldenReplayError) -> [IdentityKey] {
    do {
        return try [IdentityKey](jsonValue: .object(mapping.mapValues { .string($0) }))
    } catch {
        throw GoldenReplayError("identity: \(error)")
    }
}

/// The warning lines about the keys of `identity` that name no array in the states `report`'s divergences compared.
private func identityWarnings(_ identity: [IdentityKey], _ report: ReplayReport) -> String {
    identity.warnings(comparedIn: [report], source: "identity").map { $0 + "\n" }.joined()
}

/// Whether `fresh` equals `golden` once it takes golden's values at the places `ignoring` names.
private func sameIgnoring(_ ignoring: [JSONPathPattern], _ golden: JSONValue, _ fresh: JSONValue) -> Bool {
    ignoring.isEmpty ? golden == fresh : golden == ignoring.overlay(from: golden, onto: fresh).value
}

/// The record mode given, else the one the environment chooses.
private func resolvedMode(_ record: GoldenRecordMode?) throws(GoldenReplayError) -> GoldenRecordMode {
    if let record { return record }
    return try GoldenRecordMode.fromEnvironment()
}

/// Runs `actions` through `reducer` and returns the session a recorder would have written.
private func recordSession<State: Codable & Equatable & Sendable, Action: Codable & Sendable>(
    storeID: String, initialState: State, reducer: Reducer<State, Action>, actions: [Action]
) throws(GoldenReplayError) -> Session {
    let transport = MemoryTransport()
    let store = Store(initialState: initialState, reducer: reducer)
    let recorder = store.startRecording(
        .init(storeID: storeID, app: AppInfo(name: "golden"), sessionID: "golden-\(storeID)"), to: transport)
    for action in actions { store.dispatch(action) }
    // In memory nothing can hold the flush up for long; the timeout only makes a stuck one an error, not a hang.
    let statistics = recorder.finish(timeout: .seconds(600))
    guard statistics.isFinished else {
        throw GoldenReplayError("could not record the golden: the recorder did not finish within 600 seconds")
    }
    guard statistics.dropped == 0 else {
        throw GoldenReplayError("could not record the golden: \(statistics.lastError ?? "actions were dropped")")
    }
    do {
        return try transport.session()
    } catch {
        throw GoldenReplayError("could not read back the recorded golden: \(error)")
    }
}

private func scriptDifference(golden: Session, fresh: Session, path: String) -> String {
    if golden.header.initialState != fresh.header.initialState {
        return "\(path): the initial state differs from the golden's\n"
            + (diff(golden.header.initialState, fresh.header.initialState) ?? "")
    }
    let old = golden.actions
    let new = fresh.actions
    let firstDifferent = zip(old, new).enumerated().first { $0.element.0.action != $0.element.1.action }?.offset
        ?? min(old.count, new.count)
    let recorded = firstDifferent < old.count ? old[firstDifferent].action.canonicalString : "(no action)"
    let scripted = firstDifferent < new.count ? new[firstDifferent].action.canonicalString : "(no action)"
    return "\(path): the test's actions differ from the golden's at step \(firstDifferent + 1)\n"
        + "  - golden  \(recorded)\n  + test    \(scripted)\n"
        + "(re-record with REPLAY_RECORD=failed if the new script is intended)"
}

private func writeRerecorded(_ session: Session, engine: ReplayEngine, to path: String) throws(GoldenReplayError) {
    do {
        // Re-recording is what the record mode asked for: a golden of an older schema version is written migrated.
        try writeSession(try engine.rerecord(session, migrating: true), to: path)
    } catch let error as GoldenReplayError {
        throw error
    } catch {
        throw GoldenReplayError("cannot re-record \(path): \(error)")
    }
}

/// The golden rewritten for a new script: `fresh`'s initial state and events under `golden`'s header (its session
/// id, start time, pid and the rest), and `golden`'s snapshot layout where it has a line: a step that held a patch
/// holds one again (against the new previous state), a step that held a full state holds one.
private func rescripted(_ golden: Session, by fresh: Session) -> Session {
    var header = golden.header
    header.initialState = fresh.header.initialState
    let patchedSteps = Set(golden.actions.filter { $0.patch != nil }.map(\.sequence))
    var previous: JSONValue? = header.initialState
    let events = fresh.events.map { event -> SessionEvent in
        guard case .action(var action) = event else {
            if case .gap = event { previous = nil }
            return event
        }
        action.patch = patchedSteps.contains(action.sequence) ? previous.map { JSONPatch(from: $0, to: action.state) } : nil
        previous = action.state
        return .action(action)
    }
    return Session(header: header, events: events)
}

/// Writes `session` to `path` at once (a rename), keeping the mode of the file it replaces.
private func writeSession(_ session: Session, to path: String) throws(GoldenReplayError) {
    let url = URL(fileURLWithPath: path)
    let temporary = "\(path).recording-\(getpid())"
    do {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let mode = FileManager.default.fileExists(atPath: path)
            ? try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int : nil
        try Data(session.ndjson).write(to: URL(fileURLWithPath: temporary))
        if let mode { try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: temporary) }
        guard rename(temporary, path) == 0 else {
            throw GoldenReplayError("cannot write the golden \(path): rename: \(String(cString: strerror(errno)))")
        }
    } catch let error as GoldenReplayError {
        try? FileManager.default.removeItem(atPath: temporary)
        throw error
    } catch {
        try? FileManager.default.removeItem(atPath: temporary)
        throw GoldenReplayError("cannot write the golden \(path): \(error)")
    }
}
