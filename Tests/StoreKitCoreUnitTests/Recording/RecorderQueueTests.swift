import Testing

@testable import StoreKitCore

/// The queue between a recorder's dispatching thread and its background thread: it keeps the actions and states in
/// memory it manages itself, so each is checked to be released exactly when it should, and kept until then.
@Suite struct RecorderQueueTests {
    /// A value whose end is observable: the queue's state type.
    final class Probe: Sendable {
        let id: Int
        init(id: Int) { self.id = id }
    }

    /// Queues `count` actions (their ids) and probes, and returns weak references to the probes.
    private func fill(_ queue: RecorderQueue<Probe, Int>, count: Int, from first: Int = 0) -> [WeakProbe] {
        (first..<(first + count)).map { id in
            let probe = Probe(id: id)
            queue.append(action: id, state: probe, sequence: id + 1, time: 0, origin: .app)
            return WeakProbe(probe)
        }
    }

    struct WeakProbe {
        weak var probe: Probe?
        init(_ probe: Probe) { self.probe = probe }
    }

    @Test func keepsEveryActionAndStateInOrderAcrossGrowthAndGaps() {
        let queue = RecorderQueue<Probe, Int>(capacity: 2)
        let probes = fill(queue, count: 3)
        queue.append(gap: GapEvent(firstSequence: 4, lastSequence: 4, reason: .bufferFull))
        let more = fill(queue, count: 40, from: 3)

        #expect(queue.count == 44)
        #expect(queue.actionCount == 43)
        #expect((0..<43).map { queue.action(at: $0) } == Array(0..<43))
        #expect((0..<43).map { queue.state(at: $0).id } == Array(0..<43))
        guard case .gap(let gap) = queue.event(at: 3) else {
            Issue.record("the fourth event is not the gap: \(queue.event(at: 3))")
            return
        }
        #expect(gap.firstSequence == 4)
        #expect((probes + more).allSatisfy { $0.probe != nil })
    }

    @Test func releasingFreesExactlyTheStatesBeforeTheIndexAndGrowthKeepsTheRestAtTheirIndices() {
        let queue = RecorderQueue<Probe, Int>(capacity: 4)
        let probes = fill(queue, count: 4)

        queue.release(before: 2)
        #expect(probes.map { $0.probe == nil } == [true, true, false, false])

        // Growing moves the rest to new storage at the same indices.
        let more = fill(queue, count: 5, from: 4)
        #expect((2..<9).map { queue.state(at: $0).id } == Array(2..<9))
        #expect((2..<9).map { queue.action(at: $0) } == Array(2..<9))

        queue.release(before: 2)
        #expect((probes + more)[2...].allSatisfy { $0.probe != nil })
    }

    @Test func swappingExchangesContentsAndEmptyingFreesWhatIsLeft() {
        let queue = RecorderQueue<Probe, Int>(capacity: 64)
        let batch = RecorderQueue<Probe, Int>(capacity: 64)
        let probes = fill(queue, count: 3)

        queue.swapContents(with: batch)
        #expect(queue.isEmpty)
        #expect(batch.count == 3)
        #expect(batch.state(at: 1).id == 1)

        batch.release(before: 1)
        batch.removeAll()
        batch.makeRoom(forActions: 1, givingBackAbove: 1)
        #expect(probes.allSatisfy { $0.probe == nil })
        #expect(batch.isEmpty)

        // Storage given back (room for more than kept) or kept, the queue takes new actions after emptying.
        let again = fill(batch, count: 70)
        #expect(batch.state(at: 69).id == 69)
        batch.removeAll()
        #expect(again.allSatisfy { $0.probe == nil })

        // Room reserved ahead is used without growing.
        batch.makeRoom(forActions: 500, givingBackAbove: 1 << 20)
        #expect(batch.capacity == 500)
        _ = fill(batch, count: 500)
        #expect(batch.capacity == 500)
        #expect(batch.state(at: 499).id == 499)
    }

    @Test func aQueueLetGoFreesItsStates() {
        var queue: RecorderQueue<Probe, Int>? = RecorderQueue(capacity: 64)
        let probes = fill(queue!, count: 5)
        queue!.release(before: 2)
        queue = nil
        #expect(probes.allSatisfy { $0.probe == nil })
    }
}
