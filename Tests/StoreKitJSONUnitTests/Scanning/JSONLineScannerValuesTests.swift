import StoreKitJSON
import Testing

@Suite struct JSONLineScannerValuesTests {
    /// Each member's value as `JSONLineScanner.value(of:in:memory:recent:)` builds it and as the parser parses its
    /// bytes, with the kind of each (an integer is not a double, though they compare equal as JSON).
    private func valuesBothWays(_ line: String) -> (scanned: [String], parsed: [String]) {
        let bytes = Array(line.utf8)
        var scanner = JSONLineScanner()
        var memory = JSONParserMemory()
        var recent = RecentValues()
        return bytes.withUnsafeBufferPointer { buffer in
            guard scanner.scanObject(buffer) else {
                Issue.record("not scanned: \(line)")
                return ([], [])
            }
            let scanned = scanner.members.map { member in
                String(reflecting: JSONLineScanner.value(of: member, in: buffer, memory: &memory, recent: &recent))
            }
            let parsed = scanner.members.map { member in
                String(reflecting: try? JSONParser().parse(buffer[member.value]))
            }
            return (scanned, parsed)
        }
    }

    @Test func eachMemberIsTheValueTheParserGivesForItsBytes() {
        let lines = [
            #"{"a":0,"b":7,"c":123456789012345678,"d":1234567890123456789,"e":99999999999999999999}"#,
            #"{"a":-1,"b":-0,"c":0.5,"d":-0.25,"e":1.0,"f":0.001,"g":12345.6789,"h":1e3,"i":2.5E-3,"j":-7e+2}"#,
            #"{"a":9007199254740993.0,"b":0.1234567890123456789,"c":1234567890.1234567890123,"d":1.7976931348623157e308}"#,
            #"{"a":"","b":"plain","c":"caf\u00e9","d":"tab\tnew\nline","e":"\ud83d\ude00","f":"é ✓ 😀"}"#,
            #"{"a":true,"b":false,"c":null,"d":{},"e":[],"f":{"x":[1,{"y":null}]},"g":[1,"two",3.0]}"#,
        ]
        for line in lines {
            let (scanned, parsed) = valuesBothWays(line)
            #expect(scanned == parsed, "\(line)")
            #expect(!scanned.contains("nil"))
        }
    }

    @Test func theSameBytesAgainGiveAValueSharingItsStorage() throws {
        var recent = RecentValues()
        var memory = JSONParserMemory()
        func value(_ text: String) throws -> JSONValue {
            let bytes = Array(text.utf8)
            return try #require(bytes.withUnsafeBufferPointer { buffer in
                recent.value(for: buffer) { try? JSONParser().parse(buffer, memory: &memory) }
            })
        }
        let increment = try value(#"{"increment":{}}"#)
        #expect(try value(#"{"increment":{}}"#).sharesStorage(with: increment))
        #expect(!(try value(#"{"decrement":{}}"#).sharesStorage(with: increment)))
        // Equal values parsed apart are equal but do not share their storage
        let apart = try JSONParser().parse(Array(#"{"increment":{}}"#.utf8))
        #expect(apart == increment)
        #expect(!apart.sharesStorage(with: increment))

        // Four more kinds push out the one met least recently: increment, met before the other three
        _ = try value(#"{"decrement":{}}"#)
        for kind in ["a", "b", "c"] { _ = try value(#"{"\#(kind)":{}}"#) }
        #expect(!(try value(#"{"increment":{}}"#).sharesStorage(with: increment)))
        // A value longer than those kept is built each time
        let long = #"{"text":""# + String(repeating: "x", count: RecentValues.longestKept) + #""}"#
        #expect(!(try value(long).sharesStorage(with: try value(long))))
    }
}
