import StoreKitCore
import Testing

@testable import ReplayDaemon

/// replayd's line check takes a plain action line on its fast path (its state left as bytes), reading its fields
/// right, and leaves any line whose fields it does not recognize exactly to the full check.
@Suite struct SessionLineValidatorFastPathTests {
    /// An app's action line with every field a recorder writes.
    private static let appAction =
        #"{"action":{"add":{"_0":1}},"kind":"action","name":"add","origin":"app","seq":12,"state":{"total":1},"time":0.25}"#

    /// Checks `line` as replayd does, and hands what it found to `read` while the line's bytes are still there: what
    /// the fast path finds (the state, the time) points into them.
    private func check<Found>(
        _ line: String, _ read: (Result<SessionLineValidator.Checked, SessionLineValidator.Rejection>) -> Found
    ) -> Found {
        var validator = SessionLineValidator()
        return Array(line.utf8).withUnsafeBufferPointer { read(validator.check($0)) }
    }

    @Test func anAppsActionLineTakesTheFastPathWithItsFields() {
        check(Self.appAction) { checked in
            guard case .success(.action(let action)) = checked, case .stateBytes(let state) = action.snapshot else {
                Issue.record("not taken by the fast path: \(checked)")
                return
            }
            #expect(action.sequence == 12)
            #expect(action.time.seconds == 0.25)
            #expect(action.isFromApp)
            #expect(!action.namesEffect)
            #expect(String(decoding: state, as: UTF8.self) == #"{"total":1}"#)
        }
    }

    @Test(arguments: [
        // A kind or origin one byte longer or shorter, or with a byte changed, is not the one the fast path takes.
        (#""kind":"action""#, #""kind":"actions""#), (#""kind":"action""#, #""kind":"actio""#),
        (#""origin":"app""#, #""origin":"apq""#), (#""origin":"app""#, #""origin":"ap""#),
        (#""origin":"app""#, #""origin":"effects""#),
        // A key that is one of the fast path's with a byte added stays an unknown key, so a required one is missing.
        (#""seq":12"#, #""seqq":12"#), (#""state""#, #""states""#),
    ])
    func aLineWhoseFieldsDifferByAByteIsLeftToTheFullCheck(original: String, changed: String) {
        let line = Self.appAction.replacingOccurrences(of: original, with: changed)
        #expect(line != Self.appAction)
        check(line) { checked in
            if case .success(.action(let action)) = checked, case .stateBytes = action.snapshot {
                Issue.record("taken by the fast path: \(line)")
            }
        }
    }

    /// What a check found, in words: an action's fields as the fast path read them, or else the kind of line, or the
    /// rejection.
    private func summary(_ result: Result<SessionLineValidator.Checked, SessionLineValidator.Rejection>) -> String {
        switch result {
        case .failure(let rejection): return "rejected: \(rejection.reason)"
        case .success(.action(let action)):
            guard case .stateBytes(let state) = action.snapshot else { return "action \(action.sequence), parsed" }
            return "action \(action.sequence) at \(action.time.seconds), app \(action.isFromApp), names effect "
                + "\(action.namesEffect), state \(String(decoding: state, as: UTF8.self))"
        case .success(let other): return "\(other)"
        }
    }

    /// Lines that each differ from the one before only in values, the way a client's lines follow each other.
    private static let chain = [
        appAction,
        #"{"action":{"add":{"_0":1}},"kind":"action","name":"add","origin":"app","seq":13,"state":{"total":2},"time":0.5}"#,
        #"{"action":{"add":{"_0":1}},"kind":"action","name":"add","origin":"effect","seq":14,"state":{"total":3},"time":0.5}"#,
        #"{"action":{"add":{"_0":1}},"kind":"action","name":"add","origin":"app","seq":15,"state":{"total":3},"time":0.5}"#,
        #"{"action":{"add":{"_0":1}},"kind":"action","name":"add","origin":"app","seq":"16","state":{"total":3},"time":0.5}"#,
        #"{"action":{"add":{"_0":1}},"kind":"action","name":"add","origin":"app","seq":16,"state":{"total":3},"time":0.5}"#,
        #"{"action":{"add":{"_0":1}},"kind":"action","name":"add","origin":"app","seq":17,"state":{"total":3},"time":"x"}"#,
        #"{"action":{"add":{"_0":1}},"kind":"action","name":"add","origin":"app","seq":17,"state":{"total":3},"time":1e2}"#,
        #"{"action":{"add":{"_0":1}},"kind":"effect","name":"add","origin":"app","seq":18,"state":{"total":3},"time":1e2}"#,
        #"{"action":{"add":{"_0":1}},"kind":"action","name":"add","origin":"app","seq":18,"state":{"total":3},"time":1e2}"#,
        #"{"action":{"add":{"_0":1}},"kind":"action","name":5,"origin":"app","seq":19,"state":{"total":3},"time":1e2}"#,
        #"{"action":{"add":{"_0":1}},"kind":"action","name":"add","origin":"app","seq":0,"state":{"total":3},"time":1e2}"#,
        #"{"action":{"add":{"_0":1}},"kind":"action","name":"add","origin":"app","seq":20,"state":{"total":4},"time":2}"#,
        #"{"action":{"add":{"_0":1}},"kind":"action","name":"add","origin":"app","seq":21,"state":{"total":4},"time":2}"#,
        #"{"action":{"load":{}},"cause":3,"effect":"load","kind":"action","name":"loaded","origin":"effect","seq":5,"state":{},"time":1}"#,
        #"{"action":{"load":{}},"cause":4,"effect":"load","kind":"action","name":"loaded","origin":"effect","seq":6,"state":{},"time":1}"#,
        #"{"action":{"load":{}},"cause":-4,"effect":"load","kind":"action","name":"loaded","origin":"effect","seq":7,"state":{},"time":1}"#,
        #"{"action":{"load":{}},"cause":4,"effect":"load","kind":"action","name":"loaded","origin":"effect","seq":7,"state":{},"time":1}"#,
        #"{"action":{"load":{}},"cause":4,"effect":7,"kind":"action","name":"loaded","origin":"effect","seq":8,"state":{},"time":1}"#,
        #"{"action":{"load":{}},"cause":4,"effect":"load","kind":"action","name":"loaded","origin":"app","seq":8,"state":{},"time":1}"#,
    ]

    @Test func aLineThatDiffersFromTheOneBeforeInValuesOnlyReadsAsItDoesAlone() {
        // Given a validator with the memory of the stream's lines, and one without
        var streaming = SessionLineValidator()
        let memory = SessionLineValidator.StreamMemory()
        var readAlone: [String] = []
        var readInTurn: [String] = []
        for line in Self.chain {
            // When each line is checked in turn with the memory, and alone
            readInTurn.append(Array(line.utf8).withUnsafeBufferPointer { summary(streaming.check($0, memory: memory)) })
            readAlone.append(check(line, summary))
        }

        // Then each reads the same both ways, and the lines the chain meant to be taken are
        #expect(readInTurn == readAlone)
        #expect(readAlone[3] == #"action 15 at 0.5, app true, names effect false, state {"total":3}"#)
        #expect(readAlone[2].hasPrefix("action 14 at 0.5, app false"))
        #expect(readAlone[13].hasPrefix("action 21 at 2.0"))
    }
}

