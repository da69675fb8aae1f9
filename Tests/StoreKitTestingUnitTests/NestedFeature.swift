import Foundation
import StoreKitCore

/// A feature nested the way real apps nest them: a navigation path of rehearsals, each with a timer.
enum Rehearsal {
    struct State: Codable, Equatable, Sendable {
        var title = ""
        var ticks = 0
        var isSaved = false
    }

    enum Action: Codable, Equatable, Sendable {
        case startTapped
        case stopTapped
        case timerTick
        case saveTapped
        case saved(receipt: Int?)
        case renamed(String)
    }
}

enum Stack {
    struct State: Codable, Equatable, Sendable {
        var path: [Int: Rehearsal.State] = [:]
        var log: [String] = []
    }

    enum PathAction: Codable, Equatable, Sendable {
        case element(id: Int, action: Rehearsal.Action)
        case popFrom(id: Int)
    }

    enum Action: Codable, Equatable, Sendable {
        case path(PathAction)
        case push(id: Int, title: String)
    }

    /// The id of a rehearsal's timer.
    struct TimerID: Hashable, Sendable {
        var rehearsal: Int
    }

    static let reducer = Reducer<State, Action> { state, action in
        switch action {
        case .push(let id, let title):
            state.path[id] = Rehearsal.State(title: title)
        case .path(.popFrom(let id)):
            state.path[id] = nil
        case .path(.element(let id, let action)):
            switch action {
            case .startTapped, .stopTapped: break
            case .timerTick: state.path[id]?.ticks += 1
            case .saveTapped: state.log.append("saving \(id)")
            case .saved: state.path[id]?.isSaved = true
            case .renamed(let title): state.path[id]?.title = title
            }
        }
    }

    /// A timer per rehearsal on `clock`, and a save that answers with receipt 7.
    static func effects(clock: any Clock<Duration>) -> [Effect<State, Action>] {
        [
            Effect("timer") { action, context in
                guard case .path(.element(let id, let action)) = action else { return }
                switch action {
                case .startTapped:
                    await context.cancellable(id: TimerID(rehearsal: id), cancelInFlight: true) {
                        while true {
                            try await clock.sleep(for: .seconds(1))
                            context.send(.path(.element(id: id, action: .timerTick)))
                        }
                    }
                case .stopTapped:
                    context.cancel(id: TimerID(rehearsal: id))
                default:
                    break
                }
            },
            .dispatchingOne("save") { action, _ in
                guard case .path(.element(let id, .saveTapped)) = action else { return nil }
                return .path(.element(id: id, action: .saved(receipt: 7)))
            },
        ]
    }
}
