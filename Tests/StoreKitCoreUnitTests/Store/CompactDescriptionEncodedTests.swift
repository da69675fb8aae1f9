import StoreKitCore
import StoreKitJSON
import Testing

/// Nested features whose actions are `Codable`, as recorded actions are; each case's labels are in sorted order, so
/// the JSON keeps the order Swift writes them in.
enum EncodedRehearsal {
    enum Action: Codable, Equatable { case timerTick, rename(name: String), rated(Int, note: String?) }
}

enum EncodedPath {
    enum Action: Codable, Equatable { case element(action: EncodedRehearsal.Action, id: Int), popFrom(id: Int) }
}

enum EncodedApp {
    enum Action: Codable, Equatable { case path(EncodedPath.Action), reset, tagged([String], Bool) }
}

/// A struct action, named by its type.
struct EncodedSave: Codable, Equatable { var id: Int }

/// A struct action without fields.
struct EncodedRefresh: Codable, Equatable {}

/// Separate action types, as a Fluxor-style store registers them.
enum EncodedRegistry: ActionRegistry {
    static let types = ActionTypes {
        EncodedSave.self
        EncodedRefresh.self
        EncodedRehearsal.Action.self
    }
}

@Suite struct CompactDescriptionEncodedTests {
    @Test(arguments: [
        EncodedApp.Action.path(.element(action: .timerTick, id: 2)),
        EncodedApp.Action.path(.element(action: .rename(name: "Ada \"A\"\n"), id: 3)),
        EncodedApp.Action.path(.element(action: .rated(4, note: "ok"), id: 3)),
        EncodedApp.Action.path(.popFrom(id: 4)),
        EncodedApp.Action.reset,
        EncodedApp.Action.tagged(["a", "b"], true),
    ])
    func describesARecordedActionAsTheActionItselfIsDescribed(action: EncodedApp.Action) throws {
        // Given an action as a session records it: its JSON and its name
        let json = try JSONValue(parsing: CanonicalJSONEncoder().encodeToBytes(action))
        // When it is described from the JSON
        let described = CompactDescription(encodedAction: json, name: ActionName.of(action))
        // Then it reads as TestStore reads the action itself
        #expect(described.description == CompactDescription(action).description)
    }

    @Test func describesAStructActionByItsName() throws {
        let json = try JSONValue(parsing: CanonicalJSONEncoder().encodeToBytes(EncodedSave(id: 3)))
        #expect(CompactDescription(encodedAction: json, name: "EncodedSave").description == "EncodedSave(id: 3)")
    }

    @Test(arguments: [
        RegisteredAction<EncodedRegistry>(EncodedSave(id: 3)),
        RegisteredAction<EncodedRegistry>(EncodedRefresh()),
        RegisteredAction<EncodedRegistry>(EncodedRehearsal.Action.rename(name: "Ada")),
        RegisteredAction<EncodedRegistry>(EncodedRehearsal.Action.timerTick),
    ])
    func describesARegisteredActionAsTheActionItWraps(action: RegisteredAction<EncodedRegistry>) throws {
        // Given a registered action as a session records it: inside its type's name
        let json = try JSONValue(parsing: CanonicalJSONEncoder().encodeToBytes(action))
        // When it is described from the JSON
        let described = CompactDescription(encodedAction: json, name: ActionName.of(action))
        // Then it reads as TestStore reads the action itself
        #expect(described.description == CompactDescription(action).description)
    }

    @Test func readsTheOuterMemberAsTheCaseWhenTheNameDoesNotFollowTheJSON() throws {
        // Given a session written by hand, whose name is not the action's case path
        let json = try JSONValue(parsing: #"{"addTodo":{"id":"A","title":"Milk"}}"#)
        // Then the action reads from its JSON
        #expect(CompactDescription(encodedAction: json, name: "added.by.hand").description == #"addTodo(id: "A", title: "Milk")"#)
    }

    @Test func putsTheLabelsOfACaseInCanonicalOrder() throws {
        // The JSON keeps no declaration order: `element(id:action:)` reads with `action` first.
        let json = try JSONValue(parsing: #"{"path":{"_0":{"element":{"id":2,"action":{"rehearsal":{"_0":{"timerTick":{}}}}}}}}"#)
        let described = CompactDescription(encodedAction: json, name: "path.element.rehearsal.timerTick")
        #expect(described.description == "path(.element(action: .rehearsal(.timerTick), id: 2))")
    }

    @Test func describesAValueAsANestedCase() throws {
        let json = try JSONValue(parsing: #"{"countingIn":{"beatsLeft":4}}"#)
        #expect(CompactDescription(encodedValue: json).description == ".countingIn(beatsLeft: 4)")
        #expect(CompactDescription(encodedValue: try JSONValue(parsing: #"{"ready":{}}"#)).description == ".ready")
    }

    @Test func describesANestedStructAsSwiftWritesItWhereItsTypeIsInferred() throws {
        // Given an action whose payload is a struct, whose type the JSON does not name
        let json = try JSONValue(parsing: #"{"added":{"_0":{"id":1,"tags":[{"name":"x","rank":2}],"title":"Milk"}}}"#)
        // Then the struct reads as `.init(…)`, as it would in Swift source where its type is inferred
        #expect(
            CompactDescription(encodedAction: json, name: "added").description
                == #"added(.init(id: 1, tags: [.init(name: "x", rank: 2)], title: "Milk"))"#)
    }

    @Test func describesAnObjectWhoseKeysCannotBePropertiesAsADictionary() throws {
        let json = try JSONValue(parsing: #"{"counted":{"_0":{"a b":1,"9":2}}}"#)
        #expect(CompactDescription(encodedAction: json, name: "counted").description == #"counted(["9": 2, "a b": 1])"#)
    }
}
