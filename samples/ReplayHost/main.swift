import Foundation
import SampleReplayStores
import StoreKitReplay

// The samples' replay host: the whole body is one call listing the stores it can replay.
// Test hook: SAMPLE_HOST_REGRESSION swaps in a deliberate regression, so tests and newcomers can see
// `replay-cli diff` find one: `todos-toggle` (a todo reducer that no longer toggles) or `rehearsal-advance` (a
// rehearsal whose timer no longer moves on to the next song when a song's time is up).
let stores: [ReplayableStore]
switch ProcessInfo.processInfo.environment["SAMPLE_HOST_REGRESSION"] {
case "todos-toggle": stores = SampleStores.withTodoToggleRegression
case "rehearsal-advance": stores = SampleStores.withRehearsalAdvanceRegression
default: stores = SampleStores.all
}
ReplayHost.run(stores: stores)
