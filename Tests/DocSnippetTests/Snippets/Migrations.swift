import SampleFeatures
import StoreKitReplay

/// docs/migrations.md's replay host, whose timers store migrates sessions of schema versions 1 and 2.
func migratingReplayHostMain() -> Never {
    // snippet: migrations-replay-host
    ReplayHost.run(stores: [
        ReplayableStore(id: "timers", reducer: Timers.reducer, schemaVersion: "3") { version, value in
            var json = value.json
            switch value.kind {
            case .state:
                if version == "1" {
                    // 2 added `var isPaused = false` to every timer
                    json = try json.addingMember("isPaused", default: .bool(false), at: "timers[*]")
                }
                if version == "1" || version == "2" {
                    // 3 renamed `label` to `title`
                    json = try json.renamingMember("label", to: "title", at: "timers[*]")
                }
            case .action:
                if version == "1" || version == "2" {
                    // 3 renamed the case `.start(id:)` to `.resume(id:)`, and `label` to `title` in `.add`
                    json = try json.renamingCase("start", to: "resume")
                    json = try json.renamingMember("label", to: "title", at: "add")
                }
            }
            return json
        },
    ])
    // snippet end
}

/// docs/replay-host-protocol.md's store with a schema version and a migration.
func todosStoreWithMigration() -> ReplayableStore {
    // snippet: protocol-store-with-migration
    ReplayableStore(id: "todos", reducer: Todos.reducer, schemaVersion: "2") { version, value in
        guard version == "1", value.kind == .state else { return value.json }
        return try value.json.addingMember("isPaused", default: .bool(false), at: "todos[*]")
    }
    // snippet end
}
