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
}
