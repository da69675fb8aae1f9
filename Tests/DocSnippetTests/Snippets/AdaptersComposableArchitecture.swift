import ComposableArchitectureStandIn
@testable import ComposableArchitectureAdapter
import struct StoreKitCore.AppInfo
import class StoreKitCore.FileTransport
import class StoreKitCore.SessionRecorder
import enum StoreKitReplay.ReplayHost
import struct StoreKitReplay.ReplayableStore

/// A TCA feature, as docs/adapters.md shows it.
private enum ComposableArchitectureDocs {
    struct AppFeature: Reducer, Sendable {
        struct State: Codable, Equatable, Sendable { var count = 0 }
        enum Action: Codable, Sendable { case increment }
        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            state.count += 1
            return .none
        }
    }

    @MainActor static func recordComposable() -> Store<AppFeature.State, AppFeature.Action> {
        // snippet: adapters-tca
        let recorder = SessionRecorder<AppFeature.State, AppFeature.Action>(
            initialState: AppFeature.State(), transport: FileTransport(path: "/tmp/app.jsonl"),
            configuration: .init(storeID: "app", app: AppInfo(name: "MyApp")))
        let store = Store(initialState: AppFeature.State()) { AppFeature().recording(to: recorder) }
        // snippet end
        return store
    }

    static func replayComposable() -> Never {
        // snippet: adapters-tca-replay-host
        ReplayHost.run(stores: [.composable(id: "app", reducer: AppFeature())])
        // snippet end
    }
}
