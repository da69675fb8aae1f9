import Foundation
import RehearsalFeatures
import SampleFeatures
import StoreKitCore
import StoreKitReplay

/// Every sample feature as a replayable store, for the samples' replay host and golden tests (the sample app
/// itself links only `StoreKitCore` and the features).
public enum SampleStores {
    /// The counter, the todo list, the scoreboard, the rehearsal planner, the grocery list and the ReSwift-style
    /// todo list, with their replayable effects: the scoreboard's post-score effect and the rehearsal timer.
    public static let all: [ReplayableStore] = [counter, todos, scoreboard, rehearsals, groceries, toDoList]

    /// The same stores with a deliberate regression in the ReSwift-style todo list: a new todo is inserted first
    /// instead of last.
    public static let withToDoInsertRegression: [ReplayableStore] = [
        counter, todos, scoreboard, rehearsals, groceries,
        ReplayableStore(id: ToDoList.storeID, reducer: ToDoList.reducerInsertingFirst),
    ]

    /// The same stores with a deliberate regression: toggling a todo does nothing.
    public static let withTodoToggleRegression: [ReplayableStore] = [
        counter,
        todos(reducer: Reducer<Todos.State, Todos.Action> { state, action in
            if case .toggleCompleted = action { return }
            Todos.reducer.reduce(&state, action)
        }),
        scoreboard,
        rehearsals, groceries,
    ]

    /// The same stores with a deliberate regression in the grocery list, whose actions are separate structs: putting
    /// an item in the basket does nothing.
    public static let withGroceryToggleRegression: [ReplayableStore] = [
        counter, todos, scoreboard, rehearsals,
        ReplayableStore(
            id: Groceries.storeID,
            reducer: Reducer<Groceries.State, Groceries.Action> { state, action in
                if action.is(Groceries.ToggleBought.self) { return }
                Groceries.reducer.reduce(&state, action)
            }),
    ]

    /// The same stores with a deliberate regression deep in the rehearsal planner: when a song's time is up, the
    /// timer's tick no longer moves the rehearsal on to the next song.
    public static let withRehearsalAdvanceRegression: [ReplayableStore] = [
        counter, todos, scoreboard,
        ReplayableStore(
            id: RehearsalApp.storeID,
            reducer: RehearsalApp.reducer(
                rehearsal: Reducer<Rehearsal.State, Rehearsal.Action> { state, action in
                    guard case .timerTick = action, state.phase == .playing, let song = state.currentSong,
                        state.elapsedInSong + .seconds(1) >= song.length
                    else {
                        Rehearsal.reducer.reduce(&state, action)
                        return
                    }
                    // The broken branch: the last second of a song is counted, but the rehearsal stays on it.
                    state.elapsedInSong += .seconds(1)
                    state.elapsed += .seconds(1)
                    state.songTimes[song.id, default: .zero] += .seconds(1)
                }),
            effects: [RehearsalApp.timer]),
        groceries,
    ]

    /// The same stores with a counter reducer that crashes the process on `reset`, as a reducer that traps does.
    public static let withCounterResetCrash: [ReplayableStore] = [
        ReplayableStore(
            id: Counter.storeID,
            reducer: Reducer<Counter.State, Counter.Action> { state, action in
                if case .reset = action { fatalError("the counter cannot reset") }
                Counter.reducer.reduce(&state, action)
            }),
        todos, scoreboard, rehearsals, groceries,
    ]

    /// The same stores with a deliberate regression in the scoreboard's post-score effect: a refactor that words a
    /// failed post in its own message, so the `postFailed` it sends carries another reason than the recorded one.
    public static let withScorePostRegression: [ReplayableStore] = [
        counter, todos,
        ReplayableStore(id: Scoreboard.storeID, reducer: Scoreboard.reducer, effects: [postScoreReworded]),
        rehearsals, groceries,
    ]

    /// The post-score effect as the regression has it: the same call to the server, but a failure reported in the
    /// effect's own words ("could not post the score: …") rather than as the server's error.
    private static let postScoreReworded = Effect<Scoreboard.State, Scoreboard.Action>("post score", replay: .rerun) {
        action, context in
        switch action {
        case .homeScored, .awayScored:
            let state = context.state
            do {
                let receipt = try await context.call(
                    "score.post", with: Scoreboard.ScorePost(home: state.home, away: state.away)
                ) { post in
                    try await unreachableServer.post(home: post.home, away: post.away)
                }
                context.send(.scorePosted(receipt: receipt))
            } catch {
                context.send(.postFailed(reason: "could not post the score: \(error)"))
            }
        default:
            break
        }
    }

    /// The same stores with a nondeterministic todo reducer: toggling a todo also rewrites its title from a `Set` of
    /// its characters, whose order is the process's hash seed, so two replays of the same actions disagree.
    public static let withNondeterministicSet = withToggledTodo { $0.title = String(Set($0.title)) }

    /// The same stores with a todo reducer that reads the clock: toggling a todo stamps it with `Date()` instead of
    /// a time the action carries, so two replays of the same actions disagree.
    public static let withNondeterministicClock = withToggledTodo { $0.createdAt = Date() }

    /// The same stores with a todo reducer that also does `change` to the todo it toggles.
    private static func withToggledTodo(_ change: @escaping @Sendable (inout Todos.Todo) -> Void) -> [ReplayableStore] {
        let reducer = Reducer<Todos.State, Todos.Action> { state, action in
            Todos.reducer.reduce(&state, action)
            guard case .toggleCompleted(let id) = action, let index = state.todos.firstIndex(where: { $0.id == id })
            else { return }
            change(&state.todos[index])
        }
        return [counter, todos(reducer: reducer), scoreboard, rehearsals, groceries]
    }

    /// The counter.
    public static let counter = ReplayableStore(id: Counter.storeID, reducer: Counter.reducer)
    /// The todo list.
    public static let todos = todos(reducer: Todos.reducer)

    /// The todo list with `reducer`. Its state, the samples' largest, is made of value types, so each replayed state
    /// is encoded by copying the bytes of the todos unchanged since the step before.
    private static func todos(reducer: Reducer<Todos.State, Todos.Action>) -> ReplayableStore {
        ReplayableStore(id: Todos.storeID, reducer: reducer, reusesEncodingOfUnchangedParts: true)
    }
    /// The scoreboard, with its post-score effect, whose server replay never reaches.
    public static let scoreboard = ReplayableStore(
        id: Scoreboard.storeID, reducer: Scoreboard.reducer, effects: [Scoreboard.postScore(to: unreachableServer)])
    /// The grocery list, whose actions are separate structs (its fetch effect is not replayed: the recorded answers
    /// are).
    public static let groceries = ReplayableStore(id: Groceries.storeID, reducer: Groceries.reducer)
    /// The ReSwift-style todo list, whose todos are identified by `toDoID`.
    public static let toDoList = ReplayableStore(id: ToDoList.storeID, reducer: ToDoList.reducer)
    /// The rehearsal planner, with its timer.
    public static let rehearsals = ReplayableStore(
        id: RehearsalApp.storeID, reducer: RehearsalApp.reducer, effects: [RehearsalApp.timer])

    /// The score server of the replayable scoreboard: replay hands the post-score effect the recorded receipts and
    /// errors without running its call, so a replay that reaches the server is a bug, and it stops the process.
    static let unreachableServer = UnreachableScoreServer()
}
