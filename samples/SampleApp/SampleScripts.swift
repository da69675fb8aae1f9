import Foundation
import RehearsalFeatures
import SampleFeatures
import SampleSupport
import StoreKitCore

/// Scripted user journeys through each sample feature, as a real app would dispatch them.
enum SampleScripts {
    /// A user counting up and down, changing the step, and resetting.
    static func counter(_ store: Store<Counter.State, Counter.Action>, actions: Int, random: inout SeededRandom) {
        for index in 0..<actions {
            switch (index % 10, Int.random(in: 0..<4, using: &random)) {
            case (9, _): store.dispatch(.reset)
            case (4, let choice): store.dispatch(.setStep(choice + 1))
            case (_, 0): store.dispatch(.decrement)
            default: store.dispatch(.increment)
            }
        }
    }

    /// A user adding a shopping list, tagging, ticking off, filtering, deleting and clearing.
    static func todos(_ store: Store<Todos.State, Todos.Action>, actions: Int, random: inout SeededRandom) {
        TodoJourney.dispatch(to: store, actions: actions, random: &random)
    }

    /// A match: goals for both sides, each posted to the server by the effect, and a reset at half time.
    static func scoreboard(
        _ store: Store<Scoreboard.State, Scoreboard.Action>, actions: Int, random: inout SeededRandom
    ) async {
        let home = ["Ada", "Grace", "Linus"]
        let away = ["Ken", "Dennis", "Barbara"]
        var dispatched = 0
        while dispatched < actions {
            let roll = Int.random(in: 0..<10, using: &random)
            if roll == 0 && dispatched > actions / 2 {
                store.dispatch(.reset)
            } else if roll < 6 {
                store.dispatch(.homeScored(points: roll < 3 ? 1 : 2, scorer: home.randomElement(using: &random)!))
            } else {
                store.dispatch(.awayScored(points: roll < 8 ? 1 : 3, scorer: away.randomElement(using: &random)!))
            }
            // The effect's answer is part of the journey: wait for it so the session reads like a real match.
            await store.waitForEffects()
            dispatched += 1
        }
    }
}

extension SampleScripts {
    /// A shopper with a grocery list of separate struct actions: the saved list fetched by the effect, items added
    /// and put in the basket, the basket cleared, and the saved list fetched again now and then.
    static func groceries(
        _ store: Store<Groceries.State, Groceries.Action>, actions: Int, random: inout SeededRandom
    ) async {
        let names = ["Milk", "Eggs", "Bread", "Apples", "Coffee", "Rice", "Cheese", "Tea"]
        for index in 0..<actions {
            let items = store.state.items
            switch (index % 12, Int.random(in: 0..<3, using: &random)) {
            case (0, _):
                store.dispatch(Groceries.FetchItems())
                // The effect's answer is part of the journey: wait for it, as the shopper would.
                await store.waitForEffects()
            case (11, _): store.dispatch(Groceries.ClearBought())
            case (_, 0) where !items.isEmpty:
                store.dispatch(Groceries.ToggleBought(id: items.randomElement(using: &random)!.id))
            default: store.dispatch(Groceries.AddItem(name: names.randomElement(using: &random)!))
            }
        }
    }

    /// A band's weeks with the rehearsal planner (see ``RehearsalJourney``), until at least `actions` user actions
    /// were dispatched; the rehearsal timer runs on `clock`, which the journey advances itself.
    static func rehearsals(
        _ store: Store<RehearsalApp.State, RehearsalApp.Action>, clock: ScriptedClock, actions: Int,
        random: inout SeededRandom
    ) async {
        var journey = RehearsalJourney(store: store, clock: clock, random: random)
        await journey.run(actions: actions)
        random = journey.random
    }
}

/// A pretend pantry whose saved list is always the same two items.
struct ScriptedPantry: Groceries.Pantry {
    func savedItems() async -> [String] { ["Flour", "Sugar"] }
}

/// A pretend score server: every receipt counts up, and every fifth post fails as a busy server would (with a
/// ``ServerBusy`` error, whose type name the session records; a `private` type's name would hold an address).
struct FakeScoreServer: Scoreboard.ScoreServer {
    private let counter = ReceiptCounter()

    func post(home: Int, away: Int) async throws -> Int {
        let receipt = await counter.next()
        if receipt % 5 == 0 { throw ServerBusy() }
        return receipt
    }

    struct ServerBusy: Error, CustomStringConvertible {
        var description: String { "server busy (HTTP 503)" }
    }

    private actor ReceiptCounter {
        private var value = 1000
        func next() -> Int {
            value += 1
            return value
        }
    }
}
