import Foundation
import StoreKitCore
import StoreKitJSON

/// States of known sizes for the benchmarks: an inventory of `itemCount` items of about 100 bytes each.
enum Inventory {
    struct Item: Codable, Equatable, Sendable {
        var id: Int
        var name: String
        var quantity: Int
        var price: Double
        var tags: [String]
    }

    struct State: Codable, Equatable, Sendable {
        var items: [Item]
        var revision = 0
    }

    enum Action: Codable, Equatable, Sendable {
        case restock(index: Int, amount: Int)
    }

    static func state(itemCount: Int) -> State {
        State(
            items: (0..<itemCount).map { index in
                Item(
                    id: index, name: "Item number \(index) in aisle \(index % 40)", quantity: index % 17,
                    price: Double(index % 1000) + 0.99, tags: ["shelf-\(index % 9)", "kind-\(index % 5)"])
            })
    }

    static let reducer = Reducer<State, Action> { state, action in
        switch action {
        case .restock(let index, let amount):
            state.items[index % state.items.count].quantity += amount
            state.revision += 1
        }
    }

    /// How many items make a state of about `bytes` encoded bytes.
    static func itemCount(forBytes bytes: Int) -> Int {
        let one = (try? CanonicalJSONEncoder().encodeToBytes(state(itemCount: 100)).count) ?? 10_000
        return max(1, bytes * 100 / one)
    }
}
