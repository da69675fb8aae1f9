import Foundation
import StoreKitJSON

extension EffectContext {
    /// Calls the outside world through the context, so the call is recorded and replay can hand its result back.
    ///
    /// ```swift
    /// let todos = try await context.call("todos.fetch") { try await api.fetchTodos() }
    /// ```
    /// While the app runs, `body` runs and what it returns or throws is recorded (a `CancellationError` as a
    /// cancellation). In replay `body` never runs: the call returns the recorded value or throws the recorded error,
    /// as a ``RecordedCallError`` (so `catch let error as APIError` does not match it in replay: catch by
    /// ``RecordedCallError/type``, or turn errors into values inside `body`).
    /// - Parameters:
    ///   - name: What the call is, such as `"todos.fetch"`; replay checks that each run makes the same calls in the
    ///     same order. Names starting with `$` are reserved for the context's own inputs.
    ///   - body: The call; it runs in the caller's isolation.
    /// - Returns: What `body` returned (in replay, the recorded value).
    public func call<Result: Codable & Sendable>(
        _ name: String, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result
    ) async throws -> Result {
        try await run.take(Self.checked(name), input: nil, isolation: isolation, body)
    }

    /// Calls the outside world with `input`, which is recorded beside the result; replay checks that the effect
    /// passes an equal input, so a request built differently is found before its answer is used.
    ///
    /// ```swift
    /// let receipt = try await context.call("score.post", with: ScorePost(home: 2, away: 1)) { post in
    ///     try await server.post(post)
    /// }
    /// ```
    public func call<Input: Encodable & Sendable, Result: Codable & Sendable>(
        _ name: String, with input: Input, isolation: isolated (any Actor)? = #isolation,
        _ body: (Input) async throws -> Result
    ) async throws -> Result {
        let encoded = (try? CanonicalJSONEncoder().encode(input)) ?? .null
        return try await run.take(Self.checked(name), input: encoded, isolation: isolation) { try await body(input) }
    }

    /// Calls the outside world for its effect alone (a save, a log upload); what is recorded is whether it threw.
    public func call(
        _ name: String, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Void
    ) async throws {
        let _: Bool? = try await run.take(Self.checked(name), input: nil, isolation: isolation) {
            try await body()
            return nil
        }
    }

    /// The clock the effect reads and sleeps on, recorded (see ``EffectClock``).
    public var clock: EffectClock { EffectClock(run: run) }

    /// A new UUID from the store's generator (random unless the store was given another), recorded, so replay
    /// draws the same one.
    public func uuid() -> UUID {
        run.takeNow(EffectCallEvent.BuiltIn.uuid.rawValue, input: nil) { run.newUUID() }
    }

    /// A random integer in `range` from the store's generator (the system's unless the store was given another),
    /// recorded, so replay draws the same one.
    public func random(in range: ClosedRange<Int>) -> Int {
        let input: JSONValue = .array([.integer(Int64(range.lowerBound)), .integer(Int64(range.upperBound))])
        return run.takeNow(EffectCallEvent.BuiltIn.random.rawValue, input: input) {
            run.randomGenerator.number(in: range)
        }
    }

    /// A random number in `range` from the store's generator (the system's unless the store was given another),
    /// recorded, so replay draws the same one.
    public func random(in range: Range<Double>) -> Double {
        let input: JSONValue = .array([.double(range.lowerBound), .double(range.upperBound)])
        return run.takeNow(EffectCallEvent.BuiltIn.random.rawValue, input: input) {
            run.randomGenerator.number(in: range)
        }
    }

    /// `name`, or, for a name that takes the `$` of the context's own inputs, the name with `_` before it (and an
    /// assertion in a debug build).
    private static func checked(_ name: String) -> String {
        guard name.hasPrefix("$") else { return name }
        assertionFailure("EffectContext.call(\"\(name)\"): names starting with '$' are reserved for the context's own inputs")
        return "_" + name
    }
}
