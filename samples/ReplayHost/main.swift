import Foundation
import SampleReplayStores
import StoreKitReplay

// The samples' replay host: the whole body is one call listing the stores it can replay.
// Test hook: SAMPLE_HOST_REGRESSION swaps in a deliberate regression, so tests and newcomers can see
// `replay-cli diff` find one: `todos-toggle` (a todo reducer that no longer toggles), `grocery-toggle` (a grocery
// list, of struct actions, whose items no longer go in the basket), `todo-insert` (a ReSwift-style todo list that
// inserts a new todo first instead of last) or `rehearsal-advance` (a
// rehearsal whose timer no longer moves on to the next song when a song's time is up); or an effect regression:
// `score-post` (the scoreboard's post-score effect words a failed post in its own message, so the `postFailed` it
// sends differs from the recorded one, shown as the effect's action, `-` recorded and `+` sent); or a
// nondeterministic todo reducer, for `--determinism`: `nondeterministic-set` (a title rebuilt from a Set's order) or
// `nondeterministic-clock` (a toggle stamped with `Date()`); or a reducer that crashes: `counter-crash` (the counter
// traps on `reset`).
let stores: [ReplayableStore]
switch ProcessInfo.processInfo.environment["SAMPLE_HOST_REGRESSION"] {
case "todos-toggle": stores = SampleStores.withTodoToggleRegression
case "grocery-toggle": stores = SampleStores.withGroceryToggleRegression
case "todo-insert": stores = SampleStores.withToDoInsertRegression
case "rehearsal-advance": stores = SampleStores.withRehearsalAdvanceRegression
case "score-post": stores = SampleStores.withScorePostRegression
case "nondeterministic-set": stores = SampleStores.withNondeterministicSet
case "nondeterministic-clock": stores = SampleStores.withNondeterministicClock
case "counter-crash": stores = SampleStores.withCounterResetCrash
default: stores = SampleStores.all
}
ReplayHost.run(stores: stores)
