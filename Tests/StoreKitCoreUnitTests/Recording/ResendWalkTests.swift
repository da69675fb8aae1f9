import Foundation
import StoreKitCore
import Testing

@Suite struct ResendWalkTests {
    private let folder = "/tmp/rwt-\(UUID().uuidString.prefix(8))"

    /// An action line of about 1 KB.
    private func action(_ sequence: Int) -> UnconfirmedLines.Entry {
        .init(
            sequences: sequence...sequence, bytes: Array("\(sequence) \(String(repeating: "x", count: 1000))\n".utf8),
            content: .state)
    }

    private func sequences(in bytes: [UInt8]) -> [Int] {
        bytes.split(separator: UInt8(ascii: "\n")).compactMap { line in
            Int(String(decoding: line.prefix { $0 != UInt8(ascii: " ") }, as: UTF8.self))
        }
    }

    @Test func aResendWalkedInPartsSendsEveryLineOnceInOrderTheLinesHeldMeanwhileIncluded() throws {
        // Given lines 1 to 300 spilled to the journal while the receiver was away, and a receiver back that persisted
        // up to 100, of which the recorder counted 50 as written
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let journal = SessionJournal(
            settings: .init(folder: folder, byteLimit: 16 << 20), socketPath: "/tmp/none.sock",
            header: { Array("{\"kind\":\"session\"}\n".utf8) })
        var unconfirmed = UnconfirmedLines(byteLimit: 64 << 10, journal: journal)
        for sequence in 1...300 { unconfirmed.append(action(sequence)) }
        unconfirmed.spillAll()
        var walk = ResendWalk(after: 100, skippingEffectLines: 0, newAfter: 50, gapMessage: nil)

        // When it is walked 20 KB at a time, and 10 lines are held after each part (as the recorder's thread takes
        // the app's actions between two parts)
        var sent: [UInt8] = []
        var next = 301
        var parts = 0
        while true {
            var bytes: [UInt8] = []
            let isOver = try walk.next(through: unconfirmed, budget: 20 << 10, into: &bytes)
            sent += bytes
            parts += 1
            if isOver { break }
            for sequence in next..<(next + 10) { unconfirmed.append(action(sequence)) }
            next += 10
        }

        // Then every line after 100 was sent once, in order, the last held included; the walk took several parts
        // and counted the actions after 50 as written
        #expect(sequences(in: sent) == Array(101..<next))
        #expect(parts > 10)
        #expect(walk.newActions == next - 1 - 50)
        #expect(walk.missing.isEmpty)
    }
}
