import StoreKitCore
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
    ] as [(JSONPath, String)])
    func rendersLikeSwiftCode(_ path: JSONPath, _ text: String) {
        #expect(path.description == text)
    }
}
