import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import Testing

@Suite struct JSONPathPatternTests {
    private static func json(_ text: String) throws -> JSONValue { try JSONValue(parsing: Array(text.utf8)) }

    @Test(arguments: [
        ("todos[*].id", [JSONPathPattern.Component.key("todos"), .anyElement, .key("id")]),
        ("*.id", [.anyMember, .key("id")]),
        ("route.*", [.key("route"), .anyMember]),
        ("todos[2].title", [.key("todos"), .index(2), .key("title")]),
        ("[\"a key\"].b", [.key("a key"), .key("b")]),
        ("syncUps[id: \"3F2\"].title", [.key("syncUps"), .identified(.string("3F2")), .key("title")]),
        ("counts[key: 7]", [.key("counts"), .mapKey(.integer(7))]),
        ("m[key: [1, \"]\"]]", [.key("m"), .mapKey(.array([.integer(1), .string("]")]))]),
        ("path[*].rehearse._0.startedAt", [.key("path"), .anyElement, .key("rehearse"), .key("_0"), .key("startedAt")]),
        ("syncUps[id: 3F2504E0-4F89].title", [.key("syncUps"), .identified(.string("3F2504E0-4F89")), .key("title")]),
        ("path.push.1.packing", [.key("path"), .key("push"), .key("_1"), .key("packing")]),
    ])
    func patternsParseAsPathsPrint(text: String, components: [JSONPathPattern.Component]) throws {
        let pattern = try JSONPathPattern(text)
        #expect(pattern.components == components)
        #expect(pattern.text == text)
    }

    @Test(arguments: [
        ("", 1, "the pattern is empty; name a path such as 'todos[*].id'"),
        ("todos[*.id", 6, "'[' is never closed with ']'"),
        ("todos..id", 7, "expected a member name or '*'"),
        ("to*dos", 1, "'*' stands for a whole member name, not part of one"),
        ("todos[x]", 7, "expected an index, '*', a quoted key, 'id: <json>' or 'key: <json>' inside [ ]"),
        ("todos[-1]", 7, "an index is 0 or more"),
        ("todos]", 6, "unexpected ']'"),
        (".todos", 1, "a pattern starts with a member name, '*' or '['"),
        ("a b", 2, "a member name has no spaces; write [\"a key\"] for such a key"),
    ])
    func aBadPatternNamesThePositionAndWhatWasExpected(text: String, position: Int, message: String) {
        #expect(throws: JSONPathPatternError(pattern: text, position: position, message: message)) {
            try JSONPathPattern(text)
        }
    }

    @Test func aBadJSONValueInsideIdSaysSo() {
        #expect {
            try JSONPathPattern("todos[id: 3F 2]")
        } throws: { error in
            "\(error)".hasPrefix("bad path pattern 'todos[id: 3F 2]' at character 7: 'id' takes a JSON value")
        }
    }

    @Test func everyPathADiffPrintsIsAPatternThatNamesThatPlace() throws {
        // Given two states that differ inside unlabeled payloads (_0, _1), identified elements (a UUID id, an
        // integer id, an id that prints quoted) and a key that is not an identifier
        let old = try Self.json(
            #"{"path":[{"id":"3F2504E0-4F89-11D3-9A0C-0305E82C3301","screen":{"edit":{"_0":{"title":"a"},"_1":1}}},"#
                + #"{"id":7,"n":1},{"id":"42","n":1}],"odd key":{"x":1}}"#)
        let new = try Self.json(
            #"{"path":[{"id":"3F2504E0-4F89-11D3-9A0C-0305E82C3301","screen":{"edit":{"_0":{"title":"b"},"_1":2}}},"#
                + #"{"id":7,"n":2},{"id":"42","n":2}],"odd key":{"x":2}}"#)
        let changes = StateDiff(from: old, to: new).changes
        #expect(changes.count == 5)

        for change in changes {
            // When the path as printed is read back as a pattern
            let pattern = try JSONPathPattern(change.path.description)

            // Then it names exactly that place
            #expect(pattern.overlay(from: old, onto: new).differences == [change.path], "\(change.path)")
        }
    }

    @Test func overlayCopiesEveryElementsValueAndListsWhereTheyDiffered() throws {
        // Given two runs whose todos differ only in their random ids
        let recorded = try Self.json(#"{"todos":[{"id":"A","title":"Milk"},{"id":"B","title":"Eggs"}]}"#)
        let replayed = try Self.json(#"{"todos":[{"id":"X","title":"Milk"},{"id":"B","title":"Bread"}]}"#)

        // When the ids are taken from the recorded run
        let overlay = try JSONPathPattern("todos[*].id").overlay(from: recorded, onto: replayed)

        // Then only the title is left to differ, and the first element's id is named as ignored
        #expect(overlay.value == (try Self.json(#"{"todos":[{"id":"A","title":"Milk"},{"id":"B","title":"Bread"}]}"#)))
        #expect(overlay.differences.map(\.description) == ["todos[0].id"])
    }

    @Test func overlayMatchesKeysByTheirCodePoints() throws {
        // Given a key precomposed in the recorded run and decomposed in the replayed one
        let recorded = try Self.json("{\"\u{E9}\":1,\"b\":1}")
        let replayed = try Self.json("{\"e\u{301}\":2,\"b\":2}")

        // When one of them is ignored, nothing is copied over the other; when every member is, the result is the source
        let one = try JSONPathPattern("[\"\u{E9}\"]").overlay(from: recorded, onto: replayed)
        #expect(one.value == replayed)
        #expect(one.differences.isEmpty)
        let every = try JSONPathPattern("[*]").overlay(from: recorded, onto: replayed)
        #expect(every.value == recorded)
        #expect(every.differences.count == 3)
    }

    @Test func overlayPairsIdentifiedElementsByTheirIdsWhenTheyShareThem() throws {
        // Given a replayed list that moved B before A and changed B's done, with titles that differ run to run
        let recorded = try Self.json(#"{"l":[{"id":"A","t":1,"done":false},{"id":"B","t":2,"done":false}]}"#)
        let replayed = try Self.json(#"{"l":[{"id":"B","t":8,"done":true},{"id":"A","t":9,"done":false}]}"#)

        // When the titles are ignored
        let overlay = try JSONPathPattern("l[*].t").overlay(from: recorded, onto: replayed)

        // Then each element takes its own recorded title: only the move and B's done are left
        #expect(overlay.value == (try Self.json(#"{"l":[{"id":"B","t":2,"done":true},{"id":"A","t":1,"done":false}]}"#)))
        #expect(overlay.differences.map(\.description) == ["l[id: B].t", "l[id: A].t"])
    }

    @Test func overlayInsertsAndRemovesMembersOneSideLacks() throws {
        let recorded = try Self.json(#"{"a":{"stamp":1},"b":{}}"#)
        let replayed = try Self.json(#"{"a":{},"b":{"stamp":2}}"#)
        let overlay = try JSONPathPattern("*.stamp").overlay(from: recorded, onto: replayed)
        #expect(overlay.value == recorded)
        #expect(overlay.differences.map(\.description) == ["a.stamp", "b.stamp"])
    }

    @Test func overlayLeavesAnArrayElementOneSideLacksToTheComparison() throws {
        let recorded = try Self.json(#"{"ids":[1,2,3]}"#)
        let replayed = try Self.json(#"{"ids":[9,8]}"#)
        let overlay = try JSONPathPattern("ids[*]").overlay(from: recorded, onto: replayed)
        #expect(overlay.value == (try Self.json(#"{"ids":[1,2]}"#)))
    }

    @Test func overlayFindsIdentifiedElementsAndMapKeysOnEachSide() throws {
        let recorded = try Self.json(#"{"l":[{"id":1,"t":"a"},{"id":2,"t":"b"}],"m":["k",1,"j",2]}"#)
        let replayed = try Self.json(#"{"l":[{"id":2,"t":"B"},{"id":1,"t":"A"}],"m":["k",5,"j",6]}"#)
        let identified = try JSONPathPattern("l[id: 1].t").overlay(from: recorded, onto: replayed)
        #expect(identified.value["l"] == (try Self.json(#"[{"id":2,"t":"B"},{"id":1,"t":"a"}]"#)))
        #expect(identified.differences == [JSONPath([.key("l"), .identified(.integer(1)), .key("t")])])
        let keyed = try JSONPathPattern("m[key: \"j\"]").overlay(from: recorded, onto: replayed)
        #expect(keyed.value["m"] == (try Self.json(#"["k",5,"j",2]"#)))
    }

    @Test func aPatternMayLeaveOutTheUnlabeledPayloadKeyAsPathsPrint() throws {
        // Given an enum case with an unlabeled payload, which Codable writes under _0
        let recorded = try Self.json(#"{"path":[{"rehearse":{"_0":{"startedAt":1,"n":1}}}]}"#)
        let replayed = try Self.json(#"{"path":[{"rehearse":{"_0":{"startedAt":2,"n":1}}}]}"#)

        // When the pattern is written as the path prints, without _0
        let overlay = try JSONPathPattern("path[*].rehearse.startedAt").overlay(from: recorded, onto: replayed)

        // Then it reaches inside the payload
        #expect(overlay.value == recorded)
        #expect(overlay.differences == [JSONPath([.key("path"), .index(0), .key("rehearse"), .key("_0"), .key("startedAt")])])
    }

    @Test func thePatternsTogetherSayWhichOneIgnoredWhat() throws {
        let recorded = try Self.json(#"{"id":1,"at":1,"n":1}"#)
        let replayed = try Self.json(#"{"id":2,"at":1,"n":2}"#)
        let (value, ignored) = [try JSONPathPattern("id"), try JSONPathPattern("at")].overlay(from: recorded, onto: replayed)
        #expect(value == (try Self.json(#"{"id":1,"at":1,"n":2}"#)))
        #expect(ignored == [IgnoredDifferences(pattern: "id", paths: [JSONPath([.key("id")])])])
    }

    @Test func migrationHelpersAddRenameAndRenameCasesAtAPattern() throws {
        let old = try Self.json(#"{"items":[{"label":"a","mode":{"run":{"_0":{"label":"x"}}}},{"label":"b","mode":"idle"}]}"#)
        let added = try old.addingMember("isPaused", default: .bool(false), at: "items[*]")
        #expect(added["items"]?.arrayValue?.map { $0["isPaused"] } == [.bool(false), .bool(false)])
        let renamed = try old.renamingMember("label", to: "title", at: "items[*]")
        #expect(renamed["items"]?.arrayValue?.map { $0["title"] } == [.string("a"), .string("b")])
        #expect(renamed["items"]?.arrayValue?.map { $0["label"] } == [nil, nil])
        // A renamed case with a payload, through _0, and a raw-value case written as a string
        let cases = try old.renamingCase("run", to: "running", at: "items[*].mode").renamingCase("idle", to: "stopped", at: "items[*].mode")
        #expect(cases == (try Self.json(#"{"items":[{"label":"a","mode":{"running":{"_0":{"label":"x"}}}},{"label":"b","mode":"stopped"}]}"#)))
        // A member edit at a case with an unlabeled payload edits the payload, as paths print without _0
        let inPayload = try old.renamingMember("label", to: "title", at: "items[0].mode.run")
        #expect(inPayload["items"]?.arrayValue?.first?["mode"]?["run"] == (try Self.json(#"{"_0":{"title":"x"}}"#)))
    }
}
