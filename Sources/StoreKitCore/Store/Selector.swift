import StoreKitSystem

/// A named way to read a value out of a state, optionally memoized.
///
/// A plain selector is a pure projection of the state. A memoized selector, built with one of the `create`
/// functions from 1 to 4 input selectors, runs its projector only when one of the input values changed since
/// the last call; otherwise it returns the cached result. The cache is shared by all copies of the selector and
/// is thread-safe.
///
/// Every selector has an identity (``id``) that its copies share and that no other selector has, even one with
/// the same projector. Selectors are `Hashable` by that identity, so a mock store can override what a given
/// selector returns.
///
/// ```swift
/// enum Selectors {
///     static let todos = Selector<AppState, [Todo]>(keyPath: \.todos)
///     static let filter = Selector<AppState, Filter>(keyPath: \.filter)
///     static let visibleTodos = Selector.create(todos, filter) { todos, filter in
///         todos.filter(filter.includes)
///     }
/// }
/// let visible = store.select(Selectors.visibleTodos)
/// ```
///
/// > Warning: Define a selector once (for example as a `static let`) and reuse it. Creating a memoized selector
/// > on every use gives each call a fresh, empty cache and a new identity, so nothing is memoized and overrides
/// > by identity never match. Projectors must be pure.
public struct Selector<State, Value>: Sendable, Hashable, Identifiable {
    /// The object whose address gives a selector, and all its copies, their identity.
    private final class Identity: Sendable {}

    private let identity = Identity()
    private let projector: @Sendable (State) -> Value

    /// The identity of this selector, shared by its copies and by no other selector.
    public var id: ObjectIdentifier {
        ObjectIdentifier(identity)
    }

    /// Creates a selector from a projection of the state.
    /// - Parameter projector: Computes the selected value from a state. Must be pure.
    public init(_ projector: @escaping @Sendable (State) -> Value) {
        self.projector = projector
    }

    /// Creates a selector that reads the value at a key path.
    /// - Parameter keyPath: Where the value lives in the state. A key path literal such as `\.count` is `Sendable`
    ///   automatically.
    public init(keyPath: KeyPath<State, Value> & Sendable) {
        self.projector = { state in state[keyPath: keyPath] }
    }

    /// Computes the selected value for a state.
    /// - Parameter state: The state to select from.
    /// - Returns: The selected value.
    public func callAsFunction(_ state: State) -> Value {
        projector(state)
    }

    /// Computes the selected value for a state; the same as calling the selector.
    /// - Parameter state: The state to select from.
    /// - Returns: The selected value.
    public func select(_ state: State) -> Value {
        projector(state)
    }

    /// Compares two selectors by identity.
    public static func == (lhs: Selector, rhs: Selector) -> Bool {
        lhs.identity === rhs.identity
    }

    /// Hashes a selector's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
    }
}

// MARK: - Memoized selectors

extension Selector where Value: Sendable {
    /// Creates a memoized selector from one input selector.
    ///
    /// The projector runs the first time and then only when the input value differs from the previous call's.
    /// - Parameters:
    ///   - s1: The input selector.
    ///   - projector: Computes the value from the input value. Must be pure.
    /// - Returns: A memoized selector with a new identity.
    public static func create<V1: Equatable & Sendable>(
        _ s1: Selector<State, V1>,
        projector: @escaping @Sendable (V1) -> Value
    ) -> Selector {
        memoized(inputs: { s1($0) }, equal: ==, projector: projector)
    }

    /// Creates a memoized selector from two input selectors.
    ///
    /// The projector runs the first time and then only when an input value differs from the previous call's.
    /// - Parameters:
    ///   - s1: The first input selector.
    ///   - s2: The second input selector.
    ///   - projector: Computes the value from the input values. Must be pure.
    /// - Returns: A memoized selector with a new identity.
    public static func create<V1: Equatable & Sendable, V2: Equatable & Sendable>(
        _ s1: Selector<State, V1>,
        _ s2: Selector<State, V2>,
        projector: @escaping @Sendable (V1, V2) -> Value
    ) -> Selector {
        memoized(
            inputs: { (s1($0), s2($0)) },
            equal: { (lhs: (V1, V2), rhs: (V1, V2)) -> Bool in lhs == rhs },
            projector: { projector($0.0, $0.1) }
        )
    }

    /// Creates a memoized selector from three input selectors.
    ///
    /// The projector runs the first time and then only when an input value differs from the previous call's.
    /// - Parameters:
    ///   - s1: The first input selector.
    ///   - s2: The second input selector.
    ///   - s3: The third input selector.
    ///   - projector: Computes the value from the input values. Must be pure.
    /// - Returns: A memoized selector with a new identity.
    public static func create<V1: Equatable & Sendable, V2: Equatable & Sendable, V3: Equatable & Sendable>(
        _ s1: Selector<State, V1>,
        _ s2: Selector<State, V2>,
        _ s3: Selector<State, V3>,
        projector: @escaping @Sendable (V1, V2, V3) -> Value
    ) -> Selector {
        memoized(
            inputs: { (s1($0), s2($0), s3($0)) },
            equal: { (lhs: (V1, V2, V3), rhs: (V1, V2, V3)) -> Bool in lhs == rhs },
            projector: { projector($0.0, $0.1, $0.2) }
        )
    }

    /// Creates a memoized selector from four input selectors.
    ///
    /// The projector runs the first time and then only when an input value differs from the previous call's.
    /// - Parameters:
    ///   - s1: The first input selector.
    ///   - s2: The second input selector.
    ///   - s3: The third input selector.
    ///   - s4: The fourth input selector.
    ///   - projector: Computes the value from the input values. Must be pure.
    /// - Returns: A memoized selector with a new identity.
    public static func create<
        V1: Equatable & Sendable, V2: Equatable & Sendable, V3: Equatable & Sendable, V4: Equatable & Sendable
    >(
        _ s1: Selector<State, V1>,
        _ s2: Selector<State, V2>,
        _ s3: Selector<State, V3>,
        _ s4: Selector<State, V4>,
        projector: @escaping @Sendable (V1, V2, V3, V4) -> Value
    ) -> Selector {
        memoized(
            inputs: { (s1($0), s2($0), s3($0), s4($0)) },
            equal: { (lhs: (V1, V2, V3, V4), rhs: (V1, V2, V3, V4)) -> Bool in lhs == rhs },
            projector: { projector($0.0, $0.1, $0.2, $0.3) }
        )
    }

    /// Builds a selector that caches its last inputs and result.
    ///
    /// Inputs are computed outside the cache lock (they may be memoized selectors with locks of their own); the
    /// comparison and, when needed, the projector run under it, so the projector never runs twice for the same
    /// inputs even when several threads select at once.
    private static func memoized<Inputs: Sendable>(
        inputs: @escaping @Sendable (State) -> Inputs,
        equal: @escaping @Sendable (Inputs, Inputs) -> Bool,
        projector: @escaping @Sendable (Inputs) -> Value
    ) -> Selector {
        let cache = Locked<(inputs: Inputs, value: Value)?>(nil)
        return Selector { state in
            let current = inputs(state)
            return cache.withLock { cached in
                if let cached, equal(cached.inputs, current) {
                    return cached.value
                }
                let value = projector(current)
                cached = (current, value)
                return value
            }
        }
    }
}
