import StoreKitCore
import Testing

@Suite struct JSONPathTests {
    @Test(arguments: [
        (JSONPath(), "(root)"),
        ([.key("todos"), .index(0), .key("isComplete")], "todos[0].isComplete"),
        ([.key("my key"), .key("_ok1")], #"["my key"]._ok1"#),
        ([.index(3)], "[3]"),
    ] as [(JSONPath, String)])
    func rendersLikeSwiftCode(_ path: JSONPath, _ text: String) {
        #expect(path.description == text)
    }
}
