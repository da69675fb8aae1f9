/// How much a ``TestStore`` test must account for.
public enum Exhaustivity: Sendable, Equatable {
    /// Every state change and every action effects dispatch must be asserted (the default).
    case on
    /// Only what the test asserts is checked: state changes it does not mention and received actions it does not
    /// `receive` pass. With `showSkippedAssertions`, each is reported as a note (a warning, not a failure).
    case off(showSkippedAssertions: Bool)

    /// Non-exhaustive, silently.
    public static let off = Exhaustivity.off(showSkippedAssertions: false)
}
