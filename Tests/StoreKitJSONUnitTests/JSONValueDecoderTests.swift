import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import Testing

private struct Todo: Codable, Equatable {
    var id: Int
    var title: String
    var isComplete: Bool
}

private struct Todos: Codable, Equatable {
    var todos: [Todo]
}

@Suite struct JSONValueDecoderTests {
    struct Failure: Sendable, CustomTestStringConvertible {
        let json: String
        let path: String
        let summary: String
        var testDescription: String { json }
    }

    static let failures: [Failure] = [
        Failure(
            json: #"{"todos":[{"id":1,"title":"a","isComplete":"yes"}]}"#, path: "todos[0].isComplete",
            summary: "expected a boolean, found string"),
        Failure(json: #"{"todos":[{"id":1,"isComplete":true}]}"#, path: "todos[0].title", summary: "missing key 'title'"),
        Failure(
            json: #"{"todos":[{"id":1.5,"title":"a","isComplete":true}]}"#, path: "todos[0].id",
            summary: "1.5 does not fit in Int"),
        Failure(json: #"{"todos":{}}"#, path: "todos", summary: "expected an array, found object"),
    ]

    @Test(arguments: failures)
    func failuresNameTheExactPath(_ failure: Failure) throws {
        let json = try JSONValue(parsing: failure.json)
        let error = #expect(throws: DecodingError.self) { _ = try JSONValueDecoder().decode(Todos.self, from: json) }
        #expect(error?.jsonPath == failure.path)
        #expect(error?.summary == failure.summary)
    }

    @Test func aRenamedEnumCaseSaysSo() throws {
        enum Action: Codable { case add(Int) }
        let error = #expect(throws: DecodingError.self) {
            _ = try JSONValueDecoder().decode(Action.self, from: try JSONValue(parsing: #"{"plus":{"_0":1}}"#))
        }
        #expect(error?.summary.hasPrefix("no enum case matches") == true)
    }

    @Test func decodesIntegersFromExactDoublesOnly() throws {
        #expect(try JSONValueDecoder().decode(Int.self, from: .double(3.0)) == 3)
        #expect(throws: DecodingError.self) { _ = try JSONValueDecoder().decode(UInt8.self, from: .integer(300)) }
    }
}
