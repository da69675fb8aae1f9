import StoreKitCore
import Testing

@Suite struct JSONLineScannerTests {
    /// Lines on which the scanner must agree with the full parser about being a valid object.
    static let lines: [String] = [
        #"{}"#, #" {"a":1} "#, #"{"a":[1,2,{"b":null}],"c":"\u00e9\ud83d\ude00","d":-0.5e+10,"e":true,"f":false}"#,
        #"{"a":"é😀"}"#, #"[1]"#, #""text""#, #"{"a":1,}"#, #"{"a" 1}"#, #"{"a":01}"#, #"{"a":1.}"#, #"{"a":-}"#,
        #"{"a":"\x"}"#, #"{"a":"\ud800"}"#, #"{"a":"\udc00\ud800"}"#, #"{"a":NaN}"#, #"{"a":tru}"#, #"{"a":1}x"#,
        #"{"a":1,"a":2}"#, "{\"a\":\"tab\there\"}", #"{"a":[1,2}"#, #"{"a":{"b":1}"#, #"{"#, "",
        // Found by Fuzz/run.sh daemon-lines: numbers beyond a Double's range, which the parser rejects.
        #"{"a":0.001e30803}"#, #"{"a":-1E309}"#, #"{"a":1e308}"#, #"{"a":1e-400}"#,
        "{\"a\":\(String(repeating: "9", count: 400))}", "{\"a\":\(String(repeating: "9", count: 300))}",
    ]

    @Test(arguments: lines)
    func agreesWithTheParserOnWhatIsAValidObject(line: String) {
        var scanner = JSONLineScanner()
        let scanned = Array(line.utf8).withUnsafeBufferPointer { scanner.scanObject($0) }
        let parsed: Bool
        if case .object? = try? JSONValue(parsing: line) { parsed = true } else { parsed = false }
        #expect(scanned == parsed)
    }

    @Test func agreesWithTheParserWhereverASpecialByteFallsInAString() {
        // The scanner skips plain ASCII 8 bytes at a time; a special byte at any offset must still be seen.
        let specials: [[UInt8]] = [[0x01], [0x1F], Array(#"\""#.utf8), Array(#"\n"#.utf8), Array("é".utf8), [0xC0, 0x80], [0xFF], [0x7F]]
        for special in specials {
            for offset in 0..<20 {
                let text = [UInt8](repeating: UInt8(ascii: "a"), count: offset) + special + [UInt8](repeating: UInt8(ascii: "b"), count: 9)
                let line = Array(#"{"k":""#.utf8) + text + Array(#""}"#.utf8)
                var scanner = JSONLineScanner()
                let scanned = line.withUnsafeBufferPointer { scanner.scanObject($0) }
                let parsed = (try? JSONValue(parsing: line)) != nil
                #expect(scanned == parsed, "special \(special) at \(offset)")
            }
        }
    }

    @Test func rejectsInvalidUTF8AndTooDeepNesting() {
        var scanner = JSONLineScanner(maxDepth: 3)
        let invalid: [UInt8] = Array(#"{"a":""#.utf8) + [0xC0, 0x80] + Array(#""}"#.utf8)
        #expect(!invalid.withUnsafeBufferPointer { scanner.scanObject($0) })
        #expect(Array(#"{"a":[[1]]}"#.utf8).withUnsafeBufferPointer { scanner.scanObject($0) })
        #expect(!Array(#"{"a":[[[1]]]}"#.utf8).withUnsafeBufferPointer { scanner.scanObject($0) })
    }

    @Test func reportsTheTopLevelMembersWithTheirTypes() {
        var scanner = JSONLineScanner()
        let line = Array(#"{"kind":"action","seq":12,"state":{"x":[1]},"ok":null}"#.utf8)
        #expect(line.withUnsafeBufferPointer { scanner.scanObject($0) })
        let members = scanner.members.map { (String(decoding: line[$0.key], as: UTF8.self), String(decoding: line[$0.value], as: UTF8.self), $0.type) }
        #expect(members.map(\.0) == ["kind", "seq", "state", "ok"])
        #expect(members.map(\.1) == [#""action""#, "12", #"{"x":[1]}"#, "null"])
        #expect(members.map(\.2) == [.string, .number, .object, .null])
    }
}
