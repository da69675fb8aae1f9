/// A type that lists the action types a ``RegisteredAction`` may hold: the one place an app names every separate
/// action struct of a store, the way a Fluxor or ReSwift app's `Action` protocol gathers them.
///
/// ```swift
/// enum AppActions: ActionRegistry {
///     static let types = ActionTypes {
///         FetchTodos.self
///         DidFetchTodos.self
///         AddTodo.self
///     }
/// }
/// typealias AppAction = RegisteredAction<AppActions>
/// ```
///
/// A session records each action under its type's name (`{"AddTodo":{"title":"Milk"}}`), and replay decodes it
/// through this list: a type left out of it stops a debug build at its first dispatch, and a recorded action of a
/// type no longer listed is reported as unregistered drift.
public protocol ActionRegistry: Sendable {
    /// The registered action types, one line each.
    static var types: ActionTypes { get }
}
