import Foundation
import ReSwiftStandIn
import Testing

import protocol StoreKitCore.ActionRegistry
import struct StoreKitCore.ActionTypes
import struct StoreKitCore.GapEvent
import struct StoreKitCore.RegisteredAction
import class StoreKitCore.SessionRecorder
import struct StoreKitReplay.ReplayableStore

@testable import ReSwiftAdapter

/// A ReSwift-style todo app as its users write it: action structs conforming to ReSwift's `Action`, and one reducer
/// function of the action and the state.
enum ReSwiftTodos {
    struct AddTodo: Action, Codable, Sendable { var title: String }
    struct ToggleTodo: Action, Codable, Sendable { var index: Int }
    /// A thunk-like action holding a closure: it cannot be `Codable`.
    struct Log: Action { var write: (String) -> Void }

    enum Actions: ActionRegistry {
        static let types = ActionTypes {
            AddTodo.self
            ToggleTodo.self
        }
    }

    static func reducer(action: Action, state: TodoState?) -> TodoState {
        var state = state ?? TodoState()
        switch action {
        case let add as AddTodo: state.todos.append(add.title)
        case let toggle as ToggleTodo:
            if let at = state.done.firstIndex(of: toggle.index) {
                state.done.remove(at: at)
            } else {
                state.done.append(toggle.index)
            }
        default: break
        }
        return state
    }

    /// The same reducer with a regression: toggling does nothing.
    static func brokenReducer(action: Action, state: TodoState?) -> TodoState {
        action is ToggleTodo ? state ?? TodoState() : reducer(action: action, state: state)
    }
}

@Suite struct ReSwiftAdapterTests {
    typealias AppAction = RegisteredAction<ReSwiftTodos.Actions>

    @Test func aSessionRecordedByTheMiddlewareReplaysAsAMatchAndARegressionDiverges() async throws {
        // Given a ReSwift store recorded by the middleware, and the replay host's stores of its reducer and a broken one
        let stores = [
            ReplayableStore.reSwift(
                id: "todos", reducer: ReSwiftTodos.reducer, actions: ReSwiftTodos.Actions.self),
            ReplayableStore.reSwift(
                id: "todos", reducer: ReSwiftTodos.brokenReducer, actions: ReSwiftTodos.Actions.self),
        ]

        // When the app dispatches through the store
        let (session, reports) = try await recordAndReplay(
            initialState: TodoState(), storeID: "todos", stores: stores
        ) {
            (recorder: SessionRecorder<TodoState, AppAction>) in
            let store = Store<TodoState>(
                reducer: ReSwiftTodos.reducer, state: TodoState(), middleware: [recorder.middleware()])
            store.dispatch(ReSwiftTodos.AddTodo(title: "Milk"))
            store.dispatch(ReSwiftTodos.AddTodo(title: "Eggs"))
            store.dispatch(ReSwiftTodos.ToggleTodo(index: 1))
        }

        // Then each action is recorded by its type's name with the state after it, and replays as a match; the broken
        // reducer diverges at the toggle
        #expect(session.actions.map(\.name) == ["AddTodo", "AddTodo", "ToggleTodo"])
        #expect(
            session.actions.last?.state
                == .object([
                    "todos": .array([.string("Milk"), .string("Eggs")]), "done": .array([.integer(1)]),
                    "isLoading": .bool(false),
                ]))
        #expect(reports[0].verdictText == "match: all 3 replayed states equal the recorded ones")
        #expect(
            reports[1].verdictText.hasPrefix(
                "diverged at step 3 of 3\n  action  ToggleTodo(index: 1)"),
            "\(reports[1].verdictText)")
        #expect(reports[1].verdictText.hasSuffix("1 difference: done[0]  1 -> (absent)"))
    }

    @Test func anActionThatIsNotCodableIsAGapNamingItsType() async throws {
        // Given a ReSwift store recorded by the middleware
        let stores = [
            ReplayableStore.reSwift(
                id: "todos", reducer: ReSwiftTodos.reducer, actions: ReSwiftTodos.Actions.self)
        ]

        // When the app dispatches an action holding a closure between two others
        let (session, reports) = try await recordAndReplay(
            initialState: TodoState(), storeID: "todos", stores: stores
        ) {
            (recorder: SessionRecorder<TodoState, AppAction>) in
            let store = Store<TodoState>(
                reducer: ReSwiftTodos.reducer, state: TodoState(), middleware: [recorder.middleware()])
            store.dispatch(ReSwiftTodos.AddTodo(title: "Milk"))
            store.dispatch(ReSwiftTodos.Log(write: { _ in }))
            store.dispatch(ReSwiftTodos.ToggleTodo(index: 0))
        }

        // Then it is a gap of reason notEncodable at its place, and the rest replays
        #expect(
            session.gaps == [
                GapEvent(
                    firstSequence: 2, lastSequence: 2, reason: .notEncodable,
                    message: "'Log' was not recorded: it is not Codable")
            ])
        #expect(session.actions.map(\.sequence) == [1, 3])
        #expect(session.end?.dropped == 1)
        #expect(reports[0].verdict == .incomplete(gaps: session.gaps))
    }
}
