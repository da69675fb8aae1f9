import StoreKitCore
import StoreKitJSON

/// A tally whose replayable effect posts each score to a server and sends back the receipt.
package enum ScorePosting {
    package struct State: Codable, Equatable, Sendable {
        package var total = 0
        package var receipt: Int?
    }

    package enum Action: Codable, Equatable, Sendable {
        case scored(Int)
        case posted(receipt: Int)
    }

    package static let reducer = Reducer<State, Action> { state, action in
        switch action {
        case .scored(let points): state.total += points
        case .posted(let receipt): state.receipt = receipt
        }
    }

    /// Posts the points of each `scored` and sends the receipt the server gives back; for a score of `broken`
    /// points it sends the receipt plus one, a regression in how the effect builds its action.
    package static func postScore(breakingOn broken: Int? = nil) -> Effect<State, Action> {
        Effect("post score", replay: .rerun) { action, context in
            guard case .scored(let points) = action else { return }
            guard let receipt: Int = try? await context.call("score.post", with: points, { points in 1000 + points }) else { return }
            context.send(.posted(receipt: receipt + (points == broken ? 1 : 0)))
        }
    }

    /// A format 2 session of `scores`, each posted (the server answering `1000 + points`) and its receipt sent, as
    /// the correct effect records it.
    package static func session(scores: [Int]) -> Session {
        let encoder = CanonicalJSONEncoder()
        var state = State()
        var events: [SessionEvent] = []
        func record(_ action: Action, cause: Int? = nil) {
            reducer.reduce(&state, action)
            events.append(
                .action(
                    ActionEvent(
                        sequence: events.filter(\.isAction).count + 1, time: Double(events.count),
                        name: ActionName.of(action), action: try! encoder.encode(action),
                        origin: cause.map { .effect(cause: $0) } ?? .app, state: try! encoder.encode(state),
                        effect: cause == nil ? nil : "post score")))
        }
        for points in scores {
            record(.scored(points))
            let cause = events.filter(\.isAction).count
            events.append(
                .call(
                    EffectCallEvent(
                        cause: cause, effect: "post score", index: 0, name: "score.post", time: Double(events.count),
                        input: .integer(Int64(points)), result: .value(.integer(Int64(1000 + points))))))
            record(.posted(receipt: 1000 + points), cause: cause)
            events.append(
                .effectEnd(
                    EffectEndEvent(
                        cause: cause, effect: "post score", outcome: .finished, calls: 1, sent: 1, time: Double(events.count))))
        }
        let header = SessionHeader(
            formatVersion: 2, sessionID: "posting", storeID: "posting", app: AppInfo(name: "Tests"),
            startedAt: "2026-11-26T00:00:00.000Z", host: "test", pid: 1, initialState: try! encoder.encode(State()),
            effects: ["post score"])
        return Session(header: header, events: events)
    }
}

extension SessionEvent {
    /// Whether the event is an action line.
    fileprivate var isAction: Bool {
        if case .action = self { true } else { false }
    }
}
