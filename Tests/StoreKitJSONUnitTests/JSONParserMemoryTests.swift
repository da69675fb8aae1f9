import StoreKitCore
import StoreKitJSON
import Testing

/// A parser that keeps what it learned from document to document reads each as a fresh parser does, and can say
/// where a top-level member's value lies.
@Suite struct JSONParserMemoryTests {
    static let documents = [
        #"{"kind":"action","seq":1,"state":{"count":1,"step":1}}"#,
        #"{"kind":"action","seq":2,"state":{"count":2,"step":1}}"#,
        #"{"kind":"action","seq":3,"state":{"step":1,"count":3,"extra":[{"a":1},{"a":2,"b":3}]}}"#,
        #"{"kind":"gap","from":4,"to":5}"#,
        #"{"kind":"action","seq":6,"state":{"count":"USD","step":null}}"#,
        #"{"kind":"action","seq":6,"state":{"count":"USD","step":null},"seq":7}"#,
        #"[{"count":1,"step":1},{"count":2},{"count":3,"step":1,"more":true}]"#,
    ]

    @Test func documentsParseAsAFreshParserParsesThem() {
        var memory = JSONParserMemory()
        for _ in 0..<2 {
            for document in Self.documents {
                let fresh = Result { () throws(JSONParseError) in try JSONValue(parsing: document) }
                let remembering = Result { () throws(JSONParseError) in try JSONParser().parse(Array(document.utf8), memory: &memory) }
                switch (fresh, remembering) {
                case (.success(let expected), .success(let value)): #expect(value == expected, "\(document)")
                case (.failure(let expected), .failure(let error)): #expect(error == expected, "\(document)")
                default: Issue.record("\(document): \(fresh) but \(remembering)")
                }
            }
        }
    }

    @Test func theLocatedMemberIsTheTopLevelOnesBytes() throws {
        var memory = JSONParserMemory()
        let document = #"{"action":{"state":1},"kind":"action", "state" : {"count":2 ,"step":[1]} ,"time":0.5}"#
        let bytes = Array(document.utf8)

        let (value, range) = try JSONParser().parse(bytes, memory: &memory, locatingMember: "state")

        #expect(value["kind"] == .string("action"))
        let located = try #require(range)
        #expect(String(decoding: bytes[located], as: UTF8.self) == #"{"count":2 ,"step":[1]}"#)
        #expect(try JSONParser().parse(bytes, memory: &memory, locatingMember: "patch").member == nil)
        #expect(try JSONParser().parse(Array(#"[{"state":1}]"#.utf8), memory: &memory, locatingMember: "state").member == nil)
    }
}
