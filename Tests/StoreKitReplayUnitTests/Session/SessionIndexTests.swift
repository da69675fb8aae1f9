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
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: directory.file("counter-basic.jsonl")))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{\"kind\":".utf8))
        try handle.close()
        try FileManager.default.removeItem(atPath: directory.file("rehearsals-week.jsonl"))
        let again = try SessionIndex.refreshed(in: directory.path)
        #expect(again.filesRead == 1)
        #expect(again.index.entries.map(\.file) == ["counter-basic.jsonl", "todos-basic.jsonl"])
        #expect(again.index.entries[0].status.hasPrefix("damaged (line 43)"))
        #expect(again.index.entries[0].damage.contains("counter-basic.jsonl:43"))
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
}
