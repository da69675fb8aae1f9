import Foundation
import SampleSupport
import StoreKitCore
import StoreKitJSON
import Testing

@Suite struct JSONLineMemoryTests {
    /// Scans `lines` in order with one memory, and each alone without; returns both verdicts and member lists.
    private func scanWithAndWithout(
        _ lines: [[UInt8]], maxDepth: Int = JSONParser.Limits().maxDepth
    ) -> (with: [[JSONLineScanner.Member]?], without: [[JSONLineScanner.Member]?]) {
        let memory = JSONLineMemory()
        var remembering = JSONLineScanner(maxDepth: maxDepth)
        var alone = JSONLineScanner(maxDepth: maxDepth)
        var with: [[JSONLineScanner.Member]?] = []
        var without: [[JSONLineScanner.Member]?] = []
        for line in lines {
            line.withUnsafeBufferPointer { bytes in
                with.append(remembering.scanObject(bytes, memory: memory) ? remembering.members : nil)
                without.append(alone.scanObject(bytes) ? alone.members : nil)
            }
        }
        return (with, without)
    }

    /// The index of the first line whose verdict or members differ between the two scans, or `nil`.
    private static func firstDisagreement(
        _ with: [[JSONLineScanner.Member]?], _ without: [[JSONLineScanner.Member]?]
    ) -> Int? {
        guard with.count == without.count else { return min(with.count, without.count) }
        return zip(with, without).enumerated().first { $0.element.0 != $0.element.1 }?.offset
    }

    private static func sampleSessionLines() throws -> [[UInt8]] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("samples/sessions")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().flatMap { name in
            try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
                .split(separator: "\n").map { Array($0.utf8) }
        }
    }

    @Test func theSampleSessionsScanTheSameWithAndWithoutMemory() throws {
        let lines = try Self.sampleSessionLines()
        let (with, without) = scanWithAndWithout(lines)
        #expect(with.count > 200)
        #expect(with.allSatisfy { $0 != nil })
        #expect(Self.firstDisagreement(with, without) == nil)
    }

    @Test func changedCopiesOfEachLineScanTheSameWithAndWithoutMemory() throws {
        // Each sample line, then copies of it with one byte changed, inserted or removed at a random place: most
        // stay close to the line before, so the memory recalls parts of them, and many are invalid.
        var random = SeededRandom(seed: 7)
        let bytes: [UInt8] = Array(#"{}[]",:0123456789.eE+-\ untrfasl"#.utf8) + [0x00, 0x1F, 0xC3, 0xA9, 0xED, 0xFF]
        var lines: [[UInt8]] = []
        for line in try Self.sampleSessionLines() {
            lines.append(line)
            for _ in 0..<6 {
                var copy = line
                let place = Int.random(in: 0..<copy.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: copy[place] = bytes.randomElement(using: &random)!
                case 1: copy.insert(bytes.randomElement(using: &random)!, at: place)
                default: copy.remove(at: place)
                }
                lines.append(copy)
            }
        }
        let (with, without) = scanWithAndWithout(lines)
        #expect(without.contains { $0 == nil })
        #expect(Self.firstDisagreement(with, without) == nil)
    }

    @Test func linesThatReplaceOnlyStringsAndNumbersScanTheSameWithAndWithoutMemory() throws {
        // Each sample line, then a chain of copies of it, each the one before with a few of its strings, numbers,
        // booleans and nulls replaced by others (longer, shorter, of another type, with escapes and multi-byte
        // characters): each copy differs from the one before in values only, as most lines of a session do.
        var random = SeededRandom(seed: 11)
        var lines: [[UInt8]] = []
        for line in try Self.sampleSessionLines() {
            var value = try JSONValue(parsing: line)
            lines.append(line)
            for _ in 0..<4 {
                value = Self.replacingSomeScalars(of: value, using: &random)
                lines.append(value.canonicalBytes())
            }
        }
        let (with, without) = scanWithAndWithout(lines)
        #expect(with.count > 1000)
        #expect(with.allSatisfy { $0 != nil })
        #expect(Self.firstDisagreement(with, without) == nil)
    }

    @Test func aScalarReplacedByInvalidBytesIsFoundInTheLineAfter() {
        // Each second line replaces a value of the first with bytes that are no valid value, or that run into
        // what follows; the third line repeats the first, so the memory must still hold the first.
        let first = #"{"a":12,"b":{"c":"xy","d":[true,null]},"e":1.5}"#
        let broken = [
            #"{"a":012,"b":{"c":"xy","d":[true,null]},"e":1.5}"#, #"{"a":1.,"b":{"c":"xy","d":[true,null]},"e":1.5}"#,
            #"{"a":12,"b":{"c":"x\q","d":[true,null]},"e":1.5}"#, #"{"a":12,"b":{"c":"x"y","d":[true,null]},"e":1.5}"#,
            #"{"a":12,"b":{"c":"xy","d":[tru,null]},"e":1.5}"#, #"{"a":12,"b":{"c":"xy","d":[true,nul]},"e":1.5}"#,
            #"{"a":12,"b":{"c":"xy","d":[true,null]},"e":1.5e}"#, #"{"a":12,"b":{"c":"xy","d":[true,null]},"e":-}"#,
            #"{"a":12,"b":{"c":"xy","d":[true,nullx]},"e":1.5}"#, #"{"a":12 3,"b":{"c":"xy","d":[true,null]},"e":1.5}"#,
            "{\"a\":12,\"b\":{\"c\":\"x\u{1}\",\"d\":[true,null]},\"e\":1.5}",
            #"{"a":12,"b":{"c":"xy","d":[true,null]},"e":1.5,}"#, #"{"a":12,"b":{"c":"xy","d":[true,null]},"e":1.5"#,
            #"{"a":12,"b":{"c":"xy","c":[true,null]},"e":1.5}"#, #"{"a":12,"b":{"c":"xy","d":[true,{}]},"e":1.5}"#,
        ]
        for line in broken {
            let (with, without) = scanWithAndWithout([first, line, first].map { Array($0.utf8) })
            #expect(with.map { $0 != nil } == [true, without[1] != nil, true], "\(line)")
            #expect(Self.firstDisagreement(with, without) == nil, "\(line)")
        }
    }

    @Test func placesMovedByLongerValuesAreRecalledRightInTheLinesAfter() {
        // The second line lengthens and shortens values before and inside containers, so every remembered place
        // moves; the third changes a container's shape, so the scan recalls the others at their moved places; the
        // fourth breaks a recalled one's neighbour.
        let lines = [
            #"{"a":1,"b":{"c":[1,2],"d":"x"},"e":[3,{"f":4}],"g":"t"}"#,
            #"{"a":1000,"b":{"c":[1,22222],"d":""},"e":[3,{"f":4}],"g":"longer text"}"#,
            #"{"a":1000,"b":{"c":[1,22222],"d":"","h":0},"e":[3,{"f":4}],"g":"longer text"}"#,
            #"{"a":1000,"b":{"c":[1,22222],"d":"","h":0},"e":[3,{"f":4}}],"g":"longer text"}"#,
            #"{"a":1,"b":{"c":[1,2],"d":"x"},"e":[3,{"f":4}],"g":"t"}"#,
        ].map { Array($0.utf8) }
        let (with, without) = scanWithAndWithout(lines)
        #expect(with.map { $0 != nil } == [true, true, true, false, true])
        #expect(Self.firstDisagreement(with, without) == nil)
    }

    /// `value` with about one in three of its strings, numbers, booleans and nulls replaced by another one.
    private static func replacingSomeScalars(of value: JSONValue, using random: inout SeededRandom) -> JSONValue {
        switch value {
        case .object(let members): return .object(members.mapValues { replacingSomeScalars(of: $0, using: &random) })
        case .array(let elements): return .array(elements.map { replacingSomeScalars(of: $0, using: &random) })
        default:
            guard Int.random(in: 0..<3, using: &random) == 0 else { return value }
            let replacements: [JSONValue] = [
                .integer(Int64.random(in: -5...5, using: &random)), .integer(Int64.random(in: 0...Int64.max, using: &random)),
                .double(Double.random(in: -1e6...1e6, using: &random)), .double(1e300), .string(""),
                .string("plain text of some length"), .string("quote \" slash \\ tab \t é 🎉 \u{1}"), .bool(true),
                .bool(false), .null,
            ]
            return replacements.randomElement(using: &random)!
        }
    }

    @Test func aRepeatedContainerIsNotRecalledAtADeeperDepthThanItWasChecked() {
        // `[[1]]` was checked at depth 2; the second line has the same bytes at the same offset at depth 8, so its
        // inner array is at depth 9, past the limit.
        let lines = [#"{"a":1,"b":[[1]]}"#, #"{"a":[[[[[[[[1]]]]]]]]}"#].map { Array($0.utf8) }
        let (with, without) = scanWithAndWithout(lines, maxDepth: 8)
        #expect(without[1] == nil)
        #expect(Self.firstDisagreement(with, without) == nil)
    }

    @Test func aLineOpeningAContainerAtEveryByteIsNotedWithoutOverrunningTheNotes() {
        // Found by Fuzz/run.sh json (under AddressSanitizer): room for a container per two bytes was reserved, but
        // an unclosed container can take one byte.
        let lines = [#"{"a":[1]}"#, #"{"action":{"he": "# + "\t" + String(repeating: "[", count: 300) + "{e375028}"]
        let (with, without) = scanWithAndWithout(lines.map { Array($0.utf8) })
        #expect(without[1] == nil)
        #expect(Self.firstDisagreement(with, without) == nil)
    }

    @Test func aDuplicateKeyInAChangedContainerIsFoundAfterAValidLine() {
        // The first line's `s` is checked and remembered; the second changes it to hold a duplicate, and the third
        // repeats the first's unchanged `s` beside a changed duplicate-free one.
        let lines = [
            #"{"s":{"a":1,"b":{"c":2}},"t":{"x":1}}"#, #"{"s":{"a":1,"b":{"c":2,"c":3}},"t":{"x":1}}"#,
            #"{"s":{"a":1,"b":{"c":2}},"t":{"x":2,"y":1}}"#,
        ].map { Array($0.utf8) }
        let (with, without) = scanWithAndWithout(lines)
        #expect(with.map { $0 != nil } == [true, false, true])
        #expect(Self.firstDisagreement(with, without) == nil)
    }

    @Test func anInvalidLineIsNotRemembered() {
        // The second line breaks the first's array; the third repeats the first and recalls it.
        let lines = [#"{"a":[1,2,3],"b":2}"#, #"{"a":[1,2,3,],"b":2}"#, #"{"a":[1,2,3],"b":2}"#].map { Array($0.utf8) }
        let (with, without) = scanWithAndWithout(lines)
        #expect(with.map { $0 != nil } == [true, false, true])
        #expect(Self.firstDisagreement(with, without) == nil)
    }

    @Test func aContainerCannotBeRecalledOntoTheLinesClosingBrace() {
        // In the second line the remembered object's bytes run up to the line's last `}`: it is not a nested
        // container there, and the line lacks its own closing brace.
        let lines = [#"{"a":{"b":1},"c":0}"#, #"{"a":{"b":1}"#].map { Array($0.utf8) }
        let (with, without) = scanWithAndWithout(lines)
        #expect(without[1] == nil)
        #expect(Self.firstDisagreement(with, without) == nil)
    }
}
