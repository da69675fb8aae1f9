import StoreKitCore
import StoreKitJSON
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
        #expect(JSONLineScannerBoundaryTests.agree(Array(line.utf8)))
    }

    @Test func refusesDuplicateKeysAtAnyDepthAsTheParserDoes() {
        let keys = (0..<20).map { #""key\#($0)":\#($0)"# }
        for (line, valid) in [
            (#"{"a":{"b":1,"b":2}}"#, false), (#"{"a":[1,{"b":1,"c":{"d":[],"d":{}}}]}"#, false),
            (#"{"a":{"a":{"a":1}},"b":{"a":2}}"#, true), (#"{"a":{"b":1,"c":2},"d":{"b":3,"c":4}}"#, true),
            // Larger objects are sorted rather than compared pair by pair.
            ("{\(keys.joined(separator: ","))}", true), ("{\"x\":{\(keys.joined(separator: ","))}}", true),
            ("{\"x\":{\(keys.joined(separator: ",")),\"key0\":1}}", false),
            ("{\"x\":{\(keys.joined(separator: ",")),\"key19\":1}}", false),
            ("{\"x\":{\(keys.joined(separator: ",")),\"key20\":{\(keys.joined(separator: ","))}}}", true),
        ] {
            #expect(JSONLineScannerBoundaryTests.agree(Array(line.utf8)), "\(line)")
            var scanner = JSONLineScanner()
            #expect(Array(line.utf8).withUnsafeBufferPointer { scanner.scanObject($0) } == valid, "\(line)")
        }
    }

    @Test func leavesKeysWithAnEscapeOrANonASCIIByteToTheParser() {
        // Keys the parser tells apart only as strings: an escape can spell a plain key, and two spellings of one
        // accented letter are the same Swift String.
        for line in [#"{"a":1,"\u0061":2}"#, #"{"s":{"a":1,"\u0061":2}}"#, "{\"caf\u{E9}\":1,\"cafe\u{301}\":2}", #"{"\n":1}"#, "{\"\u{E9}\":1}"] {
            var scanner = JSONLineScanner()
            #expect(!Array(line.utf8).withUnsafeBufferPointer { scanner.scanObject($0) }, "\(line)")
            #expect(scanner.metUncomparableKey, "\(line)")
        }
        // Escapes and non-ASCII bytes in values are the scanner's own to check.
        var scanner = JSONLineScanner()
        #expect(Array(#"{"a":"\u0061é","b":["\n"]}"#.utf8).withUnsafeBufferPointer { scanner.scanObject($0) })
        #expect(!scanner.metUncomparableKey)
        #expect(!Array(#"{"a":1,}"#.utf8).withUnsafeBufferPointer { scanner.scanObject($0) })
        #expect(!scanner.metUncomparableKey)
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

/// The scanner reads without bounds checks up to the line's closing `}`, and 8 bytes at a time in strings: these
/// put every kind of token against that `}` and against the 8-byte steps.
@Suite struct JSONLineScannerBoundaryTests {
    /// Whether the scanner and the parser agree that `line` is a valid object, or the scanner left it to the parser
    /// because of a key it cannot compare by bytes.
    static func agree(_ line: [UInt8], maxDepth: Int = JSONParser.Limits().maxDepth) -> Bool {
        var scanner = JSONLineScanner(maxDepth: maxDepth)
        let scanned = line.withUnsafeBufferPointer { scanner.scanObject($0) }
        let parsed: Bool
        if case .object? = try? JSONParser(limits: JSONParser.Limits(maxDepth: maxDepth)).parse(line) {
            parsed = true
        } else {
            parsed = false
        }
        return scanned == parsed || (parsed && scanner.metUncomparableKey)
    }

    /// Lines that end, or break off, on the byte before the closing `}`.
    static let linesEndingAtTheClosingBrace: [String] = [
        #"{"a":"abc}"#, #"{"a":"abcdefghijk}"#, #"{"abcdefghij}"#, #"{"a":12}"#, #"{"a":-}"#, #"{"a":1.}"#,
        #"{"a":1e}"#, #"{"a":1e+}"#, #"{"a":1.5e3}"#, #"{"a":0}"#, #"{"a":-0.0}"#, #"{"a":t}"#, #"{"a":tru}"#,
        #"{"a":fals}"#, #"{"a":nul}"#, #"{"a":true}"#, #"{"a":null}"#, #"{"a":"\}"#, #"{"a":"\u12}"#,
        #"{"a":"\ud800\}"#, #"{"a":"\ud800\u}"#, #"{"a":"\ud800\udc0}"#, #"{"a":{}"#, #"{"a":{"b":1}"#, #"{"a":[]}"#,
        #"{"a":[}"#, #"{"a":[{}"#, #"{"a":[{"b":{}"#, #"{"a":1 }"#, "{\"a\":1\t}", #"{"":1}"#, #"{"":1,"":2}"#,
        #"{"a":"x"} }"#, #"{}}"#, #"}"#, #" }"#, #"{ }"#, "\t{ \"a\" : [ 1 , 2 ] }\r\n ",
    ]

    @Test(arguments: linesEndingAtTheClosingBrace)
    func agreesWithTheParserAtTheClosingBrace(line: String) {
        #expect(Self.agree(Array(line.utf8)))
    }

    @Test func agreesWithTheParserOnEveryTruncationClosedByABrace() {
        let lines = [
            #"{"action":{"restock":{"amount":1,"index":7}},"kind":"action","seq":-12.5e-3,"ok":[true,false,null]}"#,
            #"{"a":"é😀\u00e9\ud83d\ude00\n\"","b":[1,{"c":"long text over eight bytes"}],"d":0.25E+2}"#,
        ]
        for line in lines {
            let bytes = Array(line.utf8)
            for length in 0...bytes.count {
                let prefix = Array(bytes[..<length])
                #expect(Self.agree(prefix + Array("}".utf8)), "\(String(decoding: prefix, as: UTF8.self))}")
                #expect(Self.agree(prefix), "\(String(decoding: prefix, as: UTF8.self))")
            }
        }
    }

    @Test func agreesWithTheParserWhereverAnEscapeOrASequenceCrossesAnEightByteStep() {
        let sequences: [[UInt8]] = [
            Array(#"\u00e9"#.utf8), Array(#"\ud83d\ude00"#.utf8), Array(#"\ud83d"#.utf8), Array(#"\ude00"#.utf8),
            Array(#"\ud83dx"#.utf8), Array("€".utf8), Array("😀".utf8), [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xED, 0xA0, 0x80],
            [0xE0, 0x80, 0x80], [0xF4, 0x90, 0x80, 0x80],
        ]
        for sequence in sequences {
            for offset in 0..<20 {
                let text = [UInt8](repeating: UInt8(ascii: "a"), count: offset) + sequence
                // The string closed, or broken off by the line's closing brace.
                #expect(Self.agree(Array(#"{"k":""#.utf8) + text + Array(#"","z":1}"#.utf8)), "\(sequence) at \(offset)")
                #expect(Self.agree(Array(#"{"k":""#.utf8) + text + Array("}".utf8)), "\(sequence) at \(offset), cut")
            }
        }
    }

    @Test func acceptsNestingUpToTheLimitAndNoDeeper() {
        let limit = JSONParser.Limits().maxDepth
        for depth in [limit - 1, limit, limit + 1] {
            // The object itself is one level; the arrays inside it make up the rest.
            let arrays = depth - 1
            let line = Array(("{\"a\":" + String(repeating: "[", count: arrays) + String(repeating: "]", count: arrays) + "}").utf8)
            var scanner = JSONLineScanner()
            #expect(line.withUnsafeBufferPointer { scanner.scanObject($0) } == (depth <= limit), "depth \(depth)")
            #expect(Self.agree(line), "depth \(depth)")
        }
        var shallow = JSONLineScanner(maxDepth: 2)
        #expect(Array(#"{"a":{"b":{}}}"#.utf8).withUnsafeBufferPointer { !shallow.scanObject($0) })
        #expect(Array(#"{"a":{"b":[]}}"#.utf8).withUnsafeBufferPointer { !shallow.scanObject($0) })
        #expect(Array(#"{"a":{"b":1},"c":[2]}"#.utf8).withUnsafeBufferPointer { shallow.scanObject($0) })
    }

    @Test func reportsMembersWithoutTheWhitespaceAroundThem() {
        var scanner = JSONLineScanner()
        let line = Array(" {\t\"k\" : \"v\" ,\"\":1.5e2 , \"n\":{\"x\":[]}\n}\r\n".utf8)
        #expect(line.withUnsafeBufferPointer { scanner.scanObject($0) })
        let members = scanner.members.map { (String(decoding: line[$0.key], as: UTF8.self), String(decoding: line[$0.value], as: UTF8.self), $0.type) }
        #expect(members.map(\.0) == ["k", "", "n"])
        #expect(members.map(\.1) == [#""v""#, "1.5e2", #"{"x":[]}"#])
        #expect(members.map(\.2) == [.string, .number, .object])
    }

    @Test func tellsKeysOfOneLengthApart() {
        var scanner = JSONLineScanner()
        for (line, valid) in [
            (#"{"kind":1,"name":2,"time":3}"#, true), (#"{"kind":1,"kine":2}"#, true), (#"{"kind":1,"x":2,"kind":3}"#, false),
            (#"{"":1,"":2}"#, false), (#"{"a\"":1,"a\"":2}"#, false), (#"{"ab":1,"a":{"ab":2}}"#, true),
        ] {
            #expect(Array(line.utf8).withUnsafeBufferPointer { scanner.scanObject($0) } == valid, "\(line)")
        }
    }
}
