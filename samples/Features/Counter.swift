import StoreKitCore

/// The smallest sample feature: a counter with a step size.
public enum Counter {
    /// The id sessions of this feature carry.
    public static let storeID = "counter"

    /// The counter's state.
    public struct State: Codable, Equatable, Sendable {
        /// The current value.
        public var count = 0
        /// How much one increment adds.
        public var step = 1

        /// Creates a counter at zero with step 1.
        public init() {}
    }

    /// What can happen to the counter.
    public enum Action: Codable, Equatable, Sendable {
        /// Adds `step`.
        case increment
        /// Subtracts `step`.
        case decrement
        /// Changes the step size.
        case setStep(Int)
        /// Back to zero.
        case reset
    }

    /// The counter's reducer.
    public static let reducer = Reducer<State, Action> { state, action in
        switch action {
        case .increment: state.count += state.step
        case .decrement: state.count -= state.step
        case .setStep(let step): state.step = step
        case .reset: state.count = 0
        }
    }
}
