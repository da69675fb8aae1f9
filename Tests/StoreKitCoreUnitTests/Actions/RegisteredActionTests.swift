import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import StoreKitTestFixtures
import Testing

@Suite struct RegisteredActionTests {
    private let encoder = CanonicalJSONEncoder()
    private let decoder = JSONValueDecoder()

    @Test func encodesTheValueUnderItsTypesName() throws {
        let json = try encoder.encode(Shelf.Action(Shelf.DidFetchBooks(titles: ["Dune"])))
        #expect(json.canonicalString == #"{"DidFetchBooks":{"titles":["Dune"]}}"#)
        #expect(try encoder.encode(Shelf.Action(Shelf.SortAction.reverse)).canonicalString == #"{"SortAction":{"reverse":{}}}"#)
    }

    @Test func decodesWhatItEncodesToTheSameTypeAndValue() throws {
        let actions: [Shelf.Action] = [
            Shelf.Action(Shelf.FetchBooks()), Shelf.Action(Shelf.AddBook(title: "Emma")),
            Shelf.Action(Shelf.SortAction.byTitle(descending: true)), Shelf.Action(Shelf.Note(text: "hi")),
        ]
        for action in actions {
            let decoded = try decoder.decode(Shelf.Action.self, from: try encoder.encode(action))
            #expect(decoded == action)
            #expect(type(of: decoded.value) == type(of: action.value))
        }
    }

    @Test func decodingAnUnregisteredNameThrowsADecodingErrorNamingItAndTheRegistry() throws {
        // Given an action recorded under a name no registered type has
        let json = try JSONValue(parsing: Array(#"{"DidFetchTodos":{"todos":[]}}"#.utf8))

        // When it is decoded
        let error = #expect(throws: DecodingError.self) { try decoder.decode(Shelf.Action.self, from: json) }

        // Then the error names the key, says it is not registered, and carries the unregistered type
        #expect(error?.summary == "the action type 'DidFetchTodos' is not registered in Actions")
        guard case .dataCorrupted(let context) = error else {
            Issue.record("expected dataCorrupted, got \(String(describing: error))")
            return
        }
        #expect(
            context.underlyingError as? UnregisteredActionType
                == UnregisteredActionType(typeName: "DidFetchTodos", registry: "Actions"))
    }

    @Test(arguments: [#"{}"#, #"{"AddBook":{"title":"a"},"FetchBooks":{}}"#])
    func decodingAnObjectWithoutExactlyOneKeyThrowsSayingSo(text: String) throws {
        let json = try JSONValue(parsing: Array(text.utf8))
        let error = #expect(throws: DecodingError.self) { try decoder.decode(Shelf.Action.self, from: json) }
        let keys = text == "{}" ? 0 : 2
        #expect(
            error?.summary
                == "a registered action is an object with one key, its type's name, but this one has \(keys) keys")
    }

    @Test func aValueOfAnUnregisteredTypeFailsToEncodeNamingIt() throws {
        // Given a box a release build made around a type the registry does not list
        let action = Shelf.Action(unchecked: Shelf.Forgotten(reason: "oops"))

        // When it is encoded, then the error names the type and the registry
        let error = #expect(throws: EncodingError.self) { try encoder.encode(action) }
        #expect(error?.summary == "the action type 'Forgotten' is not registered in Actions")
    }

    @Test func theDebugCheckNamesAnUnregisteredTypeAndPassesARegisteredOne() {
        #expect(
            Shelf.Action.unregisteredTypeMessage(Shelf.Forgotten.self)
                == "the action type 'Forgotten' is not registered in Actions: add `Forgotten.self` to Actions.types, "
                + "or it cannot be recorded or replayed")
        #expect(Shelf.Action.unregisteredTypeMessage(Shelf.AddBook.self) == nil)
        #expect(Shelf.Action.unregisteredTypeMessage(Shelf.SortAction.self) == nil)
    }

    @Test func typesSharingANameAreNamedByTheCheckAndARenamedOneIsNot() {
        enum Users { struct AddBook: Codable, Sendable {} }
        let clash = [ActionType(Shelf.AddBook.self), ActionType(Users.AddBook.self), ActionType(Shelf.FetchBooks.self)]
        let message = ActionTypes.sharedNames(in: clash)
        #expect(message?.hasPrefix("registered action types share a name ('AddBook' names ") == true)
        #expect(message?.contains("Shelf.AddBook and ") == true)
        #expect(ActionTypes.sharedNames(in: [ActionType(Shelf.AddBook.self), ActionType(Users.AddBook.self, name: "UsersAddBook")]) == nil)
    }

    @Test func aTypeRegisteredUnderAnotherNameIsEncodedDecodedAndNamedByIt() throws {
        enum Renamed: ActionRegistry {
            static let types = ActionTypes {
                ActionType(Shelf.AddBook.self, name: "ShelfAddBook")
            }
        }
        let action = RegisteredAction<Renamed>(Shelf.AddBook(title: "Emma"))
        let json = try encoder.encode(action)
        #expect(json.canonicalString == #"{"ShelfAddBook":{"title":"Emma"}}"#)
        #expect(try decoder.decode(RegisteredAction<Renamed>.self, from: json) == action)
        #expect(ActionName.of(action) == "ShelfAddBook")
        #expect(Renamed.types.names == ["ShelfAddBook"])
    }

    @Test func equalityComparesTheWrappedTypeAndValueAndJSONForANonEquatableType() {
        #expect(Shelf.Action(Shelf.AddBook(title: "a")) == Shelf.Action(Shelf.AddBook(title: "a")))
        #expect(Shelf.Action(Shelf.AddBook(title: "a")) != Shelf.Action(Shelf.AddBook(title: "b")))
        #expect(Shelf.Action(Shelf.FetchBooks()) != Shelf.Action(Shelf.SortAction.reverse))
        #expect(Shelf.Action(Shelf.Note(text: "a")) == Shelf.Action(Shelf.Note(text: "a")))
        #expect(Shelf.Action(Shelf.Note(text: "a")) != Shelf.Action(Shelf.Note(text: "b")))
    }

    @Test func wrappingABoxKeepsItAsItIs() {
        let action = Shelf.Action(Shelf.AddBook(title: "a"))
        #expect(Shelf.Action(action).value is Shelf.AddBook)
    }

    @Test func describesTheWrappedActionAsSwiftWritesIt() {
        #expect("\(Shelf.Action(Shelf.AddBook(title: "Emma")))" == #"AddBook(title: "Emma")"#)
        #expect("\(CompactDescription(Shelf.Action(Shelf.SortAction.byTitle(descending: true))))" == "byTitle(descending: true)")
    }

    @Test func aReducerReadsTheWrappedValueByTypeOrBySwitch() {
        let action = Shelf.Action(Shelf.AddBook(title: "Emma"))
        #expect(action.as(Shelf.AddBook.self)?.title == "Emma")
        #expect(action.as(Shelf.FetchBooks.self) == nil)
        #expect(action.is(Shelf.AddBook.self))
        switch action.value {
        case let add as Shelf.AddBook: #expect(add.title == "Emma")
        default: Issue.record("the switch did not match the wrapped type")
        }
    }

    @Test func aStoreTakesTheStructsWithoutWrappingAndTheReducerSeesEachType() async {
        // Given a store of registered actions whose effect answers a fetch
        let fetch = Effect<Shelf.State, Shelf.Action>("fetch") { action, _, send in
            if action.is(Shelf.FetchBooks.self) { send(Shelf.DidFetchBooks(titles: ["Emma", "Dune"])) }
        }
        let store = Store(initialState: Shelf.State(), reducer: Shelf.reducer, effects: [fetch])

        // When the app dispatches plain structs
        store.dispatch(Shelf.FetchBooks())
        await store.waitForEffects()
        store.dispatch(Shelf.AddBook(title: "Ulysses"))
        store.dispatch(Shelf.SortAction.byTitle(descending: false))

        // Then each reached its part of the reducer
        #expect(store.state == Shelf.State(titles: ["Dune", "Emma", "Ulysses"], isLoading: false))
    }

    @Test func anEffectSendsAStructThroughItsContextWithoutWrapping() async {
        let fetch = Effect<Shelf.State, Shelf.Action>("fetch") { action, context in
            if action.is(Shelf.FetchBooks.self) { context.send(Shelf.DidFetchBooks(titles: ["Emma"])) }
        }
        let store = Store(initialState: Shelf.State(), reducer: Shelf.reducer, effects: [fetch])
        store.dispatch(Shelf.FetchBooks())
        await store.waitForEffects()
        #expect(store.state.titles == ["Emma"])
    }

    @Test func aRecorderNamesStructsByTypeAndEnumsByCaseAndGapsAnUnregisteredValue() throws {
        // Given a recorded store of registered actions
        let transport = MemoryTransport()
        let store = Store(initialState: Shelf.State(), reducer: Shelf.reducer)
        let recorder = store.startRecording(.init(storeID: "shelf", app: AppInfo(name: "Shelf")), to: transport)

        // When it gets structs, an enum, and (as only a release build lets through) an unregistered value
        store.dispatch(Shelf.AddBook(title: "Emma"))
        store.dispatch(Shelf.SortAction.byTitle(descending: true))
        store.dispatch(Shelf.Action(unchecked: Shelf.Forgotten(reason: "oops")))
        store.dispatch(Shelf.FetchBooks())
        let statistics = recorder.finishWaitingGenerously()

        // Then structs are named by type, the enum by its case, and the unregistered value is a gap naming it
        let session = try transport.session()
        #expect(session.actions.map(\.name) == ["AddBook", "byTitle", "FetchBooks"])
        #expect(session.actions.map(\.action.canonicalString) == [
            #"{"AddBook":{"title":"Emma"}}"#, #"{"SortAction":{"byTitle":{"descending":true}}}"#, #"{"FetchBooks":{}}"#,
        ])
        let gaps = session.events.compactMap { event -> GapEvent? in
            if case .gap(let gap) = event { return gap }
            return nil
        }
        #expect(gaps.map(\.reason) == [.encodingFailed])
        #expect(gaps.first?.message?.contains("the action type 'Forgotten' is not registered in Actions") == true)
        #expect(statistics.droppedEncodingFailed == 1)
    }
}
