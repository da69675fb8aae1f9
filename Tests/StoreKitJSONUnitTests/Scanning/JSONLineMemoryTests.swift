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
        #expect(with == without)
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
        #expect(with == without)
    }

    @Test func aRepeatedContainerIsNotRecalledAtADeeperDepthThanItWasChecked() {
        // `[[1]]` was checked at depth 2; the second line has the same bytes at the same offset at depth 8, so its
        // inner array is at depth 9, past the limit.
        let lines = [#"{"a":1,"b":[[1]]}"#, #"{"a":[[[[[[[[1]]]]]]]]}"#].map { Array($0.utf8) }
        let (with, without) = scanWithAndWithout(lines, maxDepth: 8)
        #expect(without[1] == nil)
        #expect(with == without)
    }

    @Test func aLineOpeningAContainerAtEveryByteIsNotedWithoutOverrunningTheNotes() {
        // Found by Fuzz/run.sh json (under AddressSanitizer): room for a container per two bytes was reserved, but
        // an unclosed container can take one byte.
        let lines = [#"{"a":[1]}"#, #"{"action":{"he": "# + "\t" + String(repeating: "[", count: 300) + "{e375028}"]
        let (with, without) = scanWithAndWithout(lines.map { Array($0.utf8) })
        #expect(without[1] == nil)
        #expect(with == without)
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
        #expect(with == without)
    }

    @Test func anInvalidLineIsNotRemembered() {
        // The second line breaks the first's array; the third repeats the first and recalls it.
        let lines = [#"{"a":[1,2,3],"b":2}"#, #"{"a":[1,2,3,],"b":2}"#, #"{"a":[1,2,3],"b":2}"#].map { Array($0.utf8) }
        let (with, without) = scanWithAndWithout(lines)
        #expect(with.map { $0 != nil } == [true, false, true])
        #expect(with == without)
    }

    @Test func aContainerCannotBeRecalledOntoTheLinesClosingBrace() {
        // In the second line the remembered object's bytes run up to the line's last `}`: it is not a nested
        // container there, and the line lacks its own closing brace.
        let lines = [#"{"a":{"b":1},"c":0}"#, #"{"a":{"b":1}"#].map { Array($0.utf8) }
        let (with, without) = scanWithAndWithout(lines)
        #expect(without[1] == nil)
        #expect(with == without)
    }
}
