import Foundation
import StoreKitCore
import StoreKitSystem
import Testing

@testable import StoreKitReplay

/// A replay host writes the step each worker is at on a board file; the bytes in the file say it without another
/// call, and read back as the entries written.
@Suite struct ProgressBoardTests {
    @Test func theFileHoldsTheLastStepOfEachSlot() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("board-\(UUID().uuidString)").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(count: 4 * ProgressBoard.slotSize)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let longName = String(repeating: "n", count: 2 * ProgressBoard.slotSize)
        do {
            let board = try ProgressBoard.Writer(path: path, slots: 4)
            board.write(slot: 1, session: 12, step: 1_000_000, name: "path.element.rehearsal.timerTick")
            board.write(slot: 1, session: 12, step: 7, name: "tag")
            board.write(slot: 2, session: 5, step: 31, name: "two\nlines")
            board.write(slot: 2, session: 4, step: 9, name: "add\nTodo")
            board.write(slot: 3, session: 0, step: 0, name: "")
            board.write(slot: 0, session: 3, step: 90, name: longName)
        }

        let entries = ProgressBoard.entries(in: Array(try Data(contentsOf: URL(fileURLWithPath: path))))

        #expect(entries.count == 4)
        #expect(entries[1] == ProgressBoard.Entry(session: 12, step: 7, name: "tag"))
        #expect(entries[2] == ProgressBoard.Entry(session: 4, step: 9, name: "addTodo"))
        #expect(entries[3] == ProgressBoard.Entry(session: 0, step: 0, name: ""))
        let cut = try #require(entries[0])
        #expect(
            cut.session == 3 && cut.step == 90
                && cut.name == String(longName.prefix(ProgressBoard.slotSize - ProgressBoard.endingLineRoom - 6)))
    }

    @Test func anEndingLineFollowsTheLastStepUntilTheNextStep() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("board-\(UUID().uuidString)").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(count: 3 * ProgressBoard.slotSize)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let longName = String(repeating: "n", count: 2 * ProgressBoard.slotSize)
        let most = EffectRunsEnding(inFlight: .max, ended: .max, judged: .max)
        do {
            let board = try ProgressBoard.Writer(path: path, slots: 3)
            board.write(slot: 0, session: 2, step: 9, name: "sync")
            board.write(slot: 0, ending: EffectRunsEnding(inFlight: 4, ended: 1, judged: 0))
            board.write(slot: 0, ending: EffectRunsEnding(inFlight: 4, ended: 4, judged: 3))
            board.write(slot: 1, session: .max, step: .max, name: longName)
            board.write(slot: 1, ending: most)
            board.write(slot: 2, session: 0, step: 5, name: "sync")
            board.write(slot: 2, ending: EffectRunsEnding(inFlight: 12_345, ended: 0, judged: 0))
            board.write(slot: 2, session: 1, step: 1, name: "add")
        }

        let entries = ProgressBoard.entries(in: Array(try Data(contentsOf: URL(fileURLWithPath: path))))

        #expect(entries[0] == ProgressBoard.Entry(session: 2, step: 9, name: "sync", ending: EffectRunsEnding(inFlight: 4, ended: 4, judged: 3)))
        #expect(entries[1]?.ending == most)
        #expect(entries[1]?.step == .max)
        #expect(entries[2] == ProgressBoard.Entry(session: 1, step: 1, name: "add"))
    }

    @Test func aSlotNeverWrittenSaysNothing() {
        #expect(ProgressBoard.entries(in: [UInt8](repeating: 0, count: 2 * ProgressBoard.slotSize)) == [nil, nil])
        #expect(ProgressBoard.entries(in: Array("0 4 addTodo\n".utf8)) == [ProgressBoard.Entry(session: 0, step: 4, name: "addTodo")])
    }

    @Test func aBoardTooSmallForItsSlotsIsRefused() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("board-\(UUID().uuidString)").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(count: ProgressBoard.slotSize)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: SystemError.self) { try ProgressBoard.Writer(path: path, slots: 2) }
    }
}
