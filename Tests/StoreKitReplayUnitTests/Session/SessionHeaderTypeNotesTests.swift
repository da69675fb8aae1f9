import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import StoreKitTestFixtures
import Testing

/// The header's optional `typeNotes`: written only when there are notes, read back, and refused when not of its form.
@Suite struct SessionHeaderTypeNotesTests {
    private static let notes = EncodedTypeNotes(
        [.dates: [[.member("rooms"), .pairValue, .member("openedAt")]], .durations: [[.member("laps"), .element]]],
        identityKeys: [[.member("tasks")]: "toDoID"])

    private static func header(typeNotes: EncodedTypeNotes) -> SessionHeader {
        SessionHeader(
            sessionID: "s1", storeID: "tally", app: AppInfo(name: "TallyApp"), startedAt: "2026-11-22T10:00:00.000Z",
            host: "vm", pid: 1, initialState: .object(["total": .integer(0)]), typeNotes: typeNotes)
    }

    /// A header line whose `typeNotes` member is `notes`, as JSON text.
    private static func line(typeNotes notes: String) -> String {
        #"{"app":{"name":"TallyApp"},"format":1,"initialState":{"total":0},"kind":"session","sessionId":"s1","startedAt":"2026-11-22T10:00:00.000Z","storeId":"tally","typeNotes":\#(notes)}"#
            + "\n"
    }

    @Test func theHeaderWritesTheNotesOnlyWhenThereAreAnyAndReadsThemBack() throws {
        // Given the same header without and with notes
        let without = SessionEvent.header(Self.header(typeNotes: EncodedTypeNotes())).line
        let with = SessionEvent.header(Self.header(typeNotes: Self.notes)).line

        // Then without them the line has no such member, with them it has one, and both read back
        #expect(!String(decoding: without, as: UTF8.self).contains("typeNotes"))
        #expect(
            String(decoding: with, as: UTF8.self).contains(
                #""typeNotes":{"dates":[["rooms",{},"openedAt"]],"durations":[["laps",[]]],"identityKeys":[[["tasks"],"toDoID"]]}"#))
        #expect(try Session(ndjson: without).header.typeNotes.isEmpty)
        #expect(try Session(ndjson: with).header == Self.header(typeNotes: Self.notes))
    }

    struct BadNotes: CustomTestStringConvertible, Sendable {
        let name: String
        let value: String
        let reason: String
        var testDescription: String { name }
    }

    static let badNotes: [BadNotes] = [
        BadNotes(name: "not an object", value: "[]", reason: "field 'typeNotes' expected an object, found array"),
        BadNotes(
            name: "a step that is a number", value: #"{"dates":[["deadline",1]]}"#,
            reason: "field 'typeNotes.dates' is not an array of paths (each an array of member names, [] and {})"),
        BadNotes(
            name: "an identity key without its member", value: #"{"identityKeys":[[["tasks"]]]}"#,
            reason: "field 'typeNotes.identityKeys' is not an array of [path, member] pairs (a path is an array of member names, [] and {})"),
    ]

    @Test(arguments: badNotes)
    func theReaderRefusesNotesNotOfTheirForm(_ bad: BadNotes) throws {
        // Given a header whose typeNotes are not of their form
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write("bad.jsonl", Self.line(typeNotes: bad.value))

        // When it is read, then the reader refuses its first line, naming the member
        let error = #expect(throws: SessionReadError.self) { _ = try Session(contentsOf: path) }
        #expect(error?.description == "\(path):1: \(bad.reason)")
    }
}
