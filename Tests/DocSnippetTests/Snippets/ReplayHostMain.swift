import SampleFeatures
import StoreKitReplay

/// The README's replay host: the one call its `main.swift` makes, after its imports.
func readmeReplayHostMain() -> Never {
    // snippet: readme-replay-host
    // Sources/my-replay-host/main.swift, after `import MyFeatures` and `import StoreKitReplay`
    ReplayHost.run(stores: [
        ReplayableStore(id: "todos", reducer: Todos.reducer),      // the storeID you record with
    ])
    // snippet end
}

/// docs/replay-host-protocol.md's replay host, with two stores.
func protocolReplayHostMain() -> Never {
    // snippet: protocol-replay-host
    // Sources/my-replay-host/main.swift, after `import MyFeatures` and `import StoreKitReplay`
    ReplayHost.run(stores: [
        ReplayableStore(id: "todos", reducer: Todos.reducer),
        ReplayableStore(id: "settings", reducer: Settings.reducer),
    ])
    // snippet end
}
