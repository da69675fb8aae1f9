import StoreKitJSON
import Testing

@testable import StoreKitCore

/// Notes count within the recorder's memory bound by their size, and a note that does not fit is dropped and
/// counted, never blocking.
@Suite struct RecorderNoteBudgetTests {
    @Test func queuedNotesCountTowardTheByteBoundUntilTheyAreEncoded() {
        // Given a byte bound of 4 KB with nothing pending, an action estimated at about 1 KB
        var budget = RecorderMemoryBudget(capacity: nil, byteLimit: 4096, slotBytes: 64)
        budget.estimate(encodedBytes: 1000)
        let note = NoteEvent(time: 0, message: String(repeating: "x", count: 1000))

        // When notes are queued until the next would not fit
        var queued = 0
        while !budget.isFull(queuedEvents: queued, addingNoteBytes: note.estimatedBytes) {
            budget.countQueuedNote(bytes: note.estimatedBytes)
            queued += 1
        }

        // Then they hold no more than the bound, an action does not fit beside them, and once encoded they free it
        #expect(queued == 4096 / note.estimatedBytes)
        #expect(budget.pendingNoteBytes <= 4096)
        #expect(budget.isFull(queuedEvents: queued))
        budget.countReleasedNotes(bytes: queued * note.estimatedBytes)
        #expect(!budget.isFull(queuedEvents: 0, addingNoteBytes: note.estimatedBytes))
    }

    @Test func aNoteThatDoesNotFitIsDroppedAndCountedWhileTheNextThatFitsIsQueued() {
        // Given a mailbox of a session that records notes, bounded to 2 KB
        let mailbox = RecorderMailbox<Int, Int>(
            budget: RecorderMemoryBudget(capacity: nil, byteLimit: 2048, slotBytes: 64), recordsEffects: false,
            recordsNotes: true)

        // When a note larger than the bound and then a small one are posted
        mailbox.post(NoteEvent(time: 0, message: String(repeating: "x", count: 4096)))
        mailbox.post(NoteEvent(time: 0, message: "small"))

        // Then the large one is counted as dropped and the small one is queued
        #expect(mailbox.statistics.notesDropped == 1)
        let batch = RecorderQueue<Int, Int>(capacity: 4)
        _ = mailbox.takeBatch(into: batch, nappingFirst: false)
        #expect(batch.count == 1)
        guard case .note(let note) = batch.event(at: 0) else {
            Issue.record("not a note: \(batch.event(at: 0))")
            return
        }
        #expect(note.message == "small")
    }
}
