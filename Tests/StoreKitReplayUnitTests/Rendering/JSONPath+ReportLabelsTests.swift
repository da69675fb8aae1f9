import StoreKitJSON
import Testing

@testable import StoreKitReplay

@Suite struct JSONPathReportLabelsTests {
    static let uuid = JSONValue.string("3F2504E0-4F89-11D3-9A0C-0305E82C3301")

    @Test(arguments: [
        // A rehearsal's timer: a case's unlabelled payload (`_0`) is not a named parent.
        (
            JSONPath([.key("path"), .key("entries"), .identified(.integer(2)), .key("element"), .key("rehearsal"),
                .key("_0"), .key("elapsedInSong")]),
            "…rehearsal.elapsedInSong"
        ),
        // A todo by its UUID: the id cut to its start, the leaf whole.
        (JSONPath([.key("todos"), .identified(uuid), .key("isComplete")]), "todos[id: 3F2504E0…].isComplete"),
        (JSONPath([.key("app"), .key("todos"), .identified(uuid), .key("isComplete")]), "…todos[id: 3F2504E0…].isComplete"),
        // One named member or none: the whole path.
        (JSONPath([.key("items"), .index(12)]), "items[12]"),
        (JSONPath([.index(3)]), "[3]"),
        (JSONPath([]), "(root)"),
        // A member that is not an identifier keeps its brackets.
        (JSONPath([.key("settings"), .key("my key"), .key("on")]), #"…["my key"].on"#),
    ])
    func leafAndNamedParentKeepTheEndThatSaysWhatChanged(path: JSONPath, label: String) {
        #expect(path.leafAndNamedParent == label)
    }

    @Test(arguments: [
        (JSONPath([.key("todos"), .identified(uuid), .key("isComplete")]), "todos[id: *].isComplete"),
        (JSONPath([.key("grid"), .index(1), .index(2)]), "grid[*][*]"),
        (JSONPath([.key("counts"), .mapKey(.integer(3))]), "counts[key: *]"),
        (JSONPath([.key("record"), .key("_0"), .key("speakerIndex")]), "record.speakerIndex"),
        (JSONPath([]), "(root)"),
    ])
    func wildcardsWriteEverySubscriptAsAStar(path: JSONPath, pattern: String) {
        #expect(path.withSubscriptsAsWildcards == pattern)
    }
}
