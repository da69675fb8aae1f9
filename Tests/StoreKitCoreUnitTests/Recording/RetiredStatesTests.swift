import Testing

@testable import StoreKitCore

/// The states a recorder's background thread has encoded are released by the app's next posts, one per post, and
/// by the background thread only once the app has posted nothing for a while: freed all at once, their memory went
/// back to the system and the app's next dispatches faulted it in again.
@Suite struct RetiredStatesTests {
    /// A state whose end is observable.
    final class Probe: Sendable {
        let id: Int
        init(id: Int) { self.id = id }
    }

    struct WeakProbe {
        weak var probe: Probe?
        init(_ probe: Probe) { self.probe = probe }
    }

    private func mailbox() -> RecorderMailbox<Probe, Int> {
        RecorderMailbox(budget: RecorderMemoryBudget(capacity: 100, byteLimit: 1 << 20, slotBytes: 64), recordsEffects: false)
    }

    /// Posts an action whose state is a new probe numbered `id`, and returns a weak reference to the probe.
    private func post(_ id: Int, to mailbox: RecorderMailbox<Probe, Int>) -> WeakProbe {
        let probe = Probe(id: id)
        mailbox.post(
            id, state: probe, context: DispatchContext(sequence: id, origin: .app, uptimeNanoseconds: 0), time: 0)
        return WeakProbe(probe)
    }

    /// Posts one action, then takes it as the background thread does and hands its state back to be released;
    /// returns a weak reference to that state and the emptied batch.
    private func postAndRetire(
        _ id: Int, to mailbox: RecorderMailbox<Probe, Int>
    ) -> (WeakProbe, RecorderQueue<Probe, Int>) {
        let probe = post(id, to: mailbox)
        let batch = RecorderQueue<Probe, Int>(capacity: 4)
        _ = mailbox.takeBatch(into: batch, nappingFirst: false)
        mailbox.retire(batch, before: 1, estimatingBy: nil)
        batch.removeAll()
        return (probe, batch)
    }

    @Test func aPileReleasesAtMostWhatItIsAskedToAndKeepsTheRestAcrossGrowth() {
        // Given a queue of five probes, three of them retired onto a pile with room for one
        let queue = RecorderQueue<Probe, Int>(capacity: 8)
        let probes = (0..<5).map { id in
            let probe = Probe(id: id)
            queue.append(action: id, state: probe, sequence: id + 1, time: 0, origin: .app)
            return WeakProbe(probe)
        }
        let pile = RetiredStates<Probe, Int>(capacity: 1)
        queue.retire(before: 3, onto: pile)

        // When the queue is emptied, then the pile releases one
        queue.removeAll()
        let afterEmptying = probes.map { $0.probe != nil }
        let released = pile.release(atMost: 1)

        // Then emptying the queue freed only the two it still held, and the pile one of its three
        #expect(afterEmptying == [true, true, true, false, false])
        #expect(released == 1)
        #expect(pile.count == 2)
        #expect(probes.filter { $0.probe != nil }.count == 2)
        #expect(pile.releaseAll() == 2)
        #expect(probes.allSatisfy { $0.probe == nil })
    }

    @Test func theNextPostReleasesAStateTheBackgroundThreadRetired() {
        // Given a state posted, taken and encoded by the background thread, and handed back to be released
        let mailbox = mailbox()
        let (first, _) = postAndRetire(1, to: mailbox)
        let heldUntilThen = first.probe != nil

        // When the app posts its next action
        let second = post(2, to: mailbox)

        // Then the retired state was released by that post, on this thread, and the new one is kept
        #expect(heldUntilThen)
        #expect(first.probe == nil)
        #expect(second.probe != nil)
    }

    @Test func theBackgroundThreadReleasesRetiredStatesWhenTheAppStopsPosting() {
        // Given a retired state, and no post after it
        let mailbox = mailbox()
        let (retired, batch) = postAndRetire(1, to: mailbox)

        // When the background thread waits for actions past the idle time, taking none
        _ = mailbox.takeBatch(into: batch, nappingFirst: false, wakingAfter: 1.5)

        // Then it released the state meanwhile
        #expect(retired.probe == nil)
        #expect(batch.isEmpty)
    }
}
