import StoreKitCore
import StoreKitSystem
import StoreKitTestFixtures
import Testing

@Suite struct SelectorTests {
    @Test func aPlainSelectorProjects() {
        let total = Selector<Tally.State, Int>(keyPath: \.total)
        var state = Tally.State()
        state.total = 9
        #expect(total(state) == 9)
    }

    @Test func aMemoizedSelectorRerunsOnlyWhenAnInputChanged() {
        // Given a memoized selector over the items that counts its projector's runs
        let runs = Locked(0)
        let itemCount = Selector.create(Selector<Tally.State, [Int]>(keyPath: \.items)) { items -> Int in
            runs.withLock { $0 += 1 }
            return items.count
        }
        var state = Tally.State()

        // When it is read twice with the same items, then with other items
        #expect(itemCount(state) == 0)
        state.labels.insert("not an input")
        #expect(itemCount(state) == 0)
        state.items.append(1)
        #expect(itemCount(state) == 1)

        // Then the projector ran once per distinct input
        #expect(runs.withLock { $0 } == 2)
    }

    @Test func aMemoizedSelectorOfFourInputs() {
        let runs = Locked(0)
        let summary = Selector.create(
            Selector<Tally.State, Int>(keyPath: \.total), Selector<Tally.State, [Int]>(keyPath: \.items),
            Selector<Tally.State, Set<String>>(keyPath: \.labels), Selector<Tally.State, Double>(keyPath: \.ratio)
        ) { total, items, labels, ratio -> String in
            runs.withLock { $0 += 1 }
            return "\(total)/\(items.count)/\(labels.count)/\(ratio)"
        }
        var state = Tally.State()
        #expect(summary(state) == "0/0/0/1.0")
        #expect(summary(state) == "0/0/0/1.0")
        state.ratio = 2
        #expect(summary(state) == "0/0/0/2.0")
        #expect(runs.withLock { $0 } == 2)
    }

    @Test func selectorsAreEqualOnlyToTheirCopies() {
        let a = Selector<Tally.State, Int>(keyPath: \.total)
        let copy = a
        let b = Selector<Tally.State, Int>(keyPath: \.total)
        #expect(a == copy)
        #expect(a != b)
    }
}
