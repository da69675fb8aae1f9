import ComposableArchitectureStandIn
import Foundation
import Testing

import protocol StoreKitCore.ActionRegistry
import struct StoreKitCore.ActionTypes
import struct StoreKitCore.GapEvent
import struct StoreKitCore.RegisteredAction
import class StoreKitCore.SessionRecorder
import struct StoreKitReplay.ReplayableStore

@testable import ComposableArchitectureAdapter

/// A TCA-style todo feature as its users write it: a reducer whose `refresh` effect loads the todos from a service.
struct TodosFeature: Reducer, Sendable {
    enum Action: Codable, Equatable, Sendable {
        case add(String)
        case toggle(Int)
        case refresh
        case loaded([String])
    }

    /// Whether toggling works (the regression turns it off).
    var togglesWork = true
    /// What the service answers.
    var saved: @Sendable () async -> [String] = { ["Bread"] }

    func reduce(into state: inout TodoState, action: Action) -> Effect<Action> {
        switch action {
        case .add(let title):
            state.todos.append(title)
            return .none
        case .toggle(let index):
            guard togglesWork else { return .none }
            if let at = state.done.firstIndex(of: index) {
                state.done.remove(at: at)
            } else {
                state.done.append(index)
            }
            return .none
        case .refresh:
            state.isLoading = true
            return .merge(
                .send(.add("Refreshing")), .run { [saved] send in await send(.loaded(await saved())) })
        case .loaded(let titles):
            state.isLoading = false
            state.todos += titles
            return .none
        }
    }
}

@Suite struct ComposableArchitectureAdapterTests {
    @Test @MainActor func aSessionRecordedByTheWrappingReducerMarksEffectActionsAndReplaysAsAMatch()
        async throws
    {
        // Given a TCA store whose root reducer is wrapped, and the replay host's stores of the feature and a broken one
        let stores = [
            ReplayableStore.composable(id: "todos", reducer: TodosFeature()),
            ReplayableStore.composable(id: "todos", reducer: TodosFeature(togglesWork: false)),
        ]

        // When the app sends actions, one of which starts effects that send actions back
        let (session, reports) = try await recordAndReplay(
            initialState: TodoState(), storeID: "todos", stores: stores
        ) {
            (recorder: SessionRecorder<TodoState, TodosFeature.Action>) in
            let store = Store(initialState: TodoState()) { TodosFeature().recording(to: recorder) }
            store.send(.add("Milk"))
            await store.send(.refresh).finish()
            store.send(.toggle(0))
        }

        // Then the effect actions are marked with the action that started their effect, and the session replays as a
        // match; the broken feature diverges at the toggle
        let origins = session.actions.map { "\($0.sequence) \($0.name) \($0.origin)" }
        #expect(
            origins == [
                "1 add app", "2 refresh app", "3 add effect(cause: Optional(2))",
                "4 loaded effect(cause: Optional(2))",
                "5 toggle app",
            ])
        #expect(
            reports[0].verdictText
                == "match: all 5 replayed states equal the recorded ones; not checked: 2 effect actions"
                + " from a session that records no effect inputs (format 1)")
        #expect(
            reports[1].verdictText.hasPrefix(
                "diverged at step 5 of 5\n  action  toggle(0)"),
            "\(reports[1].verdictText)")
        #expect(reports[1].verdictText.hasSuffix("1 difference: done[0]  0 -> (absent)"))
    }
}
