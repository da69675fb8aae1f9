import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import Testing

@Suite struct JSONPatchTests {
    /// A target document, a patch document, and the result: a document, or the error's description.
    struct Example: Sendable, CustomTestStringConvertible {
        let name: String
        let document: String
        let patch: String
        let result: Result
        var testDescription: String { name }

        enum Result: Sendable {
            case document(String)
            case error(String)
        }
    }

    /// Every example of RFC 6902's appendix A (A.13, a document with two `op` members, is not JSON this package
    /// reads; see `theInvalidPatchDocumentOfAppendixA13IsNotRead`).
    static let appendixA: [Example] = [
        Example(
            name: "A.1 adding an object member", document: #"{"foo": "bar"}"#,
            patch: #"[{"op": "add", "path": "/baz", "value": "qux"}]"#,
            result: .document(#"{"baz": "qux", "foo": "bar"}"#)),
        Example(
            name: "A.2 adding an array element", document: #"{"foo": ["bar", "baz"]}"#,
            patch: #"[{"op": "add", "path": "/foo/1", "value": "qux"}]"#,
            result: .document(#"{"foo": ["bar", "qux", "baz"]}"#)),
        Example(
            name: "A.3 removing an object member", document: #"{"baz": "qux", "foo": "bar"}"#,
            patch: #"[{"op": "remove", "path": "/baz"}]"#,
            result: .document(#"{"foo": "bar"}"#)),
        Example(
            name: "A.4 removing an array element", document: #"{"foo": ["bar", "qux", "baz"]}"#,
            patch: #"[{"op": "remove", "path": "/foo/1"}]"#,
            result: .document(#"{"foo": ["bar", "baz"]}"#)),
        Example(
            name: "A.5 replacing a value", document: #"{"baz": "qux", "foo": "bar"}"#,
            patch: #"[{"op": "replace", "path": "/baz", "value": "boo"}]"#,
            result: .document(#"{"baz": "boo", "foo": "bar"}"#)),
        Example(
            name: "A.6 moving a value", document: #"{"foo": {"bar": "baz", "waldo": "fred"}, "qux": {"corge": "grault"}}"#,
            patch: #"[{"op": "move", "from": "/foo/waldo", "path": "/qux/thud"}]"#,
            result: .document(#"{"foo": {"bar": "baz"}, "qux": {"corge": "grault", "thud": "fred"}}"#)),
        Example(
            name: "A.7 moving an array element", document: #"{"foo": ["all", "grass", "cows", "eat"]}"#,
            patch: #"[{"op": "move", "from": "/foo/1", "path": "/foo/3"}]"#,
            result: .document(#"{"foo": ["all", "cows", "eat", "grass"]}"#)),
        Example(
            name: "A.8 testing a value: success", document: #"{"baz": "qux", "foo": ["a", 2, "c"]}"#,
            patch: #"[{"op": "test", "path": "/baz", "value": "qux"}, {"op": "test", "path": "/foo/1", "value": 2}]"#,
            result: .document(#"{"baz": "qux", "foo": ["a", 2, "c"]}"#)),
        Example(
            name: "A.9 testing a value: error", document: #"{"baz": "qux"}"#,
            patch: #"[{"op": "test", "path": "/baz", "value": "bar"}]"#,
            result: .error(#"patch operation 0 (test '/baz'): test failed: value at '/baz' is "qux", expected "bar""#)),
        Example(
            name: "A.10 adding a nested member object", document: #"{"foo": "bar"}"#,
            patch: #"[{"op": "add", "path": "/child", "value": {"grandchild": {}}}]"#,
            result: .document(#"{"foo": "bar", "child": {"grandchild": {}}}"#)),
        Example(
            name: "A.11 ignoring unrecognized elements", document: #"{"foo": "bar"}"#,
            patch: #"[{"op": "add", "path": "/baz", "value": "qux", "xyz": 123}]"#,
            result: .document(#"{"foo": "bar", "baz": "qux"}"#)),
        Example(
            name: "A.12 adding to a nonexistent target", document: #"{"foo": "bar"}"#,
            patch: #"[{"op": "add", "path": "/baz/bat", "value": "qux"}]"#,
            result: .error("patch operation 0 (add '/baz/bat'): '/baz' does not exist")),
        Example(
            name: "A.14 ~ escape ordering", document: #"{"/": 9, "~1": 10}"#,
            patch: #"[{"op": "test", "path": "/~01", "value": 10}]"#,
            result: .document(#"{"/": 9, "~1": 10}"#)),
        Example(
            name: "A.15 comparing strings and numbers", document: #"{"/": 9, "~1": 10}"#,
            patch: #"[{"op": "test", "path": "/~01", "value": "10"}]"#,
            result: .error(#"patch operation 0 (test '/~01'): test failed: value at '/~01' is 10, expected "10""#)),
        Example(
            name: "A.16 adding an array value", document: #"{"foo": ["bar"]}"#,
            patch: #"[{"op": "add", "path": "/foo/-", "value": ["abc", "def"]}]"#,
            result: .document(#"{"foo": ["bar", ["abc", "def"]]}"#)),
    ]

    @Test(arguments: appendixA)
    func appliesTheExamplesOfRFC6902AppendixA(_ example: Example) throws {
        try check(example)
    }

    @Test func theInvalidPatchDocumentOfAppendixA13IsNotRead() {
        // Given A.13's patch, an operation with two `op` members
        let text = #"[{"op": "add", "path": "/baz", "value": "qux", "op": "remove"}]"#
        // When it is read, then it is refused before any operation is made of it
        let error = #expect(throws: JSONParseError.self) { _ = try JSONValue(parsing: text) }
        #expect(error?.message == "duplicate key 'op'")
    }

    /// Operations beyond the appendix: edge cases RFC 6902 defines, and the errors with their messages.
    static let operations: [Example] = [
        Example(
            name: "add to an existing member replaces it", document: #"{"a": 1}"#,
            patch: #"[{"op": "add", "path": "/a", "value": [2]}]"#, result: .document(#"{"a": [2]}"#)),
        Example(
            name: "add at the length appends", document: #"{"a": [1, 2]}"#,
            patch: #"[{"op": "add", "path": "/a/2", "value": 3}, {"op": "add", "path": "/a/-", "value": 4}]"#,
            result: .document(#"{"a": [1, 2, 3, 4]}"#)),
        Example(
            name: "add '-' to an empty root array", document: "[]",
            patch: #"[{"op": "add", "path": "/-", "value": {"x": null}}]"#, result: .document(#"[{"x": null}]"#)),
        Example(
            name: "add and replace of the root replace the whole document", document: #"{"a": 1}"#,
            patch: #"[{"op": "add", "path": "", "value": [1]}, {"op": "replace", "path": "", "value": {"b": 2}}]"#,
            result: .document(#"{"b": 2}"#)),
        Example(
            name: "test of the root compares the whole document", document: #"{"a": [1, {"b": null}]}"#,
            patch: #"[{"op": "test", "path": "", "value": {"a": [1.0, {"b": null}]}}]"#,
            result: .document(#"{"a": [1, {"b": null}]}"#)),
        Example(
            name: "digits name an object member", document: #"{"0": "zero", "list": ["x"]}"#,
            patch: #"[{"op": "replace", "path": "/0", "value": "nil"}, {"op": "add", "path": "/1", "value": "one"}, {"op": "replace", "path": "/list/0", "value": "y"}]"#,
            result: .document(#"{"0": "nil", "1": "one", "list": ["y"]}"#)),
        Example(
            name: "'-' and '01' name object members", document: #"{"-": 1, "01": 2}"#,
            patch: #"[{"op": "remove", "path": "/-"}, {"op": "replace", "path": "/01", "value": 3}]"#,
            result: .document(#"{"01": 3}"#)),
        Example(
            name: "escaped keys", document: #"{"a/b": {"~": 1}}"#,
            patch: #"[{"op": "move", "from": "/a~1b/~0", "path": "/~0~1"}]"#,
            result: .document(#"{"a/b": {}, "~/": 1}"#)),
        Example(
            name: "move to its own location changes nothing", document: #"{"a": {"b": 1}}"#,
            patch: #"[{"op": "move", "from": "/a", "path": "/a"}]"#, result: .document(#"{"a": {"b": 1}}"#)),
        Example(
            name: "move out of an object into its parent", document: #"{"a": {"b": {"c": 1}}}"#,
            patch: #"[{"op": "move", "from": "/a/b", "path": "/a"}]"#, result: .document(#"{"a": {"c": 1}}"#)),
        Example(
            name: "move to the root", document: #"{"a": [1, 2]}"#,
            patch: #"[{"op": "move", "from": "/a", "path": ""}]"#, result: .document("[1, 2]")),
        Example(
            name: "move an element to the end", document: "[1, 2, 3]",
            patch: #"[{"op": "move", "from": "/0", "path": "/-"}]"#, result: .document("[2, 3, 1]")),
        Example(
            name: "copy leaves the source and the copy independent", document: #"{"a": {"b": 1}}"#,
            patch: #"[{"op": "copy", "from": "/a", "path": "/c"}, {"op": "replace", "path": "/c/b", "value": 2}]"#,
            result: .document(#"{"a": {"b": 1}, "c": {"b": 2}}"#)),
        Example(
            name: "copy into an array", document: #"{"a": [1, 2]}"#,
            patch: #"[{"op": "copy", "from": "/a/1", "path": "/a/0"}]"#, result: .document(#"{"a": [2, 1, 2]}"#)),
        // Errors, each naming the operation and what is wrong
        Example(
            name: "replace of a missing member", document: #"{"a": 1}"#,
            patch: #"[{"op": "replace", "path": "/b", "value": 2}]"#,
            result: .error("patch operation 0 (replace '/b'): '/b' does not exist")),
        Example(
            name: "remove of a missing member deep down", document: #"{"a": [{"b": 1}]}"#,
            patch: #"[{"op": "remove", "path": "/a/0/c"}]"#,
            result: .error("patch operation 0 (remove '/a/0/c'): '/a/0/c' does not exist")),
        Example(
            name: "a missing parent", document: #"{"a": {}}"#,
            patch: #"[{"op": "replace", "path": "/a/b/c", "value": 1}]"#,
            result: .error("patch operation 0 (replace '/a/b/c'): '/a/b' does not exist")),
        Example(
            name: "test that fails, after operations that succeeded", document: #"{"a": 1}"#,
            patch: #"[{"op": "add", "path": "/b", "value": 2}, {"op": "test", "path": "/a", "value": 2}]"#,
            result: .error("patch operation 1 (test '/a'): test failed: value at '/a' is 1, expected 2")),
        Example(
            name: "test of a missing value", document: #"{"a": 1}"#,
            patch: #"[{"op": "test", "path": "/b", "value": null}]"#,
            result: .error("patch operation 0 (test '/b'): '/b' does not exist")),
        Example(
            name: "move into its own child", document: #"{"a": {"b": 1}}"#,
            patch: #"[{"op": "move", "from": "/a", "path": "/a/b/c"}]"#,
            result: .error("patch operation 0 (move from '/a' to '/a/b/c'): cannot move '/a' into its own child '/a/b/c'")),
        Example(
            name: "move of the root into a child", document: #"{"a": 1}"#,
            patch: #"[{"op": "move", "from": "", "path": "/b"}]"#,
            result: .error("patch operation 0 (move from '' to '/b'): cannot move '' into its own child '/b'")),
        Example(
            name: "move from a missing location", document: #"{"a": 1}"#,
            patch: #"[{"op": "move", "from": "/x", "path": "/y"}]"#,
            result: .error("patch operation 0 (move from '/x' to '/y'): '/x' does not exist")),
        Example(
            name: "copy from a missing location", document: #"{"a": [1]}"#,
            patch: #"[{"op": "copy", "from": "/a/1", "path": "/b"}]"#,
            result: .error("patch operation 0 (copy from '/a/1' to '/b'): index 1 is out of range: '/a' has 1 element")),
        Example(
            name: "move whose add fails", document: #"{"a": 1}"#,
            patch: #"[{"op": "move", "from": "/a", "path": "/b/c"}]"#,
            result: .error("patch operation 0 (move from '/a' to '/b/c'): '/b' does not exist")),
        Example(
            name: "replace past the end of an array", document: #"{"a": [1, 2]}"#,
            patch: #"[{"op": "replace", "path": "/a/2", "value": 3}]"#,
            result: .error("patch operation 0 (replace '/a/2'): index 2 is out of range: '/a' has 2 elements")),
        Example(
            name: "add beyond the length of an array", document: #"{"a": [1, 2]}"#,
            patch: #"[{"op": "add", "path": "/a/3", "value": 3}]"#,
            result: .error("patch operation 0 (add '/a/3'): index 3 is out of range: '/a' has 2 elements")),
        Example(
            name: "remove from an empty root array", document: "[]",
            patch: #"[{"op": "remove", "path": "/0"}]"#,
            result: .error("patch operation 0 (remove '/0'): index 0 is out of range: '' has 0 elements")),
        Example(
            name: "a leading zero on an array index", document: #"{"a": [1, 2]}"#,
            patch: #"[{"op": "replace", "path": "/a/01", "value": 3}]"#,
            result: .error("patch operation 0 (replace '/a/01'): '01' is not an index into the array '/a': an index has no leading zeros")),
        Example(
            name: "a leading zero on an array index on the way", document: #"{"a": [[1]]}"#,
            patch: #"[{"op": "add", "path": "/a/00/0", "value": 3}]"#,
            result: .error("patch operation 0 (add '/a/00/0'): '00' is not an index into the array '/a': an index has no leading zeros")),
        Example(
            name: "a name on an array", document: #"{"a": [1]}"#,
            patch: #"[{"op": "add", "path": "/a/x", "value": 3}]"#,
            result: .error("patch operation 0 (add '/a/x'): 'x' is not an index into the array '/a'")),
        Example(
            name: "'-' in a remove", document: #"{"a": [1]}"#,
            patch: #"[{"op": "remove", "path": "/a/-"}]"#,
            result: .error("patch operation 0 (remove '/a/-'): '-' (the end of the array '/a') can only be the last token of an add's path")),
        Example(
            name: "'-' in a replace", document: #"{"a": [1]}"#,
            patch: #"[{"op": "replace", "path": "/a/-", "value": 2}]"#,
            result: .error("patch operation 0 (replace '/a/-'): '-' (the end of the array '/a') can only be the last token of an add's path")),
        Example(
            name: "'-' in a test", document: #"{"a": [1]}"#,
            patch: #"[{"op": "test", "path": "/a/-", "value": 1}]"#,
            result: .error("patch operation 0 (test '/a/-'): '-' (the end of the array '/a') can only be the last token of an add's path")),
        Example(
            name: "'-' in a copy's from", document: #"{"a": [1]}"#,
            patch: #"[{"op": "copy", "from": "/a/-", "path": "/b"}]"#,
            result: .error("patch operation 0 (copy from '/a/-' to '/b'): '-' (the end of the array '/a') can only be the last token of an add's path")),
        Example(
            name: "'-' before the last token of an add", document: #"{"a": [[1]]}"#,
            patch: #"[{"op": "add", "path": "/a/-/0", "value": 2}]"#,
            result: .error("patch operation 0 (add '/a/-/0'): '-' (the end of the array '/a') can only be the last token of an add's path")),
        Example(
            name: "a path through a string", document: #"{"a": "text"}"#,
            patch: #"[{"op": "add", "path": "/a/b", "value": 1}]"#,
            result: .error("patch operation 0 (add '/a/b'): '/a' is a string, not an object or an array")),
        Example(
            name: "a path through null", document: #"{"a": null}"#,
            patch: #"[{"op": "test", "path": "/a/0", "value": 1}]"#,
            result: .error("patch operation 0 (test '/a/0'): '/a' is null, not an object or an array")),
        Example(
            name: "remove of the whole document", document: #"{"a": 1}"#,
            patch: #"[{"op": "remove", "path": ""}]"#,
            result: .error("patch operation 0 (remove ''): cannot remove the whole document (a patch has to leave a document)")),
    ]

    @Test(arguments: operations)
    func appliesOperationsAndNamesTheOneThatFails(_ example: Example) throws {
        try check(example)
    }

    /// Applies `example.patch` to `example.document` and compares the result or the error's description.
    private func check(_ example: Example) throws {
        let document = try JSONValue(parsing: example.document)
        let patch = try JSONPatch(jsonValue: try JSONValue(parsing: example.patch), path: "patch")
        switch example.result {
        case .document(let expected):
            #expect(try patch.apply(to: document) == JSONValue(parsing: expected))
        case .error(let expected):
            let error = #expect(throws: JSONPatchError.self) { _ = try patch.apply(to: document) }
            #expect(error?.description == expected)
        }
    }

    @Test func aFailedPatchLeavesNothingApplied() throws {
        // Given a patch whose last operation fails after two that succeed
        let document = try JSONValue(parsing: #"{"a": [1, 2], "b": {"c": 1}}"#)
        let patch = JSONPatch([
            .remove(path: [.key("a"), .index(0)]),
            .replace(path: [.key("b"), .key("c")], value: .integer(2)),
            .test(path: [.key("b"), .key("c")], value: .integer(3)),
        ])
        // When it is applied, then it throws, naming the operation, and the document is untouched
        let error = #expect(throws: JSONPatchError.self) { _ = try patch.apply(to: document) }
        #expect(error?.operationIndex == 2)
        #expect(error?.operationName == "test")
        #expect(error?.reason == .testFailed(pointer: "/b/c", actual: .integer(2), expected: .integer(3)))
        #expect(document == (try JSONValue(parsing: #"{"a": [1, 2], "b": {"c": 1}}"#)))
    }

    /// `test` values compared with the document's value `{"v": <document>}`.
    @Test(arguments: [
        // Numbers by value, whatever their spelling
        (#"1"#, #"1.0"#, true), (#"1"#, #"1e0"#, true), (#"100"#, #"1e2"#, true), (#"0"#, #"-0.0"#, true),
        (#"1"#, #"1.5"#, false), (#"-1"#, #"1"#, false),
        (#"18446744073709551615"#, #"18446744073709551615"#, true), (#"18446744073709551615"#, #"9223372036854775807"#, false),
        // Integers beyond a Double's precision compare exactly
        (#"9007199254740993"#, #"9007199254740992.0"#, false), (#"9007199254740992"#, #"9007199254740992.0"#, true),
        // Types never mix
        (#"1"#, #""1""#, false), (#"null"#, #"false"#, false), (#"0"#, #"false"#, false), (#"[]"#, #"{}"#, false),
        (#""""#, #"null"#, false),
        // Strings by code points: a precomposed é is not an e with a combining accent
        (#""\u00e9""#, #""\u00e9""#, true), (#""\u00e9""#, #""e\u0301""#, false),
        // Arrays in order, objects in any order, member names by code points
        (#"[1, [2, 3]]"#, #"[1.0, [2, 3]]"#, true), (#"[1, 2]"#, #"[2, 1]"#, false), (#"[1]"#, #"[1, 1]"#, false),
        (#"{"a": 1, "b": [true]}"#, #"{"b": [true], "a": 1.0}"#, true), (#"{"a": 1}"#, #"{"a": 1, "b": 2}"#, false),
        (#"{"a": 1}"#, #"{"a": null}"#, false), (#"{"\u00e9": 1}"#, #"{"e\u0301": 1}"#, false),
    ])
    func testComparesValuesAsJSON(_ actual: String, _ expected: String, _ isEqual: Bool) throws {
        let document = JSONValue.object(["v": try JSONValue(parsing: actual)])
        let patch = JSONPatch([.test(path: [.key("v")], value: try JSONValue(parsing: expected))])
        if isEqual {
            #expect(try patch.apply(to: document) == document)
        } else {
            #expect(throws: JSONPatchError.self) { _ = try patch.apply(to: document) }
        }
    }

    @Test func aPatchTurnsTheOldValueIntoTheNew() throws {
        let old = try JSONValue(parsing: #"{"a":[1,2,3,4,5],"b":{"c":1,"d":2},"e":"x"}"#)
        let new = try JSONValue(parsing: #"{"a":[1,5],"b":{"c":3,"f":4},"g":null}"#)
        let patch = JSONPatch(from: old, to: new)
        #expect(try patch.apply(to: old) == new)
    }

    @Test func removalsFromOneArrayApplyInDescendingOrder() throws {
        let old: JSONValue = .array((0..<10).map { .integer($0) })
        let new: JSONValue = .array((0..<4).map { .integer($0) })
        let patch = JSONPatch(from: old, to: new)
        #expect(patch.operations.first == .remove(path: [.index(9)]))
        #expect(try patch.apply(to: old) == new)
    }

    @Test func roundTripsThroughItsJSONForm() throws {
        // Given a patch with every operation
        let patch = JSONPatch([
            .add(path: [.key("todos"), .index(1)], value: .string("x")),
            .add(path: [.key("todos"), .key("-")], value: .null),
            .remove(path: [.key("a/b~c")]),
            .replace(path: [], value: .null),
            .move(from: [.key("a"), .index(0)], path: [.key("b")]),
            .copy(from: [.key("0")], path: [.key("~1")]),
            .test(path: [.key("n")], value: .double(1.5)),
        ])
        // When it is written, then it is RFC 6902's form, and reads back as the same patch
        let expected = #"""
            [{"op":"add","path":"/todos/1","value":"x"},{"op":"add","path":"/todos/-","value":null},\#
            {"op":"remove","path":"/a~1b~0c"},{"op":"replace","path":"","value":null},\#
            {"from":"/a/0","op":"move","path":"/b"},{"from":"/0","op":"copy","path":"/~01"},\#
            {"op":"test","path":"/n","value":1.5}]
            """#
        #expect(patch.jsonValue.canonicalString == expected)
        let read = try JSONPatch(jsonValue: patch.jsonValue, path: "patch")
        #expect(read.jsonValue == patch.jsonValue)
    }

    @Test func theRecordedDeltaSessionReadsAndRecordsTheSamePatches() throws {
        // Given the sample session recorded with delta snapshots
        let file = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("samples/sessions/todos-delta.jsonl")
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
        var state = try #require(try JSONValue(parsing: String(lines[0]))["initialState"])
        var patchLines = 0
        for line in lines.dropFirst() {
            let event = try JSONValue(parsing: String(line))
            if let recorded = event["patch"] {
                // When its patch is read and applied
                let next = try JSONPatch(jsonValue: recorded, path: "patch").apply(to: state)
                // Then the patch made from the two states today is the one recorded, byte for byte
                #expect(JSONPatch(from: state, to: next).jsonValue.canonicalBytes() == recorded.canonicalBytes())
                state = next
                patchLines += 1
            } else if let full = event["state"] {
                state = full
            }
        }
        #expect(patchLines > 20)
    }

    @Test func randomPairsRoundTrip() throws {
        // Given pairs of related random arrays and objects
        var seed: UInt64 = 7
        func next() -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(seed >> 33)
        }
        for _ in 0..<200 {
            let old: JSONValue = .object(["list": .array((0..<(next() % 8)).map { _ in .integer(Int64(next() % 5)) }), "n": .integer(1)])
            let new: JSONValue = .object(["list": .array((0..<(next() % 8)).map { _ in .integer(Int64(next() % 5)) }), "m": .bool(true)])
            // When patched, then the result is the new value
            #expect(try JSONPatch(from: old, to: new).apply(to: old) == new)
        }
    }

    /// Keys that differ only by Unicode normalization are different members: the patch removes one and adds the
    /// other, the removal first whichever sorts first, since one object cannot hold both.
    @Test(arguments: [
        ("{\"\u{E9}\":1}", "{\"e\u{301}\":1}"), ("{\"e\u{301}\":1}", "{\"\u{E9}\":1}"),
        ("{\"x\":[{\"\u{E9}\":1,\"k\":2}]}", "{\"x\":[{\"e\u{301}\":1,\"k\":2}]}"),
        ("{\"x\":{\"\u{E9}\":{\"a\":1}}}", "{\"x\":{\"\u{E9}\":{\"a\":1},\"y\":{\"e\u{301}\":2}}}"),
    ])
    func aPatchBetweenKeysThatDifferOnlyByNormalizationRemovesOneAndAddsTheOther(_ oldText: String, _ newText: String) throws {
        let old = try JSONValue(parsing: oldText)
        let new = try JSONValue(parsing: newText)

        let patch = JSONPatch(from: old, to: new)

        #expect(!patch.isEmpty)
        #expect(try patch.apply(to: old) == new)
    }

    @Test func thePatchOfARenormalizedKeyIsARemovalThenAnAddition() throws {
        let patch = JSONPatch(from: .object(["\u{E9}": .integer(1)]), to: .object(["e\u{301}": .integer(1)]))
        #expect(patch.operations == [.remove(path: [.key("\u{E9}")]), .add(path: [.key("e\u{301}")], value: .integer(1))])
    }

    @Test func operationsFindMembersByTheirKeysCodePoints() throws {
        let document = JSONValue.object(["\u{E9}": .object(["a": .integer(1)])])
        for operation: JSONPatch.Operation in [
            .remove(path: [.key("e\u{301}")]), .replace(path: [.key("e\u{301}")], value: .null),
            .test(path: [.key("e\u{301}"), .key("a")], value: .integer(1)),
            .copy(from: [.key("e\u{301}")], path: [.key("b")]),
        ] {
            let error = #expect(throws: JSONPatchError.self) { try JSONPatch([operation]).apply(to: document) }
            #expect(error?.reasonDescription.hasPrefix("'/e\u{301}") == true, "\(operation)")
        }
        let error = #expect(throws: JSONPatchError.self) {
            try JSONPatch([.add(path: [.key("e\u{301}")], value: .null)]).apply(to: document)
        }
        #expect(
            error?.reasonDescription
                == "cannot add '/e\u{301}': its object holds the key U+00E9, the same text in another Unicode normalization, and cannot hold both"
        )
    }
}
