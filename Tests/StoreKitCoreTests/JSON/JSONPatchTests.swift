import StoreKitCore
import Testing

@Suite struct JSONPatchTests {
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
        let patch = JSONPatch([
            .add(path: [.key("todos"), .index(1)], value: .string("x")),
            .remove(path: [.key("a/b~c")]),
            .replace(path: [], value: .null),
        ])
        #expect(patch.jsonValue.canonicalString.contains(#""path":"/a~1b~0c""#))
        #expect(try JSONPatch(jsonValue: patch.jsonValue, path: "patch") == patch)
    }

    @Test func aPathThatDoesNotFitIsAnError() throws {
        let patch = JSONPatch([.replace(path: [.key("todos"), .index(7)], value: .null)])
        let error = #expect(throws: JSONPatchError.self) { _ = try patch.apply(to: .object(["todos": .array([])])) }
        #expect(error?.description == "patch operation 0: path '/todos/7' does not exist in the previous state")
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
}
