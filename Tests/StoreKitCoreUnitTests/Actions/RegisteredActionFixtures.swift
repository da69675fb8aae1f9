import StoreKitCore

/// A small Fluxor-style app: separate action structs gathered in a registry, one of them not `Equatable`, one an
/// enum, and one never registered.
enum Shelf {
    struct State: Codable, Equatable, Sendable {
        var titles: [String] = []
        var isLoading = false
    }

    struct FetchBooks: Codable, Equatable, Sendable {}
    struct DidFetchBooks: Codable, Equatable, Sendable {
        var titles: [String]
    }
    struct AddBook: Codable, Equatable, Sendable {
        var title: String
    }
    /// Not `Equatable`: boxes of it compare by their JSON.
    struct Note: Codable, Sendable {
        var text: String
    }
    enum SortAction: Codable, Equatable, Sendable {
        case byTitle(descending: Bool)
        case reverse
    }
    /// Left out of the registry on purpose.
    struct Forgotten: Codable, Equatable, Sendable {
        var reason: String
    }

    enum Actions: ActionRegistry {
        static let types = ActionTypes {
            FetchBooks.self
            DidFetchBooks.self
            AddBook.self
            Note.self
            SortAction.self
        }
    }
    typealias Action = RegisteredAction<Actions>

    static let reducer = Reducer<State, Action>.combine(
        .on(FetchBooks.self) { state, _ in state.isLoading = true },
        .on(DidFetchBooks.self) { state, fetched in
            state.isLoading = false
            state.titles = fetched.titles
        },
        .on(AddBook.self) { state, add in state.titles.append(add.title) },
        .on(SortAction.self) { state, sort in
            switch sort {
            case .byTitle(let descending): state.titles.sort { descending ? $0 > $1 : $0 < $1 }
            case .reverse: state.titles.reverse()
            }
        }
    )
}
