import StoreKitCore
import Testing

/// Actions of a multi-feature app shaped like TCA and Fluxor ones: a navigation stack of features, each with
/// its own `Action`, some holding value enums and labelled payloads.
private enum AppAction {
    case path(StackAction<Path.Action>)
    case syncUpsList(SyncUpsList.Action)
}

private enum StackAction<Element> {
    case element(id: Int, action: Element)
    case popFrom(id: Int)
}

private enum PresentationAction<Element> {
    case presented(Element)
    case dismiss
}

private enum Path {
    enum Action {
        case detail(Detail.Action)
        case rehearse(Rehearsal.Action)
    }
}

private enum Detail {
    enum Action {
        case destination(PresentationAction<Destination.Action>)
        case editTapped
    }
}

private enum Destination {
    enum Action {
        case alert(AlertAction)
    }
}

private enum AlertAction {
    case confirmDeletion(reason: String)
}

private enum Rehearsal {
    enum Action {
        case timerTick
        case speakerChanged(Int)
    }
}

private enum Filter {
    case all, active
}

private enum SyncUpsList {
    enum Action {
        case addTodo(title: String)
        case setFilter(Filter)
        case moved(from: Int, to: Int)
        case both(Rehearsal.Action, Detail.Action)
    }
}

private struct SaveAction {
    var id: Int
}

@Suite struct ActionNameTests {
    @Test func namesAnActionByItsWholeCasePathThroughNestedActions() {
        // Given actions nested through a navigation stack into a feature's own action
        // Then the name is every case down to the innermost action's case
        #expect(ActionName.of(AppAction.path(.element(id: 1, action: .rehearse(.timerTick)))) == "path.element.rehearse.timerTick")
        #expect(ActionName.of(AppAction.path(.element(id: 2, action: .rehearse(.speakerChanged(3))))) == "path.element.rehearse.speakerChanged")
        #expect(ActionName.of(AppAction.path(.popFrom(id: 1))) == "path.popFrom")
        #expect(ActionName.of(AppAction.syncUpsList(.addTodo(title: "Milk"))) == "syncUpsList.addTodo")
    }

    @Test func followsAFiveDeepCasePathThroughGenericWrappers() {
        // Given an alert's action inside a presentation inside a detail screen inside a stack element
        let action = AppAction.path(.element(id: 7, action: .detail(.destination(.presented(.alert(.confirmDeletion(reason: "old")))))))

        // Then each of the seven cases is named, generic wrappers (`StackAction<…>`, `PresentationAction<…>`) too
        #expect(ActionName.of(action) == "path.element.detail.destination.presented.alert.confirmDeletion")
        #expect(ActionName.of(AppAction.path(.element(id: 7, action: .detail(.destination(.dismiss))))) == "path.element.detail.destination.dismiss")
    }

    @Test func stopsAtPayloadsThatAreValuesNotActions() {
        // A value enum, labelled scalars and two candidate actions (which one would be a guess) end the name
        #expect(ActionName.of(SyncUpsList.Action.setFilter(.active)) == "setFilter")
        #expect(ActionName.of(SyncUpsList.Action.addTodo(title: "Milk")) == "addTodo")
        #expect(ActionName.of(SyncUpsList.Action.moved(from: 2, to: 0)) == "moved")
        #expect(ActionName.of(SyncUpsList.Action.both(.timerTick, .editTapped)) == "both")
        #expect(ActionName.of(Filter.all) == "all")
    }

    @Test func namesAStructActionByItsType() {
        #expect(ActionName.of(SaveAction(id: 3)) == "SaveAction")
    }
}
