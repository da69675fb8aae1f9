import StoreKitCore

/// A grocery list written in the Fluxor and ReSwift style: every action is its own struct, and the store's action
/// type is a ``RegisteredAction`` of the registry that lists them. Sessions name each action by its type
/// (`DidFetchItems`), and the reducer is one `on` per type, as Fluxor's `ReduceOn`.
public enum Groceries {
    /// The id sessions of this feature carry.
    public static let storeID = "groceries"

    /// One thing to buy.
    public struct Item: Codable, Equatable, Sendable, Identifiable {
        /// Its id, unique in the list.
        public var id: Int
        /// What to buy.
        public var name: String
        /// Whether it is in the basket.
        public var isBought = false

        /// Creates an item not yet bought.
        public init(id: Int, name: String) {
            self.id = id
            self.name = name
        }
    }

    /// The list.
    public struct State: Codable, Equatable, Sendable {
        /// The items, in the order added.
        public var items: [Item] = []
        /// Whether the saved list is being fetched.
        public var isLoading = false
        /// The id the next item gets.
        public var nextID = 1

        /// An empty list.
        public init() {}
    }

    /// Asks for the saved list; ``fetchItems(from:)`` answers with ``DidFetchItems``.
    public struct FetchItems: Codable, Equatable, Sendable {
        /// Creates one.
        public init() {}
    }

    /// The saved list arrived.
    public struct DidFetchItems: Codable, Equatable, Sendable {
        /// The names of the saved items.
        public var names: [String]

        /// Creates one.
        public init(names: [String]) {
            self.names = names
        }
    }

    /// The user added an item.
    public struct AddItem: Codable, Equatable, Sendable {
        /// What to buy.
        public var name: String

        /// Creates one.
        public init(name: String) {
            self.name = name
        }
    }

    /// The user put an item in the basket, or took it out.
    public struct ToggleBought: Codable, Equatable, Sendable {
        /// The item's id.
        public var id: Int

        /// Creates one.
        public init(id: Int) {
            self.id = id
        }
    }

    /// The user cleared the items bought.
    public struct ClearBought: Codable, Equatable, Sendable {
        /// Creates one.
        public init() {}
    }

    /// Every action type of the list.
    public enum Actions: ActionRegistry {
        /// The registered types.
        public static let types = ActionTypes {
            FetchItems.self
            DidFetchItems.self
            AddItem.self
            ToggleBought.self
            ClearBought.self
        }
    }

    /// The list's action: a value of one of ``Actions``' types.
    public typealias Action = RegisteredAction<Actions>

    /// The list's reducer, one part per action type.
    public static let reducer = Reducer<State, Action>.combine(
        .on(FetchItems.self) { state, _ in state.isLoading = true },
        .on(DidFetchItems.self) { state, fetched in
            state.isLoading = false
            for name in fetched.names { add(name, to: &state) }
        },
        .on(AddItem.self) { state, add in Groceries.add(add.name, to: &state) },
        .on(ToggleBought.self) { state, toggle in
            guard let index = state.items.firstIndex(where: { $0.id == toggle.id }) else { return }
            state.items[index].isBought.toggle()
        },
        .on(ClearBought.self) { state, _ in state.items.removeAll(where: \.isBought) }
    )

    /// Appends an item named `name` with the next id.
    private static func add(_ name: String, to state: inout State) {
        state.items.append(Item(id: state.nextID, name: name))
        state.nextID += 1
    }

    /// Where the saved list comes from.
    public protocol Pantry: Sendable {
        /// The names of the saved items.
        func savedItems() async -> [String]
    }

    /// Answers ``FetchItems`` with the pantry's saved items as ``DidFetchItems``.
    public static func fetchItems(from pantry: some Pantry) -> Effect<State, Action> {
        Effect("fetch items") { action, _, send in
            guard action.is(FetchItems.self) else { return }
            send(DidFetchItems(names: await pantry.savedItems()))
        }
    }
}
