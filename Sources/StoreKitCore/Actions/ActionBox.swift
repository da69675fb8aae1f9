/// An action that wraps another action: ``ActionName`` names the wrapped one.
protocol ActionBox {
    /// The wrapped action.
    var boxedAction: Any { get }
    /// The name the wrapped action is recorded under, when the box names it (a registered struct's name); `nil`
    /// to name it as any action (an enum by its case path).
    var boxedActionName: String? { get }
}
