import Foundation
import StoreKitCore
import StoreKitReplay
import StoreKitTestFixtures
import Testing

@Suite struct SessionIndexTests {
    private static let samples = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("samples/sessions")

    private func folderWithSamples() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        for name in ["counter-basic.jsonl", "todos-basic.jsonl", "rehearsals-week.jsonl"] {
            try FileManager.default.copyItem(
                atPath: Self.samples.appendingPathComponent(name).path, toPath: directory.file(name))
        }
        return directory
    }

    @Test func theIndexSummarizesEachSessionOnceAndRereadsOnlyWhatChanged() throws {
        let directory = try folderWithSamples()
        defer { directory.remove() }

        // When the folder is indexed the first time, every session is read
        let first = try SessionIndex.refreshed(in: directory.path)
        #expect(first.filesRead == 3)
        let todos = try #require(first.index.entries.first { $0.file == "todos-basic.jsonl" })
        #expect(todos.storeID == "todos" && todos.appName == "SampleApp" && todos.actions == 40)
        #expect(todos.status == "finished" && todos.lostInGaps == 0 && todos.damage.isEmpty)
        #expect(todos.actionNames["toggleCompleted"] != nil)
        #expect(FileManager.default.fileExists(atPath: directory.file(SessionIndex.fileName)))

        // Then the next time, none is read; a grown file is read again, a removed one dropped
        #expect(try SessionIndex.refreshed(in: directory.path).filesRead == 0)
        try directory.append("counter-basic.jsonl", "{\"kind\":")
        try FileManager.default.removeItem(atPath: directory.file("rehearsals-week.jsonl"))
        let again = try SessionIndex.refreshed(in: directory.path)
        #expect(again.filesRead == 1)
        #expect(again.index.entries.map(\.file) == ["counter-basic.jsonl", "todos-basic.jsonl"])
        #expect(again.index.entries[0].status.hasPrefix("damaged (line 43)"))
        #expect(again.index.entries[0].damage.contains("counter-basic.jsonl:43"))
    }

    @Test func aFileBeingWrittenKeepsItsEntryUntilItIsNoLongerSaidToBe() throws {
        // Given an indexed folder whose counter session then grows by a line
        let directory = try folderWithSamples()
        defer { directory.remove() }
        let before = try SessionIndex.refreshed(in: directory.path).index
        try directory.append("counter-basic.jsonl", "{\"kind\":")

        // When it is refreshed with that session said to be still being written, it is not read again
        let writing = try SessionIndex.refreshed(in: directory.path, filesBeingWritten: ["counter-basic.jsonl"])
        #expect(writing.filesRead == 0)
        #expect(writing.index == before)

        // Then once it is no longer said to be, it is read
        let ended = try SessionIndex.refreshed(in: directory.path)
        #expect(ended.filesRead == 1)
        #expect(ended.index.entries[0].status.hasPrefix("damaged (line 43)"))
    }

    @Test func aFileBeingWrittenThatIsNotIndexedYetIsRead() throws {
        let directory = try folderWithSamples()
        defer { directory.remove() }

        let first = try SessionIndex.refreshed(in: directory.path, filesBeingWritten: ["todos-basic.jsonl"])

        #expect(first.filesRead == 3)
        #expect(first.index.entries.first { $0.file == "todos-basic.jsonl" }?.actions == 40)
    }

    @Test func aLastLineCutOffIsCalledDamageAtThatLine() throws {
        // Given a session cut off in the middle of its second action line
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let sample = try String(contentsOf: Self.samples.appendingPathComponent("counter-basic.jsonl"), encoding: .utf8)
        let lines = sample.split(separator: "\n").prefix(3).map(String.init)
        let path = directory.file("cut.jsonl")
        try (lines[0] + "\n" + lines[1] + "\n" + lines[2].prefix(20)).write(toFile: path, atomically: false, encoding: .utf8)
        let size = UInt64(try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int))

        // When it is summarized
        let entry = SessionIndex.summarize(path, bytes: size, modifiedMilliseconds: 0)

        // Then it is damaged at that line, with the action before it counted
        #expect(entry.status == "damaged (line 3)")
        #expect(entry.actions == 1)
    }

    @Test func aStateBrokenInsideIsDamageAtItsLineThoughTheSummaryNeverBuildsStates() throws {
        // Given the todos sample with a duplicate key, then a byte that is not UTF-8, deep in two of its states
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let sample = Self.samples.appendingPathComponent("todos-basic.jsonl").path
        let lines = try String(contentsOfFile: sample, encoding: .utf8).split(separator: "\n").map { Array($0.utf8) }
        let brokenLines = [
            ("duplicate.jsonl", Array(#""isComplete":false,"isComplete":false"#.utf8)),
            ("utf8.jsonl", Array(#""isComplete":false"#.utf8) + [0x2C, 0x22, 0xFF, 0x22, 0x3A, 0x31]),
        ]
        for (name, replacement) in brokenLines {
            var broken = lines
            let line = String(decoding: broken[9], as: UTF8.self)
            let range = try #require(line.range(of: #""isComplete":false"#))
            broken[9] = Array(line[..<range.lowerBound].utf8) + replacement + Array(line[range.upperBound...].utf8)
            try Data(broken.joined(separator: [0x0A]) + [0x0A]).write(to: URL(fileURLWithPath: directory.file(name)))
        }

        // When the folder is indexed
        let entries = try SessionIndex.refreshed(in: directory.path).index.entries

        // Then each is damaged at line 10, with the actions before it counted
        #expect(entries.map(\.status) == ["damaged (line 10)", "damaged (line 10)"])
        #expect(entries.map(\.actions) == [8, 8])
    }

    @Test func aDamagedIndexIsRebuilt() throws {
        let directory = try folderWithSamples()
        defer { directory.remove() }
        _ = try SessionIndex.refreshed(in: directory.path)
        try Data("not json".utf8).write(to: URL(fileURLWithPath: directory.file(SessionIndex.fileName)))

        let rebuilt = try SessionIndex.refreshed(in: directory.path)

        #expect(rebuilt.filesRead == 3)
        #expect(SessionIndex.load(from: directory.path) == rebuilt.index)
    }

    @Test func aFileRefusedAsAWholeIsDamagedWithoutALineNumber() throws {
        // Given an empty session file and a named pipe named like one
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        #expect(FileManager.default.createFile(atPath: directory.file("empty.jsonl"), contents: Data()))
        #expect(mkfifo(directory.file("pipe.jsonl"), 0o600) == 0)

        // When the folder is indexed
        let entries = try SessionIndex.refreshed(in: directory.path).index.entries

        // Then each is damaged, with no line to point at, and the reason kept
        #expect(entries.map(\.status) == ["damaged", "damaged"])
        #expect(entries[0].damage.contains("the session is empty"))
        #expect(entries[1].damage.contains("not a regular file"))
    }

    @Test func aCancelledRefreshStopsBeforeTheNextFileAndLeavesTheIndexAsItWas() throws {
        // Given a folder indexed once, then a new session in it
        let directory = try folderWithSamples()
        defer { directory.remove() }
        let indexed = try SessionIndex.refreshed(in: directory.path).index
        try FileManager.default.copyItem(
            atPath: Self.samples.appendingPathComponent("groceries-structs.jsonl").path,
            toPath: directory.file("groceries-structs.jsonl"))

        // When a refresh is cancelled after looking at two files
        var looked = 0
        #expect(throws: CancellationError.self) {
            try SessionIndex.refreshed(in: directory.path, onProgress: { done, _ in looked = done }) { looked >= 2 }
        }

        // Then it looked at no more, and the index file is the one before
        #expect(looked == 2)
        #expect(SessionIndex.load(from: directory.path) == indexed)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".tmp") }.isEmpty)
    }

    @Test func aCancelledRefreshStopsWithinALongSession() throws {
        // Given a folder holding one session of 10,000 actions
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let sample = try String(contentsOf: Self.samples.appendingPathComponent("counter-basic.jsonl"), encoding: .utf8)
        let header = try #require(sample.split(separator: "\n").first)
        let actions = (1...10_000).map { sequence in
            #"{"action":{"increment":{}},"kind":"action","name":"increment","origin":"app","seq":\#(sequence),"#
                + #""state":{"count":\#(sequence),"step":1},"time":\#(Double(sequence) / 1000)}"#
        }
        try ([String(header)] + actions).joined(separator: "\n").appending("\n")
            .write(toFile: directory.file("long.jsonl"), atomically: false, encoding: .utf8)

        // When a refresh is cancelled once it has begun reading it
        var asked = 0
        #expect(throws: CancellationError.self) {
            try SessionIndex.refreshed(
                in: directory.path,
                isCancelled: {
                    asked += 1
                    return asked > 1
                })
        }

        // Then it was asked before the file and once within it, and wrote no index
        #expect(asked == 2)
        #expect(SessionIndex.load(from: directory.path) == nil)
        // And uncancelled, the same file is summarized to its end
        #expect(try SessionIndex.refreshed(in: directory.path).index.entries.first?.actions == 10_000)
    }
}
