import Foundation
import SampleFeatures
import StoreKitCore
import StoreKitTesting
import Testing

/// A "signal" that emits values at given virtual times, like RxTest's hot observable.
struct TimedSignal: Sendable {
    let events: [(Duration, Int)]
    let clock: TestClock

    var values: AsyncStream<Int> {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let events = events
        let clock = clock
        Task {
            for (time, value) in events {
                try? await clock.sleep(until: .init(offset: time))
                continuation.yield(value)
            }
            continuation.finish()
        }
        return stream
    }
}

/// Wires a signal of values to `setStep` actions, the way the ReSwift + RxSwift article's Dispatcher does.
struct Dispatcher: Sendable {
    let store: any StoreProtocol<Counter.State, Counter.Action>

    func wire(_ signal: AsyncStream<Int>) async {
        for await value in signal { store.dispatch(.setStep(value)) }
    }
}

/// The ReSwift + RxSwift scenario: actions dispatched from an asynchronous source, asserted with virtual times.
@Suite struct ReSwiftRxStyleTests {
    @Test func dispatchesEachSignalValueAtItsVirtualTime() async throws {
        // Given a signal emitting 98 at 300 ms and 12 at 600 ms, wired into a mock store on a test clock
        let clock = TestClock()
        let store = MockStore<Counter.State, Counter.Action>(initialState: Counter.State(), clock: clock)
        let signal = TimedSignal(events: [(.milliseconds(300), 98), (.milliseconds(600), 12)], clock: clock)
        let wiring = Task { await Dispatcher(store: store).wire(signal.values) }

        // When virtual time moves on, asserting right after each advance (advance runs what it wakes until quiet)
        await clock.advance(by: .milliseconds(300))
        #expect(store.dispatchedActions == [.setStep(98)])
        await clock.advance(by: .milliseconds(300))
        let dispatched = store.dispatched.all
        await wiring.value

        // Then each action was dispatched at its virtual time, instantly in real time
        #expect(dispatched.map(\.action) == [.setStep(98), .setStep(12)])
        #expect(dispatched.map(\.time) == [.milliseconds(300), .milliseconds(600)])
    }

    @Test func theActionsCanBeAwaitedAsAnAsyncSequence() async throws {
        let store = MockStore<Counter.State, Counter.Action>(initialState: Counter.State(), reducer: Counter.reducer)
        Task {
            store.dispatch(.increment)
            store.dispatch(.reset)
        }
        var received: [Counter.Action] = []
        for try await entry in store.dispatched.values() {
            received.append(entry.action)
            if received.count == 2 { break }
        }
        #expect(received == [.increment, .reset])
        #expect(store.state.count == 0)
    }
}
