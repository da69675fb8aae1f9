import Foundation
import StoreKitCore
import StoreKitJSON
import Testing

@Suite struct SessionJournalTests {
    /// A journal in a folder of its own under /tmp, bounded to 1 MB, so its segments take 64 KB each.
    private struct Fixture {
        let folder = "/tmp/sjt-\(UUID().uuidString.prefix(8))"
        let journal: SessionJournal

        init(byteLimit: Int = 1 << 20) {
            journal = SessionJournal(
                settings: .init(folder: folder + "/journal", byteLimit: byteLimit), socketPath: "/tmp/none.sock",
                header: { Array("{\"kind\":\"session\"}\n".utf8) })
        }

        func remove() { try? FileManager.default.removeItem(atPath: folder) }
    }

    /// An action line of about 2 KB.
    private func action(_ sequence: Int) -> UnconfirmedLines.Entry {
        .init(
            sequences: sequence...sequence, bytes: Array("\(sequence) \(String(repeating: "x", count: 2000))\n".utf8),
            content: .state)
    }

    private func sequences(in journal: SessionJournal) throws -> [Int] {
        var sequences: [Int] = []
        try journal.forEachEntry { sequences.append($0.sequences.lowerBound) }
        return sequences
    }

    private func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    @Test func eachSegmentIsDeletedOnceEveryLineInItIsConfirmedWhileLaterOnesStay() throws {
        // Given a journal holding 200 lines of 2 KB, in several segments of 64 KB
        let fixture = Fixture()
        defer { fixture.remove() }
        let journal = fixture.journal
        for sequence in 1...200 { #expect(journal.append(action(sequence))) }
        journal.flush()
        let before = journal.paths
        #expect(before.count >= 5, "\(before)")
        #expect(before.allSatisfy(exists))

        // When the receiver confirms the first 100
        journal.confirm(through: 100)

        // Then the segments that held only confirmed lines are deleted, the others stay, and the lines left start
        // in the segment that holds line 101 and run in order to the last
        let after = journal.paths
        #expect(!after.isEmpty && after.count < before.count)
        #expect(Array(before.suffix(after.count)) == after)
        #expect(before.dropLast(after.count).allSatisfy { !exists($0) })
        #expect(after.allSatisfy(exists))
        let left = try sequences(in: journal)
        #expect(left.first.map { $0 > 1 && $0 <= 101 } == true, "\(left.prefix(3))")
        #expect(left == Array((left.first ?? 1)...200))

        // And once all are confirmed, no segment is left
        journal.confirm(through: 200)
        #expect(journal.paths.isEmpty)
        #expect(before.allSatisfy { !exists($0) })
    }

    @Test func theBoundCountsEverySegmentAndRoomMadeByADeletedSegmentIsTakenAgain() throws {
        // Given a journal bounded to 1 MB
        let fixture = Fixture()
        defer { fixture.remove() }
        let journal = fixture.journal

        // When lines come until it refuses one
        var sequence = 0
        repeat { sequence += 1 } while journal.append(action(sequence))

        // Then its segments together hold at most the bound, and the refusal says so
        #expect(journal.paths.count > 1)
        #expect(journal.byteCount <= 1 << 20)
        #expect(journal.byteCount > (1 << 20) - 4096)
        #expect(journal.refusal?.contains("reached its bound of 1048576 bytes") == true)
        #expect(!journal.append(action(sequence + 1)))

        // And once the receiver confirmed the lines of the first segment, it takes lines again
        journal.confirm(through: 50)
        #expect(journal.refusal == nil)
        #expect(journal.append(action(sequence + 2)))
    }

    @Test func pastThreeQuartersOfItsBoundItKeepsTheActionsOfActionLinesWithoutTheirStates() throws {
        // Given a journal bounded to 1 MB
        let fixture = Fixture()
        defer { fixture.remove() }
        let journal = fixture.journal

        // When action lines with a state of about 2 KB come until it refuses one
        var sequence = 0
        repeat { sequence += 1 } while journal.append(actionLine(sequence))

        // Then it took their lines whole up to three quarters of the bound, then their actions only, each in a gap
        // that keeps it, so it took more than twice as many as 1 MB of 2 KB lines would hold
        var kinds: [Int: UnconfirmedLines.Entry.Content] = [:]
        var firstKept: [UInt8]?
        try journal.forEachEntry { entry in
            kinds[entry.sequences.lowerBound] = entry.content
            if entry.content == .keptActions, firstKept == nil { firstKept = entry.bytes }
        }
        let wholeLines = kinds.values.count { $0 == .state }
        #expect(wholeLines > 300 && wholeLines < 400, "\(wholeLines)")
        #expect(sequence > 1000, "\(sequence)")
        #expect(kinds.keys.sorted() == Array(1..<sequence))
        let kept = try #require(firstKept)
        let gap = try JSONValue(parsing: kept.dropLast())
        #expect(gap["kind"] == .string("gap") && gap["reason"] == .string("transportFailed"))
        #expect(gap["from"] == .integer(Int64(wholeLines + 1)) && gap["to"] == gap["from"])
        #expect(
            gap["actions"]
                == .array([
                    .object([
                        "seq": .integer(Int64(wholeLines + 1)), "time": .double(0.5), "name": .string("add"),
                        "origin": .string("app"), "action": .object(["add": .integer(1)]),
                    ])
                ]))
    }

    /// An action line as the recorder writes it, with a state of about 2 KB.
    private func actionLine(_ sequence: Int) -> UnconfirmedLines.Entry {
        let event = ActionEvent(
            sequence: sequence, time: 0.5, name: "add", action: .object(["add": .integer(1)]), origin: .app,
            state: .object(["items": .string(String(repeating: "x", count: 2000))]))
        return .init(sequences: sequence...sequence, bytes: SessionEvent.action(event).line, content: .state)
    }

    @Test func segmentsArePrivateFilesInAPrivateFolderNamedInOrder() throws {
        let fixture = Fixture()
        defer { fixture.remove() }
        for sequence in 1...100 { _ = fixture.journal.append(action(sequence)) }
        fixture.journal.flush()

        let paths = fixture.journal.paths
        #expect(paths.count >= 2)
        #expect(paths == paths.sorted())
        #expect(paths.allSatisfy { $0.hasSuffix(".journal") && $0.hasPrefix(fixture.folder + "/journal/") })
        for path in paths {
            #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
        }
        let mode = try FileManager.default.attributesOfItem(atPath: fixture.folder + "/journal")[.posixPermissions]
        #expect(mode as? Int == 0o700)
    }

    @Test func itCountsTheActionsItTookThatTheTransportHasNotTaken() {
        let fixture = Fixture()
        defer { fixture.remove() }
        let journal = fixture.journal
        for sequence in 1...5 { _ = journal.append(action(sequence)) }
        journal.linesSent(through: 5)
        for sequence in 6...8 { _ = journal.append(action(sequence)) }

        #expect(journal.unsentActions == 3)
    }

    @Test func aWalkThatStopsGoesOnWhereItStoppedAndGivesTheLinesAppendedMeanwhile() throws {
        // Given a journal holding 100 lines of 2 KB across several segments
        let fixture = Fixture()
        defer { fixture.remove() }
        let journal = fixture.journal
        for sequence in 1...100 { #expect(journal.append(action(sequence))) }

        // When a walk stops after every 30 lines, and 50 lines are appended after its first stop (more segments)
        var position = SessionJournal.Position()
        var walked: [Int] = []
        var parts = 0
        var walkedAll = false
        while !walkedAll {
            var taken = 0
            walkedAll = try journal.forEachEntry(from: &position) { entry in
                walked.append(entry.sequences.lowerBound)
                taken += 1
                return taken < 30
            }
            parts += 1
            if parts == 1 { for sequence in 101...150 { #expect(journal.append(action(sequence))) } }
        }

        // Then it gave every line once, in order, those appended included, a part at a time
        #expect(walked == Array(1...150))
        #expect(parts == 6)
    }
}
