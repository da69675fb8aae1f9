import StoreKitCore
import Testing

/// An enum app action whose feature holds registered struct actions, as an app midway to structs has.
private enum MixedAction {
    case shelf(Shelf.Action)
    case element(id: Int, action: Shelf.Action)
}

@Suite struct RegisteredActionNameTests {
    @Test func aRegisteredStructIsNamedByItsTypeWithoutASetting() {
        #expect(ActionName.of(Shelf.Action(Shelf.DidFetchBooks(titles: []))) == "DidFetchBooks")
        #expect(ActionName.of(Shelf.Action(Shelf.Note(text: "x"))) == "Note")
    }

    @Test func aRegisteredEnumIsNamedByItsCasePath() {
        #expect(ActionName.of(Shelf.Action(Shelf.SortAction.byTitle(descending: true))) == "byTitle")
        #expect(ActionName.of(Shelf.Action(Shelf.SortAction.reverse)) == "reverse")
    }

    @Test func aRegisteredActionInACasePayloadIsFollowed() {
        #expect(ActionName.of(MixedAction.shelf(Shelf.Action(Shelf.AddBook(title: "a")))) == "shelf.AddBook")
        #expect(
            ActionName.of(MixedAction.element(id: 1, action: Shelf.Action(Shelf.SortAction.reverse)))
                == "element.reverse")
    }

    @Test func anUnregisteredValueIsNamedByItsType() {
        #expect(ActionName.of(Shelf.Action(unchecked: Shelf.Forgotten(reason: ""))) == "Forgotten")
    }

    @Test func aCacheNamesRegisteredActionsAsTheUncachedNameDoes() {
        // Given registered structs and enums, alone and in a case's payload
        let actions: [Any] = [
            Shelf.Action(Shelf.DidFetchBooks(titles: [])),
            Shelf.Action(Shelf.Note(text: "x")),
            Shelf.Action(Shelf.SortAction.byTitle(descending: true)),
            Shelf.Action(Shelf.SortAction.reverse),
            MixedAction.shelf(Shelf.Action(Shelf.AddBook(title: "a"))),
            MixedAction.element(id: 1, action: Shelf.Action(Shelf.SortAction.reverse)),
            MixedAction.shelf(Shelf.Action(Shelf.SortAction.byTitle(descending: false))),
            Shelf.Action(unchecked: Shelf.Forgotten(reason: "")),
        ]
        let cache = ActionNameCache()

        // When a cache names each of them twice, in two rounds; then each name is the uncached one
        for _ in 0..<2 {
            for action in actions {
                #expect(cache.name(of: action) == ActionName.of(action), "\(action)")
            }
        }
    }
}
