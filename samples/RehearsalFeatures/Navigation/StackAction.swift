/// What happens on a navigation stack: an action of one screen, by its id, or popping back.
public enum StackAction<ElementAction: Codable & Equatable & Sendable>: Codable, Equatable, Sendable {
    /// An action of the screen with `id`.
    case element(id: StackElementID, action: ElementAction)
    /// Pops the screen with `id` and every screen above it (the back button, or a swipe back).
    case popFrom(id: StackElementID)
}
