import Foundation
import SampleReplayStores
import StoreKitReplay

// The samples' replay host: the whole body is one call listing the stores it can replay.
// Test hook: SAMPLE_HOST_REGRESSION=todos-toggle swaps in a todo reducer that no longer toggles, so tests and
// newcomers can see `replay-cli diff` find a regression.
let regressed = ProcessInfo.processInfo.environment["SAMPLE_HOST_REGRESSION"] == "todos-toggle"
ReplayHost.run(stores: regressed ? SampleStores.withTodoToggleRegression : SampleStores.all)
