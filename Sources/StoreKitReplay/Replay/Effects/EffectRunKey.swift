/// One effect run: the step of the action that started it and the effect's name.
struct EffectRunKey: Hashable, Sendable {
    /// The step of the action that started the run.
    var cause: Int
    /// The effect's name.
    var effect: String
}
