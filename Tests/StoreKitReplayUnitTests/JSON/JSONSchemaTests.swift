import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitTestFixtures
import StoreKitReplay
import Testing

@Suite struct JSONSchemaTests {
    @Test func theEmbeddedSessionSchemaIsTheShippedFile() throws {
        let file = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/session.schema.json")
        let shipped = try JSONValue(parsing: Array(try Data(contentsOf: file)))
        #expect(shipped == SessionSchema.validator.document)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let line: String
        let violations: [String]
        var testDescription: String { line }
    }

    static let cases: [Case] = [
        Case(line: headerLine, violations: []),
        Case(line: actionLine(1, action: "\"clear\"", state: "{}"), violations: []),
        Case(
            line: #"{"action":"clear","kind":"action","seq":0,"state":{},"time":0.5}"#,
            violations: ["seq: 0 is less than the minimum 1.0"]),
        Case(
            line: #"{"action":"clear","kind":"action","seq":1,"state":{},"time":0.5,"colour":"red"}"#,
            violations: ["colour: is not a known field"]),
        Case(
            line: #"{"kind":"gap","from":1,"to":2,"reason":"lost"}"#,
            violations: [#"reason: expected one of "bufferFull", "transportFailed", "encodingFailed", "notEncodable", "rejected", "timedOut", found "lost""#]),
        Case(line: #"{"kind":"end","reason":"finished","time":1.0}"#, violations: ["actions: is required but missing"]),
    ]

    @Test(arguments: formatTwoLines)
    func everyLineOfTheFormatTwoFixtureMatchesTheSchema(_ line: String) throws {
        #expect(SessionSchema.validator.validate(try JSONValue(parsing: Array(line.utf8))).map(\.description) == [])
    }

    @Test func aCallResultWithTwoMembersBreaksTheSchema() throws {
        let line = formatTwoLines[2].replacingOccurrences(of: #"{"value":100000000}"#, with: #"{"cancelled":true,"value":1}"#)
        let violations = SessionSchema.validator.validate(try JSONValue(parsing: Array(line.utf8))).map(\.description)
        #expect(violations == ["result.cancelled: is not a known field"])
    }

    /// A header with every member of `typeNotes`, then with a step that is no step.
    static let typeNotesCases: [Case] = [
        Case(
            line: #"{"app":{"name":"Planner"},"format":1,"initialState":{},"kind":"session","sessionId":"s","startedAt":"2026-11-23T10:00:00.000Z","storeId":"planner","typeNotes":{"dates":[["deadline"],["rooms",{},"openedAt"]],"durations":[["laps",[]]],"identityKeys":[[["tasks"],"toDoID"]],"keyedPairArrays":[["votes"]],"sets":[["tags"]]}}"#,
            violations: []),
        Case(
            line: #"{"app":{"name":"Planner"},"format":1,"initialState":{},"kind":"session","sessionId":"s","startedAt":"2026-11-23T10:00:00.000Z","storeId":"planner","typeNotes":{"dates":[["deadline",1]],"ranges":[]}}"#,
            violations: ["typeNotes.dates[0][1]: expected string, found number", "typeNotes.ranges: is not a known field"]),
    ]

    @Test(arguments: typeNotesCases)
    func aHeadersTypeNotesAreDescribedByTheSchema(_ example: Case) throws {
        let violations = SessionSchema.validator.validate(try JSONValue(parsing: Array(example.line.utf8)))
        #expect(violations.map(\.description) == example.violations)
    }

    @Test(arguments: cases)
    func validatesSessionLines(_ example: Case) throws {
        let violations = SessionSchema.validator.validate(try JSONValue(parsing: example.line))
        #expect(violations.map(\.description) == example.violations)
    }

    @Test func aSchemaThatRefersToItselfChecksEveryLevel() throws {
        let schema = JSONSchema(
            try JSONValue(
                parsing: ##"{"$ref":"#/$defs/node","$defs":{"node":{"type":"object","additionalProperties":false,"##
                    + ##""properties":{"name":{"type":"string","minLength":1},"children":{"type":"array","items":{"$ref":"#/$defs/node"}}}}}}"##))
        let valid = try JSONValue(parsing: #"{"name":"a","children":[{"name":"b","children":[{"name":"c"}]}]}"#)
        let invalid = try JSONValue(parsing: #"{"name":"a","children":[{"name":"b","children":[{"name":"","x":1}]}]}"#)
        #expect(schema.validate(valid).map(\.description) == [])
        #expect(
            schema.validate(invalid).map(\.description) == [
                "children[0].children[0].name: is shorter than 1 characters",
                "children[0].children[0].x: is not a known field",
            ])
    }

    @Test func aReferenceToNothingIsAViolationNamingIt() throws {
        let schema = JSONSchema(try JSONValue(parsing: ##"{"properties":{"a":{"$ref":"#/$defs/missing"}}}"##))
        #expect(schema.validate(try JSONValue(parsing: #"{"a":1}"#)).map(\.description) == ["a: the schema's $ref '#/$defs/missing' does not resolve"])
        #expect(schema.validate(try JSONValue(parsing: #"{"b":1}"#)).map(\.description) == [])
    }
}
