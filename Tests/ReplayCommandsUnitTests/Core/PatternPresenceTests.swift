import StoreKitCore
import StoreKitReplay
import Testing

@testable import ReplayCommands

/// `PatternPresence`: whether a user's path pattern names a place in the states, and the nearest places when not.
@Suite struct PatternPresenceTests {
    static let state: JSONValue = .object([
        "filter": .string("all"),
        "todos": .array([
            .object(["id": .string("A"), "isComplete": .bool(false), "title": .string("Milk")]),
            .object(["id": .string("B"), "isComplete": .bool(true), "title": .string("Eggs")]),
        ]),
        "route": .object(["edit": .object(["_0": .object(["title": .string("a")])])]),
    ])

    static func presence(_ text: String, in states: [JSONValue] = [state]) throws -> PatternPresence {
        var presence = PatternPresence(try JSONPathPattern(text))
        for state in states { presence.look(in: state) }
        return presence
    }

    @Test(arguments: ["todos[*].title", "todos[1].isComplete", "todos[id: B]", "route.edit.title", "route.*", "filter"])
    func aPatternThatNamesAPlaceIsPresentAndHasNoNote(_ text: String) throws {
        let presence = try Self.presence(text)
        #expect(presence.isPresent)
        #expect(presence.note(subject: "'\(text)'", source: "s.jsonl") == nil)
    }

    @Test(arguments: [
        ("todos[*].titel", "'todos[*].titel' names no place in any state of s.jsonl; did you mean 'todos[*].title'?"),
        ("todo[id: A].isCompleted", "'todo[id: A].isCompleted' names no place in any state of s.jsonl; did you mean 'todos[id: A].isComplete'?"),
        ("route.edit.titel", "'route.edit.titel' names no place in any state of s.jsonl; did you mean 'route.edit.title'?"),
        ("todos[5].title", "'todos[5].title' names no place in any state of s.jsonl; the nearest place that exists is 'todos'"),
        ("selection", "'selection' names no place in any state of s.jsonl; the nearest places that exist are 'filter', 'route', 'todos'"),
    ])
    func aPatternThatNamesNothingIsNotedWithTheNearestPlaces(_ text: String, _ note: String) throws {
        let presence = try Self.presence(text)
        #expect(!presence.isPresent)
        #expect(presence.note(subject: "'\(text)'", source: "s.jsonl") == note)
    }

    @Test func aPlaceAnyStateHoldsCountsEvenWhenOthersLackIt() throws {
        // Given a first state without the selection and a later one with it
        let later: JSONValue = .object(["selection": .string("A")])

        // Then the pattern is present
        #expect(try Self.presence("selection", in: [Self.state, later]).isPresent)
    }

    @Test func patternsAreWrittenBackAsPathsPrintThem() throws {
        let text = PatternPresence.text(of: try JSONPathPattern(#"todos[id: "a b"].moved.1["my key"][*].*[key: 3]"#).components)
        #expect(text == #"todos[id: "a b"].moved.1["my key"][*].*[key: 3]"#)
    }
}
