import FluxorStandIn
import Foundation
import Testing

import protocol StoreKitCore.ActionRegistry
import struct StoreKitCore.ActionTypes
import struct StoreKitCore.GapEvent
import struct StoreKitCore.RegisteredAction
import class StoreKitCore.SessionRecorder
import struct StoreKitReplay.ReplayableStore

@testable import FluxorAdapter

/// A Fluxor-style todo app as its users write it: action structs conforming to Fluxor's `Action`, and reducers.
enum FluxorTodos {
    struct AddTodo: Action, Codable, Sendable { var title: String }
    struct ToggleTodo: Action, Codable, Sendable { var index: Int }
    /// An action that is `Encodable`, as Fluxor asks, but not `Decodable`: replay could not read it back.
    struct Trace: Action { var note: String }

    enum Actions: ActionRegistry {
        static let types = ActionTypes {
            AddTodo.self
            ToggleTodo.self
        }
    }

    static func reducers(togglesWork: Bool = true) -> [Reducer<TodoState>] {
        [
            Reducer { state, action in
                if let add = action as? AddTodo { state.todos.append(add.title) }
            },
            Reducer { state, action in
                guard togglesWork, let toggle = action as? ToggleTodo else { return }
                if let at = state.done.firstIndex(of: toggle.index) {
                    state.done.remove(at: at)
                } else {
                    state.done.append(toggle.index)
                }
            },
        ]
    }
}

@Suite struct FluxorAdapterTests {
    typealias AppAction = RegisteredAction<FluxorTodos.Actions>

    @Test func aSessionRecordedByTheInterceptorReplaysAsAMatchAndARegressionDiverges() async throws {
        // Given a Fluxor store recorded by the interceptor, and the replay host's stores of its reducers and broken ones
        let stores = [
            ReplayableStore.fluxor(id: "todos", actions: FluxorTodos.Actions.self) {
                FluxorTodos.reducers()
            },
            ReplayableStore.fluxor(id: "todos", actions: FluxorTodos.Actions.self) {
                FluxorTodos.reducers(togglesWork: false)
            },
        ]

        // When the app dispatches through the store, with an action that is not Decodable among them
        let (session, reports) = try await recordAndReplay(
            initialState: TodoState(), storeID: "todos", stores: stores
        ) {
            (recorder: SessionRecorder<TodoState, AppAction>) in
            let store = Store(
                initialState: TodoState(), environment: (), reducers: FluxorTodos.reducers())
            store.register(interceptor: RecordingInterceptor(recorder: recorder))
            store.dispatch(action: FluxorTodos.AddTodo(title: "Milk"))
            store.dispatch(action: FluxorTodos.AddTodo(title: "Eggs"))
            store.dispatch(action: FluxorTodos.ToggleTodo(index: 0))
        }

        // Then each action is recorded by its type's name, and replays as a match; the broken reducers diverge
        #expect(session.actions.map(\.name) == ["AddTodo", "AddTodo", "ToggleTodo"])
        #expect(reports[0].verdictText == "match: all 3 replayed states equal the recorded ones")
        #expect(
            reports[1].verdictText.hasPrefix(
                "diverged at step 3 of 3\n  action  ToggleTodo(index: 0)"),
            "\(reports[1].verdictText)")
        #expect(reports[1].verdictText.hasSuffix("1 difference: done[0]  0 -> (absent)"))
    }

    @Test func anActionThatIsOnlyEncodableIsAGapSayingItIsNotRegistered() async throws {
        // When a Fluxor app dispatches an action that is Encodable but not in the registry
        let (session, _) = try await recordAndReplay(
            initialState: TodoState(), storeID: "todos", stores: []
        ) {
            (recorder: SessionRecorder<TodoState, AppAction>) in
            let store = Store(
                initialState: TodoState(), environment: (), reducers: FluxorTodos.reducers())
            store.register(interceptor: RecordingInterceptor(recorder: recorder))
            store.dispatch(action: FluxorTodos.Trace(note: "opened"))
            store.dispatch(action: FluxorTodos.AddTodo(title: "Milk"))
        }

        // Then it is a gap of reason notEncodable that names the registry to add it to
        #expect(
            session.gaps == [
                GapEvent(
                    firstSequence: 1, lastSequence: 1, reason: .notEncodable,
                    message: "'Trace' was not recorded: its type is not listed in Actions.types")
            ])
        #expect(session.actions.map(\.sequence) == [2])
    }
}
