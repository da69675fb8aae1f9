import StoreKitCore
import Testing

@testable import ReplayDaemon

/// replayd's line check takes a plain action line on its fast path (its state left as bytes), reading its fields
/// right, and leaves any line whose fields it does not recognize exactly to the full check.
@Suite struct SessionLineValidatorFastPathTests {
    /// An app's action line with every field a recorder writes.
    private static let appAction =
        #"{"action":{"add":{"_0":1}},"kind":"action","name":"add","origin":"app","seq":12,"state":{"total":1},"time":0.25}"#

    /// Checks `line` as replayd does.
    private func check(_ line: String) -> Result<SessionLineValidator.Checked, SessionLineValidator.Rejection> {
        var validator = SessionLineValidator()
        return Array(line.utf8).withUnsafeBufferPointer { validator.check($0) }
    }

    @Test func anAppsActionLineTakesTheFastPathWithItsFields() {
        guard case .success(.action(let action)) = check(Self.appAction), case .stateBytes(let state) = action.snapshot
        else {
            Issue.record("not taken by the fast path: \(check(Self.appAction))")
            return
        }
        #expect(action.sequence == 12)
        #expect(action.time == 0.25)
        #expect(action.isFromApp)
        #expect(!action.namesEffect)
        #expect(String(decoding: state, as: UTF8.self) == #"{"total":1}"#)
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
        if case .success(.action(let action)) = check(line), case .stateBytes = action.snapshot {
            Issue.record("taken by the fast path: \(line)")
        }
    }
}
