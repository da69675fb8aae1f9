import SampleFeatures
import StoreKitTesting
import Testing

/// docs/testing.md's ReSwift + RxSwift style: actions from an asynchronous source, in virtual time.
func reSwiftRxStyle() async {
    // snippet: testing-reswift-rx-style
    let clock = TestClock()
    let store = MockStore<Counter.State, Counter.Action>(initialState: Counter.State(), clock: clock)
    let (signal, emitter) = AsyncStream<Int>.makeStream()
    Task {                                           // the source: emits 98 at 300 ms of virtual time
        try await clock.sleep(until: .init(offset: .milliseconds(300)))
        emitter.yield(98)
    }
    Task { for await value in signal { store.dispatch(.setStep(value)) } }   // the dispatcher
    await clock.advance(by: .milliseconds(300))      // runs what it wakes until it sleeps again or ends
    #expect(store.dispatchedActions == [.setStep(98)])
    #expect(store.dispatched.all.map(\.time) == [.milliseconds(300)])
    // snippet end
}
