import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import Testing

@Suite struct JSONPatchJSONTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let patch: String
        let error: String
        var testDescription: String { patch }
    }

    static let pointerRule = "'~' must be followed by '0' (for '~') or '1' (for '/')"

    /// Patch documents that are not patches, and the error each gets: the operation's index and field, and why.
    static let malformed: [Case] = [
        Case(patch: #"{"op": "add"}"#, error: "field 'patch' expected an array of patch operations, found object"),
        Case(patch: #"[{"op": "test", "path": "/a", "value": 1}, "add"]"#, error: "field 'patch[1]' expected a patch operation (an object), found string"),
        Case(patch: #"[{"path": "/a", "value": 1}]"#, error: "field 'patch[0].op' is missing (expected 'add', 'remove', 'replace', 'move', 'copy' or 'test')"),
        Case(patch: #"[{"op": 1, "path": "/a"}]"#, error: "field 'patch[0].op' expected a string, found number"),
        Case(patch: #"[{"op": "remove", "path": "/a"}, {"op": "frob", "path": "/a"}]"#, error: "field 'patch[1].op' is 'frob'; expected 'add', 'remove', 'replace', 'move', 'copy' or 'test'"),
        Case(patch: #"[{"op": "Add", "path": "/a", "value": 1}]"#, error: "field 'patch[0].op' is 'Add'; expected 'add', 'remove', 'replace', 'move', 'copy' or 'test'"),
        Case(patch: #"[{"op": "remove"}]"#, error: "field 'patch[0].path' is missing (expected a JSON Pointer for 'remove')"),
        Case(patch: #"[{"op": "remove", "path": ["a"]}]"#, error: "field 'patch[0].path' expected a JSON Pointer string, found array"),
        // A missing value or from
        Case(patch: #"[{"op": "remove", "path": "/a"}, {"op": "add", "path": "/b"}]"#, error: "field 'patch[1].value' is missing"),
        Case(patch: #"[{"op": "replace", "path": "/a", "from": "/b"}]"#, error: "field 'patch[0].value' is missing"),
        Case(patch: #"[{"op": "test", "path": "/a"}]"#, error: "field 'patch[0].value' is missing"),
        Case(patch: #"[{"op": "move", "path": "/a", "value": 1}]"#, error: "field 'patch[0].from' is missing (expected a JSON Pointer for 'move')"),
        Case(patch: #"[{"op": "copy", "path": "/a"}]"#, error: "field 'patch[0].from' is missing (expected a JSON Pointer for 'copy')"),
        Case(patch: #"[{"op": "copy", "from": null, "path": "/a"}]"#, error: "field 'patch[0].from' expected a JSON Pointer string, found null"),
        // Pointers that are not RFC 6901 pointers
        Case(patch: #"[{"op": "add", "path": "a/b", "value": 1}]"#, error: "field 'patch[0].path' is not valid: 'a/b' is not a JSON Pointer: it must be empty (the whole document) or start with '/'"),
        Case(patch: ##"[{"op": "remove", "path": "#/a"}]"##, error: "field 'patch[0].path' is not valid: '#/a' is not a JSON Pointer: it must be empty (the whole document) or start with '/'"),
        Case(patch: #"[{"op": "add", "path": "/a~2b", "value": 1}]"#, error: "field 'patch[0].path' is not valid: '/a~2b' is not a JSON Pointer: '~2' in 'a~2b' is not an escape; \(pointerRule)"),
        Case(patch: #"[{"op": "remove", "path": "/x/a~"}]"#, error: "field 'patch[0].path' is not valid: '/x/a~' is not a JSON Pointer: '~' ends 'a~'; \(pointerRule)"),
        Case(patch: #"[{"op": "move", "from": "/~/a", "path": "/b"}]"#, error: "field 'patch[0].from' is not valid: '/~/a' is not a JSON Pointer: '~' ends '~'; \(pointerRule)"),
        Case(patch: #"[{"op": "copy", "from": "/a", "path": "/~é"}]"#, error: "field 'patch[0].path' is not valid: '/~é' is not a JSON Pointer: '~é' in '~é' is not an escape; \(pointerRule)"),
    ]

    @Test(arguments: malformed)
    func refusesMalformedPatchesNamingTheField(_ example: Case) throws {
        let value = try JSONValue(parsing: example.patch)
        let error = #expect(throws: SessionEventDecodingError.self) { _ = try JSONPatch(jsonValue: value, path: "patch") }
        #expect(error?.description == example.error)
    }

    @Test func ignoresMembersAnOperationDoesNotDefine() throws {
        // Given operations with members RFC 6902 does not define for them
        let value = try JSONValue(parsing: #"[{"op": "remove", "path": "/a", "value": 1, "from": 7}, {"op": "move", "from": "/b", "path": "/c", "value": {}}]"#)
        // When read, then they are ignored
        let patch = try JSONPatch(jsonValue: value, path: "patch")
        #expect(patch == JSONPatch([.remove(path: [.key("a")]), .move(from: [.key("b")], path: [.key("c")])]))
    }

    /// Operations as a session line holds them, and whether the schema and the reader each accept them.
    static let operations: [String] = [
        #"{"op": "add", "path": "/a", "value": 1}"#, #"{"op": "replace", "path": "", "value": null}"#,
        #"{"op": "test", "path": "/a/0", "value": [1]}"#, #"{"op": "remove", "path": "/a"}"#,
        #"{"op": "move", "from": "/a", "path": "/b"}"#, #"{"op": "copy", "from": "", "path": "/b"}"#,
        #"{"op": "add", "path": "/a", "value": 1, "xyz": 2}"#, #"{"op": "remove", "path": "/a", "value": 1}"#,
        #"{"op": "add", "path": "/a"}"#, #"{"op": "test", "path": "/a", "from": "/b"}"#, #"{"op": "move", "path": "/a"}"#,
        #"{"op": "copy", "path": "/a", "value": 1}"#, #"{"op": "copy", "from": 1, "path": "/a"}"#,
        #"{"op": "remove"}"#, #"{"path": "/a", "value": 1}"#, #"{"op": "frob", "path": "/a", "value": 1}"#,
        #"{"op": "remove", "path": 3}"#, #""remove""#,
    ]

    @Test(arguments: operations)
    func theSchemaAndTheReaderAgreeOnAnOperation(_ operation: String) throws {
        // Given an action line holding the operation
        let line = #"{"action":"clear","kind":"action","patch":[\#(operation)],"seq":1,"time":0.5}"#
        let value = try JSONValue(parsing: line)
        // When the schema checks the line and the reader reads its patch, then both accept it or both refuse it
        let schemaAccepts = SessionSchema.validator.validate(value).isEmpty
        let readerAccepts = (try? JSONPatch(jsonValue: value["patch"]!, path: "patch")) != nil
        #expect(schemaAccepts == readerAccepts)
    }

    @Test func theSchemaNamesTheMissingMember() throws {
        // Given operations missing their value or from, when the schema checks them, then it names the member
        for (operation, violation) in [
            (#"{"op": "add", "path": "/a"}"#, "patch[0].value: is required but missing"),
            (#"{"op": "move", "path": "/a"}"#, "patch[0].from: is required but missing"),
            (#"{"op": "remove"}"#, "patch[0].path: is required but missing"),
        ] {
            let line = #"{"action":"clear","kind":"action","patch":[\#(operation)],"seq":1,"time":0.5}"#
            #expect(SessionSchema.validator.validate(try JSONValue(parsing: line)).map(\.description) == [violation])
        }
    }
}
