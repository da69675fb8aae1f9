/// A navigation stack: the screens pushed on top of the root, bottom first, each under an id that stays its own
/// while it is on the stack.
public struct StackState<Element: Codable & Equatable & Sendable>: Codable, Equatable, Sendable {
    /// One screen on the stack.
    public struct Entry: Codable, Equatable, Sendable, Identifiable {
        /// The screen's id on this stack.
        public var id: StackElementID
        /// The screen's state.
        public var element: Element
    }

    /// The screens, bottom first.
    public private(set) var entries: [Entry] = []
    /// The id the next pushed screen gets.
    public private(set) var nextID = StackElementID(1)

    /// Creates an empty stack.
    public init() {}

    /// The screens' ids, bottom first.
    public var ids: [StackElementID] { entries.map(\.id) }

    /// The screens' states, bottom first.
    public var elements: [Element] { entries.map(\.element) }

    /// The screen with `id`; setting replaces its state (setting `nil`, or a screen that is not on the stack,
    /// changes nothing: screens leave by ``pop(from:)``).
    public subscript(id id: StackElementID) -> Element? {
        get { entries.first { $0.id == id }?.element }
        set {
            guard let newValue, let index = entries.firstIndex(where: { $0.id == id }) else { return }
            entries[index].element = newValue
        }
    }

    /// Pushes a screen on top and returns its id.
    @discardableResult
    public mutating func push(_ element: Element) -> StackElementID {
        let id = nextID
        nextID = StackElementID(id.rawValue + 1)
        entries.append(Entry(id: id, element: element))
        return id
    }

    /// Pops the screen with `id` and every screen above it; an id not on the stack changes nothing.
    public mutating func pop(from id: StackElementID) {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return }
        entries.removeSubrange(index...)
    }

    /// Changes the state of every screen, in place.
    public mutating func updateEach(_ change: (inout Element) -> Void) {
        for index in entries.indices { change(&entries[index].element) }
    }
}
