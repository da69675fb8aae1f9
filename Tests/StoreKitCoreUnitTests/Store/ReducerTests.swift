import StoreKitCore
import StoreKitTestFixtures
import Testing

@Suite struct ReducerTests {
    struct Parent: Equatable {
        var child = Tally.State()
        var log: [String] = []
    }

    enum ParentAction {
        case tally(Tally.Action)
        case note(String)
    }

    @Test func bothFormsReduceAlike() {
        let mutating = Reducer<Int, Int> { state, action in state += action }
        let pure = Reducer<Int, Int>(pure: { state, action in state + action })
        var a = 1
        var b = 1
        mutating.reduce(&a, 2)
        pure.reduce(&b, 2)
        #expect(a == 3)
        #expect(b == 3)
    }

    @Test func combinedReducersRunInOrder() {
        let double = Reducer<[Int], Int> { state, action in state.append(action * 2) }
        let triple = Reducer<[Int], Int> { state, action in state.append(action * 3) }
        var state: [Int] = []
        Reducer.combine(double, triple).reduce(&state, 1)
        #expect(state == [2, 3])
    }

    @Test func aScopedReducerChangesOnlyItsSubstate() {
        let scoped = Reducer<Parent, Tally.Action>.scope(\.child, Tally.reducer)
        var state = Parent()
        scoped.reduce(&state, .add(4))
        #expect(state.child.total == 4)
        #expect(state.log.isEmpty)
    }

    @Test func aScopedReducerWithActionsIgnoresOtherActions() {
        let scoped = Reducer<Parent, ParentAction>.scope(
            state: \.child, action: { if case .tally(let action) = $0 { action } else { nil } }, child: Tally.reducer)
        let notes = Reducer<Parent, ParentAction> { state, action in
            if case .note(let text) = action { state.log.append(text) }
        }
        var state = Parent()
        let app = Reducer.combine(scoped, notes)
        app.reduce(&state, .tally(.add(2)))
        app.reduce(&state, .note("hi"))
        #expect(state.child.total == 2)
        #expect(state.log == ["hi"])
    }
}
