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

    /// Reads the coding paths its decoder and containers report, at every depth.
    private struct PathReader: Decodable {
        var paths: [String]

        init(from decoder: any Decoder) throws {
            paths = [Self.text(decoder.codingPath)]
            let keyed = try decoder.container(keyedBy: NameKey.self)
            paths.append(Self.text(keyed.codingPath))
            if keyed.contains(NameKey("inner")) {
                let inner = try keyed.decode([PathReader].self, forKey: NameKey("inner"))
                paths += inner.flatMap(\.paths)
                var list = try keyed.nestedUnkeyedContainer(forKey: NameKey("inner"))
                paths.append(Self.text(list.codingPath))
                let element = try list.nestedContainer(keyedBy: NameKey.self)
                paths.append(Self.text(element.codingPath))
                paths.append(Self.text(try keyed.superDecoder(forKey: NameKey("inner")).codingPath))
            }
        }

        static func text(_ path: [any CodingKey]) -> String {
            path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
    }

    private struct NameKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    @Test func decodersAndContainersReportTheirWholePathAtEveryDepth() throws {
        let json = try JSONValue(parsing: #"{"inner":[{"inner":[{}]},{}]}"#)
        let reader = try JSONValueDecoder().decode(PathReader.self, from: json)
        #expect(reader.paths == [
            "", "",
            ".inner[0]", ".inner[0]", ".inner[0].inner[0]", ".inner[0].inner[0]", ".inner[0].inner", ".inner[0].inner[0]",
            ".inner[0].inner",
            ".inner[1]", ".inner[1]",
            ".inner", ".inner[0]", ".inner",
        ])
    }

    @Test func readingPastTheEndOfAnArrayNamesTheMissingElement() throws {
        struct Pair: Decodable {
            init(from decoder: any Decoder) throws {
                var list = try decoder.container(keyedBy: NameKey.self).nestedUnkeyedContainer(forKey: NameKey("pair"))
                _ = try list.decode(Int.self)
                _ = try list.decode(Int.self)
            }
        }
        let error = #expect(throws: DecodingError.self) {
            _ = try JSONValueDecoder().decode([Pair].self, from: try JSONValue(parsing: #"[{"pair":[1,2]},{"pair":[1]}]"#))
        }
        #expect(error?.jsonPath == "[1].pair[1]")
        #expect(error?.summary == "the array has only 1 elements")
    }
}
