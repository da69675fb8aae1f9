import StoreKitCore
import StoreKitReplay
import StoreKitTestFixtures
import Testing

/// A library shelf whose app once registered three action types; today's build has dropped two from its registry.
fileprivate enum Library {
    struct State: Codable, Equatable, Sendable {
        var books: [String] = []
    }

    struct Lend: Codable, Equatable, Sendable {
        var title: String
    }
    struct DidFetchLoans: Codable, Equatable, Sendable {
        var titles: [String]
    }
    struct Return: Codable, Equatable, Sendable {
        var title: String
    }

    /// The registry the session was recorded with.
    enum RecordedActions: ActionRegistry {
        static let types = ActionTypes {
            Lend.self
            DidFetchLoans.self
            Return.self
        }
    }

    /// Today's registry: the two other types were forgotten.
    enum CurrentActions: ActionRegistry {
        static let types = ActionTypes {
            Lend.self
        }
    }

    static func reducer<Registry>(_: Registry.Type) -> Reducer<State, RegisteredAction<Registry>> {
        .combine(
            .on(Lend.self) { state, lend in state.books.append(lend.title) },
            .on(DidFetchLoans.self) { state, fetched in state.books = fetched.titles },
            .on(Return.self) { state, back in state.books.removeAll { $0 == back.title } })
    }

    /// A session of lends, a fetch answer and returns, recorded with every type registered.
    static func session() throws -> Session {
        let transport = MemoryTransport()
        let store = Store(initialState: State(), reducer: reducer(RecordedActions.self))
        let recorder = store.startRecording(.init(storeID: "library", app: AppInfo(name: "Library")), to: transport)
        store.dispatch(Lend(title: "Emma"))
        store.dispatch(DidFetchLoans(titles: ["Emma", "Dune"]))
        store.dispatch(Return(title: "Dune"))
        store.dispatch(Return(title: "Emma"))
        recorder.finishWaitingGenerously()
        return try transport.session()
    }
}

@Suite struct RegisteredActionDriftTests {
    @Test func anActionOfAnUnregisteredTypeAdvisesRegisteringItNotAMigration() throws {
        // Given a session with actions of types today's registry does not list
        let session = try Library.session()
        let store = ReplayableStore(id: "library", reducer: Library.reducer(Library.CurrentActions.self))

        // When its drift is checked
        let drift = try ReplayEngine(stores: [store])
            .checkDrift(reader: SessionReader(bytes: session.ndjson, source: "library.jsonl"))

        // Then the advice names each type and the registry, and says to register them
        let types = [
            UnregisteredActionType(typeName: "DidFetchLoans", registry: "CurrentActions"),
            UnregisteredActionType(typeName: "Return", registry: "CurrentActions"),
        ]
        #expect(drift?.advice == .registerActionTypes(types))
        #expect(
            drift?.explanation == """
                schema drift: recorded by Library; 2 kinds of recorded value no longer decode under the current types:
                  action 'DidFetchLoans': once, first at step 2: the action type 'DidFetchLoans' is not registered in CurrentActions
                  action 'Return': 2 times, first at step 3: the action type 'Return' is not registered in CurrentActions
                what to do: register the action types 'DidFetchLoans' and 'Return' in CurrentActions.types: this build has no type by those names to decode the recorded actions with (if they were renamed or removed since the session was recorded, write a migration instead, docs/migrations.md)
                """)
        // And the advice survives the host's JSON
        #expect(drift.map { SchemaDrift(jsonValue: $0.jsonValue, header: $0.header) } == drift)
    }

    @Test func oneUnregisteredTypeIsAdvisedInTheSingular() {
        let advice = SchemaDrift.Advice.registerActionTypes([UnregisteredActionType(typeName: "Return", registry: "AppActions")])
        #expect(
            advice.text
                == "register the action type 'Return' in AppActions.types: this build has no type by that name to decode the recorded actions with (if it was renamed or removed since the session was recorded, write a migration instead, docs/migrations.md)"
        )
    }

    @Test func aDiffOfTheSessionStopsAtTheFirstUnregisteredActionNamingIt() throws {
        let store = ReplayableStore(id: "library", reducer: Library.reducer(Library.CurrentActions.self))
        let report = ReplayEngine(stores: [store]).replay(try Library.session())
        guard case .undecodable(let failure) = report.verdict else {
            Issue.record("expected undecodable, got \(report.verdict)")
            return
        }
        #expect(failure.step == 2)
        #expect(failure.message == "the action type 'DidFetchLoans' is not registered in CurrentActions")
    }

    @Test func theSameSessionReplaysWithEveryTypeRegistered() throws {
        let store = ReplayableStore(id: "library", reducer: Library.reducer(Library.RecordedActions.self))
        let report = ReplayEngine(stores: [store]).replay(try Library.session())
        #expect(report.verdict.name == "match")
    }
}
