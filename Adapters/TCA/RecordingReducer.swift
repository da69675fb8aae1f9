// StoreKit Replay's recorder for a Composable Architecture store: a reducer that wraps your app's reducer. Copy this
// file into your app target (it is not a package product); the app links StoreKitCore and ComposableArchitecture.
// docs/adapters.md has the whole walk-through.
//
//     let recorder = SessionRecorder<AppFeature.State, AppFeature.Action>(
//         initialState: AppFeature.State(), transport: FileTransport(path: "/tmp/app.jsonl"),
//         configuration: .init(storeID: "app", app: AppInfo(name: "MyApp")))
//     let store = Store(initialState: AppFeature.State()) { AppFeature().recording(to: recorder) }
//
// Your feature's `State` and `Action` must be `Codable` (and `Sendable`, as TCA asks).
//
// What it records: every action the root reducer runs, with the state after it, numbered in order; an action an
// effect sends is marked as sent by an effect, with the action whose reducer returned that effect as its cause.
// What it cannot know: which of the merged effects an action came from (effects have no names in TCA), and the
// inputs effects take from dependencies (replay feeds the actions they sent back to the reducer instead of
// rerunning them). Wrap the root reducer, outside `Scope`s and `forEach`es, so it sees every action once.

import Foundation

import struct StoreKitCore.ActionEvent
import class StoreKitCore.SessionRecorder

#if STOREKIT_ADAPTER_STAND_IN
    import ComposableArchitectureStandIn  // this repository's tests compile the adapter against a stand-in of TCA
#else
    import ComposableArchitecture
#endif

/// Wraps a feature's reducer: records each action with the state after it, and marks the actions its effects send
/// with their cause.
struct RecordingReducer<Base: Reducer>: Reducer
where Base.State: Encodable & Sendable, Base.Action: Encodable & Sendable {
    /// The app's reducer.
    let base: Base
    /// The recorder the actions go to.
    let recorder: SessionRecorder<Base.State, Base.Action>
    /// The causes of the effect actions on their way into the store, oldest first.
    let causes = EffectCauses()

    func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
        let effect = base.reduce(into: &state, action: action)
        let origin: ActionEvent.Origin = causes.takeOldest().map { .effect(cause: $0) } ?? .app
        guard let sequence = recorder.record(action, state: state, origin: origin) else {
            return effect
        }
        // The store reduces an effect's actions one at a time, in the order they pass through `map`, and nothing
        // else in between: the transform queues each one's cause just before the store reduces it.
        return effect.map { [causes] action in
            causes.append(sequence)
            return action
        }
    }
}

/// The causes of effect actions handed to the store and not yet reduced.
final class EffectCauses: @unchecked Sendable {
    private let lock = NSLock()
    private var pending: [Int] = []

    /// Queues the cause of an action an effect is sending.
    func append(_ cause: Int) {
        lock.withLock { pending.append(cause) }
    }

    /// The cause of the action being reduced when an effect sent it, else `nil`.
    func takeOldest() -> Int? {
        lock.withLock { pending.isEmpty ? nil : pending.removeFirst() }
    }
}

extension Reducer where State: Encodable & Sendable, Action: Encodable & Sendable {
    /// This reducer, recording each action it runs to `recorder` (see ``RecordingReducer``).
    func recording(to recorder: SessionRecorder<State, Action>) -> RecordingReducer<Self> {
        RecordingReducer(base: self, recorder: recorder)
    }
}
