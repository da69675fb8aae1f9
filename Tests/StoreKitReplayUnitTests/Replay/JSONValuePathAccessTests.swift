import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import Testing

/// Reading and replacing the value at a path as ``StateDiff`` names it: members, indices, elements by id, map keys.
@Suite struct JSONValuePathAccessTests {
    let state: JSONValue = .object([
        "todos": .array([
            .object(["id": .integer(7), "done": .bool(false)]),
            .object(["id": .integer(9), "done": .bool(true)]),
        ]),
        "counts": .array([.string("a"), .integer(1), .string("b"), .integer(2)]),
    ])

    @Test func readsByMemberIndexIdAndMapKey() {
        #expect(state.value(at: [.key("todos"), .identified(.integer(9)), .key("done")]) == .bool(true))
        #expect(state.value(at: [.key("todos"), .index(0), .key("id")]) == .integer(7))
        #expect(state.value(at: [.key("counts"), .mapKey(.string("b"))]) == .integer(2))
        #expect(state.value(at: [.key("todos"), .identified(.integer(8))]) == nil)
        #expect(state.value(at: [.key("missing")]) == nil)
    }

    @Test func replacesOnlyTheValueAtThePath() {
        let replaced = state.replacing(at: [.key("todos"), .identified(.integer(9)), .key("done")], with: .bool(false))
        #expect(replaced?.value(at: [.key("todos"), .index(1), .key("done")]) == .bool(false))
        #expect(replaced?.value(at: [.key("todos"), .index(0)]) == state.value(at: [.key("todos"), .index(0)]))
        #expect(replaced?["counts"] == state["counts"])
        let counted = state.replacing(at: [.key("counts"), .mapKey(.string("a"))], with: .integer(5))
        #expect(counted?["counts"] == .array([.string("a"), .integer(5), .string("b"), .integer(2)]))
        #expect(state.replacing(at: [.key("todos"), .index(5)], with: .null) == nil)
    }
}
