import Foundation
import StoreKitCore
import StoreKitJSON
import Testing

@testable import ReplayCommands

/// The lifted state `export --format redux-devtools` writes: each member of the shape Redux DevTools imports
/// (`@redux-devtools/instrument`'s `LiftedState`), and the states read back from the written text.
@Suite struct ReduxDevToolsLiftedStateTests {
    /// A session of two actions, a gap of steps 3-4, and a fifth action; started at 2026-11-22T23:19:33.503Z.
    private let session = Session(
        header: SessionHeader(
            sessionID: "s", storeID: "counter", app: AppInfo(name: "App"), startedAt: "2026-11-22T23:19:33.503Z", host: "h",
            pid: 1, initialState: .object(["count": .integer(0)])),
        events: [
            .action(
                ActionEvent(
                    sequence: 1, time: 0.25, name: "increment", action: .object(["increment": .object([:])]), origin: .app,
                    state: .object(["count": .integer(1)]))),
            .action(
                ActionEvent(
                    sequence: 2, time: 1.5, name: "set", action: .object(["type": .string("mine")]), origin: .effect(cause: 1),
                    state: .object(["count": .integer(7)]))),
            .gap(GapEvent(firstSequence: 3, lastSequence: 4, reason: .bufferFull)),
            .action(
                ActionEvent(
                    sequence: 5, time: 2, name: "reset", action: .string("reset"), origin: .app,
                    state: .object(["count": .integer(0)]))),
        ])

    /// The written text read back.
    private var written: JSONValue {
        get throws { try JSONParser().parse(Array(ReduxDevToolsLiftedState(session).jsonValue.canonicalString.utf8)) }
    }

    @Test func holdsEveryMemberOfDevToolsLiftedStateAndNothingElse() throws {
        let lifted = try written
        #expect(
            lifted.objectValue?.keys.sorted() == [
                "actionsById", "committedState", "computedStates", "currentStateIndex", "isLocked", "isPaused", "monitorState",
                "nextActionId", "skippedActionIds", "stagedActionIds",
            ])
        #expect(lifted["stagedActionIds"] == .array((0...4).map { .integer($0) }))
        #expect(lifted["skippedActionIds"] == .array([]))
        #expect(lifted["currentStateIndex"] == .integer(4))
        #expect(lifted["nextActionId"] == .integer(5))
        #expect(lifted["committedState"] == .object(["count": .integer(0)]))
        #expect(lifted["monitorState"] == .object([:]))
        #expect(lifted["isLocked"] == .bool(false))
        #expect(lifted["isPaused"] == .bool(false))
    }

    @Test func eachActionIsAPerformActionWithItsNameAsTypeAndItsJSONBesideIt() throws {
        let start: Int64 = 1_795_389_573_503
        let actions = try #require(try written["actionsById"])
        #expect(actions.objectValue?.keys.sorted() == ["0", "1", "2", "3", "4"])
        #expect(
            actions["0"]
                == .object(["type": .string("PERFORM_ACTION"), "action": .object(["type": .string("@@INIT")]), "timestamp": .integer(start)]))
        #expect(
            actions["1"]
                == .object([
                    "type": .string("PERFORM_ACTION"), "action": .object(["type": .string("increment"), "increment": .object([:])]),
                    "timestamp": .integer(start + 250),
                ]))
        // An action with a `type` of its own, and one that is not an object, keep their JSON under `payload`.
        #expect(
            actions["2"]?["action"] == .object(["type": .string("set"), "payload": .object(["type": .string("mine")])]))
        #expect(actions["4"]?["action"] == .object(["type": .string("reset"), "payload": .string("reset")]))
        #expect(actions["4"]?["timestamp"] == .integer(start + 2000))
    }

    @Test func aGapIsAGapEntryNamingTheLostStepsWithTheStateUnchanged() throws {
        let lifted = try written
        #expect(
            lifted["actionsById"]?["3"]
                == .object([
                    "type": .string("PERFORM_ACTION"),
                    "action": .object([
                        "type": .string("@@GAP"), "firstStep": .integer(3), "lastStep": .integer(4), "lost": .integer(2),
                        "reason": .string("bufferFull"),
                    ]),
                    "timestamp": .integer(1_795_389_573_503 + 1500),
                ]))
        #expect(lifted["computedStates"]?.arrayValue?[3] == .object(["state": .object(["count": .integer(7)])]))
    }

    @Test func aGapThatKeptItsActionsSaysSoAndHoldsThemWithTheStateUnchanged() throws {
        // Given a session whose steps 2-3 are in a gap that kept their actions without their states
        let kept = Session(
            header: session.header,
            events: [
                session.events[0],
                .gap(
                    GapEvent(
                        firstSequence: 2, lastSequence: 3, reason: .bufferFull,
                        actions: (2...3).map { step in
                            ActionEvent(
                                sequence: step, time: 1, name: "increment", action: .object(["increment": .object([:])]),
                                origin: .app, state: .null)
                        })),
            ])

        // When it is exported
        let lifted = try JSONParser().parse(Array(ReduxDevToolsLiftedState(kept).jsonValue.canonicalString.utf8))

        // Then the gap's entry counts the steps as kept, not lost, holds their actions, and leaves the state as it was
        #expect(
            lifted["actionsById"]?["2"]?["action"]
                == .object([
                    "type": .string("@@GAP"), "firstStep": .integer(2), "lastStep": .integer(3), "kept": .integer(2),
                    "reason": .string("bufferFull"),
                    "actions": .array(Array(repeating: .object(["type": .string("increment"), "increment": .object([:])]), count: 2)),
                ]))
        #expect(lifted["computedStates"]?.arrayValue?[2] == .object(["state": .object(["count": .integer(1)])]))
    }

    @Test func eachComputedStateIsTheRecordedStateAfterItsStep() throws {
        // Given the entries' steps (0 the initial state, nil the gap)
        let lifted = ReduxDevToolsLiftedState(session)
        #expect(lifted.entries.map(\.step) == [0, 1, 2, nil, 5])
        // Then each computed state read back is the state after that step
        let computed = try #require(try written["computedStates"]?.arrayValue)
        var expected: [Int: JSONValue] = [0: session.header.initialState]
        for action in session.actions { expected[action.sequence] = action.state }
        for (index, step) in lifted.entries.map(\.step).enumerated() {
            guard let step else { continue }
            #expect(computed[index] == .object(["state": try #require(expected[step])]), "computedStates[\(index)] is not step \(step)")
        }
    }

    @Test(arguments: ["counter-basic", "todos-delta", "rehearsals-journey", "scoreboard-match"])
    func everySampleSessionRoundTripsItsStatesIncludingPatchedOnes(_ name: String) throws {
        // Given a sample session read as every command reads it (patches applied)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let recorded = try Session(contentsOf: root.appendingPathComponent("samples/sessions/\(name).jsonl").path)
        // When it is written as a lifted state and read back
        let text = ReduxDevToolsLiftedState(recorded).jsonValue.canonicalString
        let computed = try #require(try JSONParser().parse(Array(text.utf8))["computedStates"]?.arrayValue)
        // Then computedStates[i] is the state after step i (no sample has a gap)
        #expect(computed.count == recorded.actions.count + 1)
        #expect(computed.first == .object(["state": recorded.header.initialState]))
        for action in recorded.actions {
            #expect(computed[action.sequence] == .object(["state": action.state]), "step \(action.sequence) of \(name)")
        }
    }
}
