import Foundation
import StoreKitCore
import StoreKitReplay

extension Effect {
    /// Runs the effect once with `action` and `state` and returns the actions it dispatched, in order.
    ///
    /// Waits for the effect's work to return; with `count`, also waits (at most `timeout`) until that many actions
    /// arrived, for effects that dispatch from work they start in the background. Give the effect its test doubles
    /// (an API client, a ``TestClock``) where you build it. Its `context.uuid()` draws from `uuid` and its
    /// `context.random(in:)` from `random`: by default the counted UUIDs and the numbers seeded with 0 that a
    /// ``TestStore`` draws, so a test can assert the actions that carry them.
    /// ```swift
    /// let actions = try await Scoreboard.postScore(to: StubServer(receipt: 7))
    ///     .run(with: .homeScored(points: 1, scorer: "Ada"), state: state)
    /// #expect(actions == [.scorePosted(receipt: 7)])
    /// ```
    /// - Throws: ``StoreTestingError/timedOut(_:)`` when `count` actions did not arrive in time.
    public func run(
        with action: Action, state: State, expecting count: Int? = nil, timeout: Duration = .seconds(5),
        uuid: UUIDGenerator = .incrementing, random: RandomGenerator = .seeded(0)
    ) async throws -> [Action] {
        let log = ActionLog<Action>()
        await perform(action, state: state, send: Send { log.append($0) }, uuid: uuid, random: random)
        guard let count else { return log.all }
        return try await log.wait(forCount: count, timeout: timeout)
    }

    /// Runs an effect that dispatches nothing to completion, drawing UUIDs and random numbers as
    /// ``run(with:state:expecting:timeout:uuid:random:)`` does.
    public func runToCompletion(
        with action: Action, state: State, uuid: UUIDGenerator = .incrementing, random: RandomGenerator = .seeded(0)
    ) async {
        await perform(action, state: state, send: Send { _ in }, uuid: uuid, random: random)
    }
}
