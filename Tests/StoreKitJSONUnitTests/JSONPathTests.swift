import StoreKitCore
import StoreKitJSON
import Testing

@Suite struct JSONPathTests {
    @Test(arguments: [
        (JSONPath(), "(root)"),
        ([.key("todos"), .index(0), .key("isComplete")], "todos[0].isComplete"),
        ([.key("my key"), .key("_ok1")], #"["my key"]._ok1"#),
        ([.index(3)], "[3]"),
        // Identifiers by their first character and the rest, ASCII or not
        ([.key("1st"), .key("a1"), .key("Zz_9")], #"["1st"].a1.Zz_9"#),
        ([.key("café"), .key("名前"), .key("a-b"), .key("a@"), .key("[x]"), .key("")], #"café.名前["a-b"]["a@"]["[x]"][""]"#),
        ([.key("naïve2"), .key("x"), .key("`"), .key("{")], #"naïve2.x["`"]["{"]"#),
        // An enum case's unlabelled payloads: `_0` is not written, `_1`… by position as in a tuple; elsewhere as is
        ([.key("path"), .index(1), .key("record"), .key("_0"), .key("speakerIndex")], "path[1].record.speakerIndex"),
        ([.key("moved"), .key("_0")], "moved"),
        ([.key("moved"), .key("_1")], "moved.1"),
        ([.key("a"), .key("_0"), .key("_0"), .key("_12"), .key("b")], "a.12.b"),
        ([.key("_0"), .index(0), .key("_1")], "_0[0]._1"),
        ([.key("a"), .key("_01"), .key("_"), .key("_1x"), .key("_12345")], "a._01._._1x._12345"),
        // Ids: identifier-safe strings (UUIDs, slugs) unquoted, other ids as canonical JSON
        ([.key("syncUps"), .identified(.string("3F2504E0-4F89-11D3-9A0C-0305E82C3301")), .key("title")],
         "syncUps[id: 3F2504E0-4F89-11D3-9A0C-0305E82C3301].title"),
        ([.key("s"), .identified(.string("00000000-0000-0000-0000-000000000001"))], "s[id: 00000000-0000-0000-0000-000000000001]"),
        ([.key("s"), .identified(.string("draft_2"))], "s[id: draft_2]"),
        ([.key("s"), .identified(.integer(42))], "s[id: 42]"),
        ([.key("s"), .identified(.string("42")), .identified(.string("-1")), .identified(.string("1e-5"))], #"s[id: "42"][id: "-1"][id: "1e-5"]"#),
        ([.identified(.string("true")), .identified(.string("null")), .identified(.string("a b")), .identified(.string(""))],
         #"[id: "true"][id: "null"][id: "a b"][id: ""]"#),
        ([.identified(.string("01")), .identified(.string("1e")), .identified(.string("-"))], "[id: 01][id: 1e][id: -]"),
    ] as [(JSONPath, String)])
    func rendersLikeSwiftCode(_ path: JSONPath, _ text: String) {
        #expect(path.description == text)
    }

    @Test(arguments: [
        ("", JSONPath()),
        ("/", [.key("")]),
        ("//", [.key(""), .key("")]),
        ("/todos/0/isComplete", [.key("todos"), .index(0), .key("isComplete")]),
        ("/10/-", [.index(10), .key("-")]),
        // Only digits without a leading zero are indexes; the rest are names
        ("/01/00/-1/+1/1e0/ 1/١", [.key("01"), .key("00"), .key("-1"), .key("+1"), .key("1e0"), .key(" 1"), .key("١")]),
        ("/99999999999999999999", [.key("99999999999999999999")]),
        // ~1 is '/', ~0 is '~', in that order
        ("/a~1b~0c", [.key("a/b~c")]),
        ("/~01", [.key("~1")]),
        ("/~10", [.key("/0")]),
        ("/~0~0/~1~1", [.key("~~"), .key("//")]),
        ("/0~1", [.key("0/")]),
        ("/c%d/e^f/g|h/i\\j/k\"l/ /m~0n/é", [.key("c%d"), .key("e^f"), .key("g|h"), .key("i\\j"), .key("k\"l"), .key(" "), .key("m~n"), .key("é")]),
    ] as [(String, JSONPath)])
    func readsJSONPointers(_ pointer: String, _ path: JSONPath) throws {
        #expect(try JSONPath(pointer: pointer) == path)
    }

    @Test(arguments: [
        ("a", JSONPointerError.Reason.missingLeadingSlash),
        ("#/a", .missingLeadingSlash),
        (" /a", .missingLeadingSlash),
        ("/a~2", .invalidEscape(escape: "~2", token: "a~2")),
        ("/a/b~", .invalidEscape(escape: "~", token: "b~")),
        ("/~", .invalidEscape(escape: "~", token: "~")),
        ("/~~0", .invalidEscape(escape: "~~", token: "~~0")),
        ("/ok/~a/~0", .invalidEscape(escape: "~a", token: "~a")),
        ("/~é", .invalidEscape(escape: "~é", token: "~é")),
    ])
    func refusesTextThatIsNotAPointer(_ pointer: String, _ reason: JSONPointerError.Reason) {
        let error = #expect(throws: JSONPointerError.self) { _ = try JSONPath(pointer: pointer) }
        #expect(error == JSONPointerError(pointer: pointer, reason: reason))
    }

    @Test func describesWhyTextIsNotAPointer() {
        #expect(
            JSONPointerError(pointer: "/a~2", reason: .invalidEscape(escape: "~2", token: "a~2")).description
                == "'/a~2' is not a JSON Pointer: '~2' in 'a~2' is not an escape; '~' must be followed by '0' (for '~') or '1' (for '/')")
        #expect(
            JSONPointerError(pointer: "a", reason: .missingLeadingSlash).description
                == "'a' is not a JSON Pointer: it must be empty (the whole document) or start with '/'")
    }

    @Test(arguments: [
        (JSONPath(), ""),
        ([.key("")], "/"),
        ([.key("todos"), .index(2), .key("-")], "/todos/2/-"),
        ([.key("a/b~c"), .key("~1"), .key("/")], "/a~1b~0c/~01/~1"),
        ([.key("名前"), .key("é")], "/名前/é"),
    ] as [(JSONPath, String)])
    func writesJSONPointersThatReadBack(_ path: JSONPath, _ pointer: String) throws {
        #expect(path.pointer == pointer)
        #expect(try JSONPath(pointer: pointer) == path)
    }
}
