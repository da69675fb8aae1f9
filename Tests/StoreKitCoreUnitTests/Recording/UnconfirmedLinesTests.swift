import StoreKitCore
import Testing

@Suite struct UnconfirmedLinesTests {
    private func action(_ sequence: Int, patch: Bool = false) -> UnconfirmedLines.Entry {
        let line = Array("line \(sequence)\n".utf8)
        return UnconfirmedLines.Entry(
            sequences: sequence...sequence, bytes: line,
            content: patch ? .patch(fullStateLine: Array("full \(sequence)\n".utf8)) : .state)
    }

    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func aResendStartsRightAfterThePersistedNumberAndLeavesNothingOut() {
        // Given five lines held, of which the receiver confirmed two
        var lines = UnconfirmedLines(byteLimit: 1 << 20)
        for sequence in 1...5 { lines.append(action(sequence)) }
        lines.confirm(through: 2)

        // When it reconnects saying it persisted up to 3
        let resend = lines.resend(after: 3, newAfter: 4)

        // Then exactly the lines after 3 go again, with nothing missing, and only 5 counts as new
        #expect(lines.held.map(\.sequences.lowerBound) == [3, 4, 5])
        #expect(text(resend.lines) == "line 4\nline 5\n")
        #expect(resend.missing == nil)
        #expect(resend.newActions == 1)
    }

    @Test func linesTheReceiverPersistedFromAWriteCutShortCountAsWritten() {
        // Given ten lines held, of which the recorder had counted the first four as written when a write failed
        var lines = UnconfirmedLines(byteLimit: 1 << 20)
        for sequence in 1...10 { lines.append(action(sequence)) }

        // When the receiver says after the reconnect that it persisted up to 7 (part of the failed write)
        let resend = lines.resend(after: 7, newAfter: 4)

        // Then 8 to 10 go again, and 5 to 10 are all newly written: 5 to 7 reached the receiver before it failed
        #expect(text(resend.lines) == "line 8\nline 9\nline 10\n")
        #expect(resend.newActions == 6)
    }

    @Test func aPatchThatStartsAResendGoesWithItsFullState() {
        // Given a full state followed by two patches
        var lines = UnconfirmedLines(byteLimit: 1 << 20)
        lines.append(action(1))
        lines.append(action(2, patch: true))
        lines.append(action(3, patch: true))

        // When the receiver persisted only the first
        let resend = lines.resend(after: 1, newAfter: 3)

        // Then the first line resent carries its full state, and the next stays a patch against it
        #expect(text(resend.lines) == "full 2\nline 3\n")
    }

    @Test func linesBeyondTheBoundAreReportedMissingAndAGapHeldIsCutToWhatFollows() {
        // Given a bound that holds two short lines, and a gap line among them
        let gap = GapEvent(firstSequence: 4, lastSequence: 6, reason: .bufferFull)
        let gapLine = SessionEvent.gap(gap).line
        var lines = UnconfirmedLines(byteLimit: gapLine.count + 7)
        for sequence in 1...3 { lines.append(action(sequence)) }
        lines.append(UnconfirmedLines.Entry(sequences: 4...6, bytes: gapLine, content: .gap(gap)))
        lines.append(action(7))

        // When the receiver persisted up to 1, or up to 4
        let fromOne = lines.resend(after: 1, newAfter: 7)
        let fromFour = lines.resend(after: 4, newAfter: 7)

        // Then what the bound let go is missing, and a gap is resent only for the numbers after the persisted one
        #expect(lines.held.map(\.sequences.lowerBound) == [4, 7])
        #expect(fromOne.missing == 2...3)
        #expect(text(fromOne.lines) == text(gapLine) + "line 7\n")
        #expect(fromFour.missing == nil)
        let cut = GapEvent(firstSequence: 5, lastSequence: 6, reason: .bufferFull)
        #expect(text(fromFour.lines) == text(SessionEvent.gap(cut).line) + "line 7\n")
    }

    @Test func aPatchWhoseStateIsNoLongerHeldIsMissingWithTheLinesBeforeIt() {
        // Given a bound so small that only the newest line, a patch, is held
        var lines = UnconfirmedLines(byteLimit: 0)
        lines.append(action(1))
        lines.append(action(2, patch: true))

        // When the receiver persisted nothing
        let resend = lines.resend(after: 0, newAfter: 0)

        // Then the first line is missing and the patch goes as its full state
        #expect(resend.missing == 1...1)
        #expect(text(resend.lines) == "full 2\n")
    }

    @Test func discardedLinesAreAllMissing() {
        // Given three lines, of which the receiver took one, then the rest discarded
        var lines = UnconfirmedLines(byteLimit: 1 << 20)
        for sequence in 1...3 { lines.append(action(sequence)) }
        lines.discard()

        // Then a resend after 1 sends nothing and reports 2...3 missing
        let resend = lines.resend(after: 1, newAfter: 1)
        #expect(resend.lines.isEmpty)
        #expect(resend.missing == 2...3)
        #expect(lines.byteCount == 0)
    }

    @Test func effectLinesAreHeldUntilALaterNumberIsConfirmedAndResentAfterThePersistedAction() {
        // Given an action, an effect line after it, then two patches with an effect line between them
        var lines = UnconfirmedLines(byteLimit: 1 << 20)
        func effect(after sequence: Int, _ text: String) -> UnconfirmedLines.Entry {
            UnconfirmedLines.Entry(
                sequences: sequence...sequence, bytes: Array("\(text)\n".utf8), content: .effect(cause: 1, effect: "e"))
        }
        lines.append(action(1))
        lines.append(effect(after: 1, "call a"))
        lines.append(action(2, patch: true))
        lines.append(effect(after: 2, "call b"))
        lines.append(action(3, patch: true))

        // When the receiver confirms 1, the effect line after it stays held; when it confirms 2, it goes
        lines.confirm(through: 1)
        #expect(lines.held.count == 4)

        // Then a resend after 1 sends the effect line after 1 first, and the first action with its full state;
        // a resend after 2 leaves out the effect line before action 2
        #expect(text(lines.resend(after: 1, newAfter: 3).lines) == "call a\nfull 2\ncall b\nline 3\n")
        #expect(text(lines.resend(after: 2, newAfter: 3).lines) == "call b\nfull 3\n")
        lines.confirm(through: 2)
        #expect(lines.held.map(\.bytes).map(text) == ["call b\n", "line 3\n"])
    }

    @Test func effectLinesTheReceiverHoldsAfterItsLastSequenceAreNotSentAgain() {
        // Given an action and three effect lines after it, of which the daemon's welcome says it holds two
        var lines = UnconfirmedLines(byteLimit: 1 << 20)
        lines.append(action(1))
        for name in ["a", "b", "c"] {
            lines.append(
                UnconfirmedLines.Entry(
                    sequences: 1...1, bytes: Array("call \(name)\n".utf8), content: .effect(cause: 1, effect: "e")))
        }
        lines.append(action(2, patch: true))

        // When it resends after 1, skipping the two held
        let resend = lines.resend(after: 1, skippingEffectLines: 2, newAfter: 2)

        // Then only the third effect line and the next action go again
        #expect(text(resend.lines) == "call c\nfull 2\n")
    }

    @Test func notesAreHeldAndSkippedOnAResendLikeEffectLines() {
        // Given an action, then a note, an effect line and a note after it, of which the daemon holds the first two
        var lines = UnconfirmedLines(byteLimit: 1 << 20)
        lines.append(action(1))
        lines.append(UnconfirmedLines.Entry(sequences: 1...1, bytes: Array("note a\n".utf8), content: .note))
        lines.append(
            UnconfirmedLines.Entry(sequences: 1...1, bytes: Array("call b\n".utf8), content: .effect(cause: 1, effect: "e")))
        lines.append(UnconfirmedLines.Entry(sequences: 1...1, bytes: Array("note c\n".utf8), content: .note))
        lines.append(action(2, patch: true))

        // When the receiver confirms 1, the lines after it stay held; a resend after 1 skips the two it holds
        lines.confirm(through: 1)
        let resend = lines.resend(after: 1, skippingEffectLines: 2, newAfter: 2)

        // Then only the last note and the next action go again
        #expect(text(resend.lines) == "note c\nfull 2\n")
    }
}
