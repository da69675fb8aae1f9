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

/// A case whose payload holds two actions, one of them labelled `action`, and one whose `action` is a value.
private enum ForwardingAction {
    case forward(from: Rehearsal.Action, action: Detail.Action)
    case relabelled(action: Int, next: Rehearsal.Action)
}

/// An action whose payload's type is only known at run time: a value in one action, an action in another.
private enum AnyPayloadAction {
    case wrapped(Any)
    case element(id: Int, action: Any)
}

/// An action whose mirror displays it as an enum or as a struct, depending on the value.
private struct ReflectsItselfAction: CustomReflectable {
    var asEnum: Bool

    var customMirror: Mirror {
        Mirror(self, children: ["tapped": 1], displayStyle: asEnum ? .enum : .struct)
    }
}

/// An action enum of plain data (no string, collection, reference or existential in any case), with a nested one.
private enum PlainAction {
    case increment
    case set(Int)
    case moved(from: Int, to: Double)
    case child(PlainChildAction)
}

private enum PlainChildAction {
    case tap
    case press(Int)
}

/// An action enum of plain data whose mirror names its case by its payload's value.
private enum MirroredPlainAction: CustomReflectable {
    case flip(Int)

    var customMirror: Mirror {
        guard case .flip(let number) = self else { return Mirror(self, children: [:]) }
        return Mirror(self, children: [(number % 2 == 0 ? "even" : "odd"): number], displayStyle: .enum)
    }
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

    @Test func followsTheElementLabelledActionOverAnotherActionAndAnotherActionOverAValueLabelledAction() {
        #expect(ActionName.of(ForwardingAction.forward(from: .timerTick, action: .editTapped)) == "forward.editTapped")
        #expect(ActionName.of(ForwardingAction.relabelled(action: 1, next: .timerTick)) == "relabelled.timerTick")
        let cache = ActionNameCache()
        #expect(cache.name(of: ForwardingAction.forward(from: .timerTick, action: .editTapped)) == "forward.editTapped")
        #expect(cache.name(of: ForwardingAction.relabelled(action: 1, next: .timerTick)) == "relabelled.timerTick")
    }

    @Test func namesAStructActionByItsType() {
        #expect(ActionName.of(SaveAction(id: 3)) == "SaveAction")
    }

    @Test func aCacheNamesEachCaseOfAnEnumOfPlainDataOnceYetFollowsItsNestedActionsAndItsOwnMirror() {
        let cache = ActionNameCache()
        // Two rounds: the second is named from what the first kept
        for _ in 0..<2 {
            #expect(cache.name(of: PlainAction.increment) == "increment")
            #expect(cache.name(of: PlainAction.set(3)) == "set")
            #expect(cache.name(of: PlainAction.set(4)) == "set")
            #expect(cache.name(of: PlainAction.moved(from: 1, to: 2.5)) == "moved")
            // A nested action is named from each value, not kept for the outer case
            #expect(cache.name(of: PlainAction.child(.tap)) == "child.tap")
            #expect(cache.name(of: PlainAction.child(.press(2))) == "child.press")
            // A type that reflects itself is asked for each value
            #expect(cache.name(of: MirroredPlainAction.flip(2)) == "even")
            #expect(cache.name(of: MirroredPlainAction.flip(3)) == "odd")
        }
        #expect(ActionName.of(PlainAction.child(.press(2))) == "child.press")
        #expect(ActionName.of(MirroredPlainAction.flip(3)) == "odd")
    }

    @Test func aCacheNamesEveryActionAsTheUncachedNameDoesWhateverItSawBefore() {
        // Given actions whose types a cache meets again with other cases, other payloads, and payloads whose type
        // is only known at run time or whose mirror depends on the value
        let actions: [Any] = [
            AppAction.path(.element(id: 1, action: .rehearse(.timerTick))),
            AppAction.path(.element(id: 2, action: .rehearse(.speakerChanged(3)))),
            AppAction.path(.popFrom(id: 1)),
            AppAction.syncUpsList(.addTodo(title: "Milk")),
            AppAction.path(.element(id: 7, action: .detail(.destination(.presented(.alert(.confirmDeletion(reason: "old"))))))),
            AppAction.path(.element(id: 7, action: .detail(.destination(.dismiss)))),
            SyncUpsList.Action.setFilter(.active),
            SyncUpsList.Action.addTodo(title: "Milk"),
            SyncUpsList.Action.moved(from: 2, to: 0),
            SyncUpsList.Action.both(.timerTick, .editTapped),
            Filter.all,
            SaveAction(id: 3),
            AnyPayloadAction.wrapped(3),
            AnyPayloadAction.wrapped(Rehearsal.Action.timerTick),
            AnyPayloadAction.wrapped(Filter.active),
            AnyPayloadAction.element(id: 1, action: "text"),
            AnyPayloadAction.element(id: 1, action: Rehearsal.Action.speakerChanged(2)),
            ReflectsItselfAction(asEnum: false),
            ReflectsItselfAction(asEnum: true),
        ]
        let cache = ActionNameCache()

        // When the cache names each of them twice, in two rounds
        for _ in 0..<2 {
            for action in actions {
                // Then each name is the uncached one
                #expect(cache.name(of: action) == ActionName.of(action), "\(action)")
            }
        }
        #expect(cache.name(of: AnyPayloadAction.wrapped(Rehearsal.Action.timerTick)) == "wrapped.timerTick")
        #expect(cache.name(of: AnyPayloadAction.wrapped(3)) == "wrapped")
        #expect(cache.name(of: ReflectsItselfAction(asEnum: true)) == "tapped")
        #expect(cache.name(of: ReflectsItselfAction(asEnum: false)) == "ReflectsItselfAction")
    }
}
