import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import StoreKitTestFixtures
import Testing

/// Format 2: `call` and `effectEnd` lines, an effect's action naming its effect, and the header's `effects`, through
/// the event codec, the file reader, the verifier, trimming and the index.
@Suite struct SessionFormatTwoTests {
    private static let run = formatTwoLines
    private static let expectedEvents: [SessionEvent] = [
        .action(
            ActionEvent(
                sequence: 1, time: 0.1, name: "add", action: .object(["add": .object(["_0": .integer(1)])]), origin: .app,
                state: tallyState([1]))),
        .call(
            EffectCallEvent(
                cause: 1, effect: "post score", index: 0, name: "$clock.now", time: 0.11, result: .value(.integer(100_000_000)))),
        .call(
            EffectCallEvent(
                cause: 1, effect: "post score", index: 1, name: "$clock.sleep", time: 0.12,
                input: .object(["for": .integer(5_000_000)]), result: .value(.null))),
        .call(
            EffectCallEvent(
                cause: 1, effect: "post score", index: 2, name: "score.post", time: 0.13,
                input: .object(["score": .integer(1)]), result: .value(.integer(7)))),
        .action(
            ActionEvent(
                sequence: 2, time: 0.14, name: "add", action: .object(["add": .object(["_0": .integer(7)])]),
                origin: .effect(cause: 1), state: tallyState([1, 7]), effect: "post score")),
        .effectEnd(EffectEndEvent(cause: 1, effect: "post score", outcome: .finished, calls: 3, sent: 1, time: 0.15)),
        .end(EndEvent(reason: .finished, actions: 2, dropped: 0, time: 0.2)),
    ]

    private static func tallyState(_ items: [Int]) -> JSONValue {
        .object([
            "items": .array(items.map { .integer(Int64($0)) }), "labels": .array([]), "ratio": .double(1.0),
            "total": .integer(Int64(items.reduce(0, +))),
        ])
    }

    @Test func everyLineRoundTripsThroughTheEventCodecByteForByte() throws {
        for line in Self.run {
            // Given a format 2 line, when it is decoded and encoded again
            let event = try SessionEvent(jsonValue: JSONValue(parsing: Array(line.utf8)))

            // Then the bytes are the recorder's, to the last one
            #expect(event.line == Array((line + "\n").utf8), "\(line)")
        }
    }

    @Test func theFileReaderReadsEveryLineIntoItsEvent() throws {
        // Given a format 2 session in a file
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write("two.jsonl", Self.run.map { $0 + "\n" }.joined())

        // When it is read
        let session = try Session(contentsOf: path)

        // Then the header says format 2 and names the effect, and each line is its event, in order
        #expect(session.header.formatVersion == 2)
        #expect(session.header.effects == ["post score"])
        #expect(session.events == Self.expectedEvents)
        #expect(session.ndjson == Array(Self.run.map { $0 + "\n" }.joined().utf8))
    }

    @Test func aSessionWithoutReplayableEffectsStaysFormatOneByteForByte() throws {
        // Given a recorded tally session (its store has no replayable effect)
        let session = try recordTally([.add(1), .clear])

        // Then its header says format 1 and names no effects, so format 1 readers read it as before
        #expect(session.header.formatVersion == 1)
        let header = try #require(session.ndjson.split(separator: 0x0A).first)
        let members = try JSONValue(parsing: Array(header)).objectValue ?? [:]
        #expect(members["format"] == .integer(1))
        #expect(members["effects"] == nil)
    }

    struct Refusal: CustomTestStringConvertible, Sendable {
        let name: String
        let lines: [String]
        let line: Int
        let reason: String
        var testDescription: String { name }
    }

    static let call0 = Self.run[2]
    static let refusals: [Refusal] = [
        Refusal(
            name: "a call line in a format 1 session",
            lines: [headerLine, tallyAction(1), call0], line: 3,
            reason: "field 'kind' is 'call', which needs format 2; this session is format 1"),
        Refusal(
            name: "an effectEnd line in a format 1 session",
            lines: [headerLine, tallyAction(1), Self.run[6].replacingOccurrences(of: #""calls":3"#, with: #""calls":0"#)],
            line: 3, reason: "field 'kind' is 'effectEnd', which needs format 2; this session is format 1"),
        Refusal(
            name: "an unknown built-in name",
            lines: [Self.run[0], Self.run[1], call0.replacingOccurrences(of: "$clock.now", with: "$clock.later")], line: 3,
            reason: "field 'name' is '$clock.later'; names starting with '$' are built in: '$clock.now', '$clock.sleep', '$uuid', '$random', '$state'"),
        Refusal(
            name: "an empty effect name",
            lines: [Self.run[0], Self.run[1], call0.replacingOccurrences(of: #""effect":"post score""#, with: #""effect":"""#)],
            line: 3, reason: "field 'effect' is empty (an effect has a name)"),
        Refusal(
            name: "a result with two members",
            lines: [Self.run[0], Self.run[1], call0.replacingOccurrences(of: #"{"value":100000000}"#, with: #"{"cancelled":true,"value":1}"#)],
            line: 3, reason: "field 'result' has 2 members; expected one of 'value', 'error' or 'cancelled'"),
        Refusal(
            name: "a cancelled result that is not true",
            lines: [Self.run[0], Self.run[1], call0.replacingOccurrences(of: #"{"value":100000000}"#, with: #"{"cancelled":1}"#)],
            line: 3, reason: "field 'result.cancelled' is number; expected true"),
        Refusal(
            name: "an error result without its message",
            lines: [Self.run[0], Self.run[1], call0.replacingOccurrences(of: #"{"value":100000000}"#, with: #"{"error":{"type":"URLError"}}"#)],
            line: 3, reason: "field 'result.error.message' is missing (expected a string)"),
        Refusal(
            name: "a cause above what is covered",
            lines: [Self.run[0], Self.run[1], call0.replacingOccurrences(of: #""cause":1"#, with: #""cause":2"#)], line: 3,
            reason: "field 'cause' is 2, not an action yet: the lines before it cover sequence numbers up to 1"),
        Refusal(
            name: "an index that skips",
            lines: [Self.run[0], Self.run[1], call0, Self.run[4]], line: 4,
            reason: "field 'index' is 2, out of order: the run's next call is 1"),
        Refusal(
            name: "an index that repeats (a duplicated line)",
            lines: [Self.run[0], Self.run[1], call0, call0], line: 4,
            reason: "field 'index' is 0, out of order: the run's next call is 1"),
        Refusal(
            name: "an effectEnd whose calls disagree",
            lines: [Self.run[0], Self.run[1], call0, Self.run[3], Self.run[6]], line: 5,
            reason: "field 'calls' is 3, but the session holds 2 calls for the run"),
        Refusal(
            name: "an effect on an app action",
            lines: [Self.run[0], appActionNamingEffect],
            line: 2, reason: "field 'effect' names an effect on an action with origin 'app'; only an action an effect sent names one"),
        Refusal(
            name: "an effect on an action of a format 1 session",
            lines: [headerLine, effectActionNamingEffect], line: 2,
            reason: "field 'effect' is the effect that sent the action, which needs format 2; this session is format 1"),
    ]

    @Test(arguments: refusals)
    func theReaderRefusesALineThatBreaksARuleWithItsFileLineAndPath(_ refusal: Refusal) throws {
        // Given a session that breaks one rule of format 2, in a file
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write("bad.jsonl", refusal.lines.map { $0 + "\n" }.joined())

        // When it is read, then the error names the file, the line and the field
        let error = #expect(throws: SessionReadError.self) { _ = try Session(contentsOf: path) }
        #expect(error?.description == "\(path):\(refusal.line): \(refusal.reason)")

        // And verify lists the same error at the same line
        let result = SessionVerifier.verify(path: path)
        #expect(result.problems.first { !$0.isWarning } == .init(line: refusal.line, message: refusal.reason, isWarning: false))
    }

    @Test func aGapExcusesAnIndexSkipAndTheCallsItsRunsEndCount() throws {
        // Given a run whose calls 1 and 2 were lost with the gap of actions 2-3
        let lines = [
            Self.run[0], Self.run[1], Self.run[2],
            #"{"count":2,"from":2,"kind":"gap","reason":"bufferFull","to":3}"#,
            formatTwoAction(4, adding: 2, to: [1, 5], time: "0.3"),
            Self.run[4].replacingOccurrences(of: #""index":2"#, with: #""index":3"#),
            Self.run[6].replacingOccurrences(of: #""calls":3"#, with: #""calls":4"#),
        ]

        // When it is read and verified, then it reads to the end with no problem
        let bytes = Array(lines.map { $0 + "\n" }.joined().utf8)
        let session = try Session(ndjson: bytes, source: "gap.jsonl")
        #expect(session.events.count == 6)
        #expect(SessionVerifier.verify(bytes: bytes, source: "gap.jsonl").problems.filter { !$0.isWarning } == [])
    }

    @Test func verifyPassesAFormatTwoSessionWithNoWarningAndCountsItsActions() {
        // Given the format 2 session, when it is verified
        let result = SessionVerifier.verify(bytes: Array(Self.run.map { $0 + "\n" }.joined().utf8), source: "two.jsonl")

        // Then nothing is wrong, the schema included, and its two actions are counted (not its effect lines)
        #expect(result.problems == [])
        #expect(result.actions == 2)
        #expect(result.lines == Self.run.count)
    }

    @Test func trimmingKeepsTheLinesOfARunWhoseCauseItKeepsRenumbered() throws {
        // Given a format 2 session of three steps: step 1's run makes three calls and sends step 2, then step 3
        let lines = Array(Self.run.dropLast()) + [formatTwoAction(3, adding: 2, to: [1, 7], time: "0.3")]
        let session = try Session(ndjson: Array(lines.map { $0 + "\n" }.joined().utf8))

        // When steps 2-3 are kept, the run's lines are dropped with their cause, and its action keeps its effect
        let later = try session.trimmed(to: 2...3)
        #expect(later.events.filter { if case .call = $0 { true } else { false } }.isEmpty)
        #expect(later.events.filter { if case .effectEnd = $0 { true } else { false } }.isEmpty)
        #expect(later.actions.map(\.origin) == [.effect(cause: nil), .app])
        #expect(later.actions.first?.effect == "post score")

        // When steps 1-3 are kept, the run's lines stay where they were, and the result reads back as it is
        let all = try session.trimmed(to: 1...3)
        #expect(Array(all.events.prefix(6)) == Array(Self.expectedEvents.prefix(6)))
        let readBack = try Session(ndjson: all.ndjson, source: "trimmed")
        #expect(readBack.events == all.events)
        guard case .end(let end)? = all.events.last else {
            Issue.record("no end line")
            return
        }
        #expect(end.actions == 3)
    }

    @Test func trimmingRenumbersARunsCauseAsItRenumbersTheActions() throws {
        // Given a session whose step 2 starts a run, which calls once and sends step 3
        let lines = [
            Self.run[0], Self.run[1], formatTwoAction(2, adding: 2, to: [1], time: "0.2"),
            Self.run[2].replacingOccurrences(of: #""cause":1"#, with: #""cause":2"#),
            formatTwoAction(3, adding: 7, to: [1, 2], time: "0.3", effect: 2),
            Self.run[6].replacingOccurrences(of: #""cause":1"#, with: #""cause":2"#)
                .replacingOccurrences(of: #""calls":3"#, with: #""calls":1"#),
        ]
        let session = try Session(ndjson: Array(lines.map { $0 + "\n" }.joined().utf8))

        // When steps 2-3 are kept
        let trimmed = try session.trimmed(to: 2...3)

        // Then the run's cause is 1, as its action is, and its action's cause too
        let causes = trimmed.events.compactMap { event -> Int? in
            switch event {
            case .call(let call): call.cause
            case .effectEnd(let end): end.cause
            case .action(let action): if case .effect(let cause) = action.origin { cause } else { nil }
            default: nil
            }
        }
        #expect(causes == [1, 1, 1])
        _ = try Session(ndjson: trimmed.ndjson, source: "trimmed")
    }

    @Test func theIndexCountsTheActionsOfAFormatTwoSessionNotItsEffectLines() throws {
        // Given a format 2 session in a file
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write("two.jsonl", Self.run.map { $0 + "\n" }.joined())

        // When it is summarized
        let entry = SessionIndex.summarize(path, bytes: 0, modifiedMilliseconds: 0)

        // Then it reads to the end with its two actions
        #expect(entry.damage == "")
        #expect(entry.status == "finished")
        #expect(entry.actions == 2)
        #expect(entry.actionNames == ["add": 2])
    }
}
