import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import Testing

@Suite struct StateDiffCaseChangeTests {
    /// A rehearsal's phase as `Codable` writes it, before and after a change of case.
    private static let ready = try! JSONValue(parsing: #"{"rehearsal":{"phase":{"ready":{}},"title":"Scales"}}"#)
    private static let countingIn = try! JSONValue(parsing: #"{"rehearsal":{"phase":{"countingIn":{"beatsLeft":4}},"title":"Scales"}}"#)

    @Test func anEnumThatChangesCaseIsOneChangeReadAsSwiftWritesIt() throws {
        // When the phase goes from .ready to .countingIn(beatsLeft: 4)
        let diff = StateDiff(from: Self.ready, to: Self.countingIn)

        // Then it is one change at the enum's path, not a case removed and another added
        #expect(diff.changes == [
            StateDiff.Change(
                path: JSONPath([.key("rehearsal"), .key("phase")]),
                kind: .changed(from: try JSONValue(parsing: #"{"ready":{}}"#), to: try JSONValue(parsing: #"{"countingIn":{"beatsLeft":4}}"#)))
        ])
        #expect(diff.summary == "1 difference: rehearsal.phase  .ready -> .countingIn(beatsLeft: 4)")

        // And the dump shows the one value for the other
        #expect(
            diff.rendered() == """
                  {
                    "rehearsal": {
                -     "phase": {
                -       "ready": {}
                -     },
                +     "phase": {
                +       "countingIn": {
                +         "beatsLeft": 4
                +       }
                +     },
                      "title": "Scales"
                    }
                  }
                """)

        // And the JSON keeps the values, with their Swift text beside them
        let change = try #require(diff.jsonValue.arrayValue?.first)
        #expect(change["kind"] == .string("changed"))
        #expect(change["oldReadable"] == .string(".ready"))
        #expect(change["newReadable"] == .string(".countingIn(beatsLeft: 4)"))
    }

    @Test func anEnumCaseThatIsAddedOrRemovedReadsAsSwiftWritesIt() throws {
        // Given an optional phase that is set to .ready, then to nil
        let none = try JSONValue(parsing: #"{"title":"Scales"}"#)
        let ready = try JSONValue(parsing: #"{"phase":{"ready":{}},"title":"Scales"}"#)
        let failed = try JSONValue(parsing: #"{"phase":{"failed":{"_0":"offline"}},"title":"Scales"}"#)

        // Then the case reads as Swift writes it, on either side
        #expect(StateDiff(from: none, to: ready).summary == "1 difference: phase  (absent) -> .ready")
        #expect(StateDiff(from: failed, to: none).summary == #"1 difference: phase  .failed("offline") -> (absent)"#)
        let change = try #require(StateDiff(from: none, to: ready).jsonValue.arrayValue?.first)
        #expect(change["newReadable"] == .string(".ready"))
    }

    @Test func anAddedObjectThatAStructCouldBeStaysJSON() throws {
        // `{"volume":3}` under one key could be a struct's field as well as a case's payload
        let none = try JSONValue(parsing: #"{"title":"Scales"}"#)
        let set = try JSONValue(parsing: #"{"settings":{"mix":{"volume":3}},"title":"Scales"}"#)
        #expect(StateDiff(from: none, to: set).summary == #"1 difference: settings  (absent) -> {"mix":{"volume":3}}"#)
    }

    @Test func aPayloadThatChangesWithinOneCaseIsComparedBelowIt() throws {
        let fewer = try JSONValue(parsing: #"{"rehearsal":{"phase":{"countingIn":{"beatsLeft":3}},"title":"Scales"}}"#)
        let diff = StateDiff(from: Self.countingIn, to: fewer)
        #expect(diff.summary == "1 difference: rehearsal.phase.countingIn.beatsLeft  4 -> 3")
    }
}
