import Foundation
import StoreKitCore

/// A feature whose state's JSON hides its Swift types: a `Date`, a `Duration`, a `[UUID: Int]` (written as
/// alternating keys and values) and an array of `Identifiable` elements whose id is stored as `toDoID`. Its session,
/// `Tests/Sessions/typed-planner.jsonl`, is what the recorder writes for ``actions`` (a test checks it).
package enum TypedPlanner {
    /// A task, identified by its `toDoID`.
    package struct Task: Codable, Equatable, Identifiable, Sendable {
        package var toDoID: Int
        package var title: String
        package var id: Int { toDoID }

        package init(toDoID: Int, title: String) {
            self.toDoID = toDoID
            self.title = title
        }
    }

    package struct State: Codable, Equatable, Sendable {
        /// 2026-11-23T10:00:00Z.
        package var deadline = Date(timeIntervalSince1970: 1_795_428_000)
        package var elapsed: Duration = .seconds(180)
        package var votes: [UUID: Int] = [ada: 1]
        package var tasks = [Task(toDoID: 1, title: "Milk"), Task(toDoID: 2, title: "Eggs")]

        package init() {}
    }

    package enum Action: Codable, Equatable, Sendable {
        /// Moves the deadline an hour and a half later.
        case postpone
        /// Starts the clock again at 6 s.
        case restart
        /// One more vote for a voter.
        case vote(UUID)
        /// Removes the task of that id.
        case complete(Int)
    }

    package static let ada = UUID(uuidString: "3F2504E0-4F89-11D3-9A0C-0305E82C3301")!
    package static let bob = UUID(uuidString: "A1B2C3D4-0000-4000-8000-000000000002")!

    package static let reducer = Reducer<State, Action> { state, action in
        switch action {
        case .postpone: state.deadline += 5400
        case .restart: state.elapsed = .seconds(6)
        case .vote(let voter): state.votes[voter, default: 0] += 1
        case .complete(let id): state.tasks.removeAll { $0.id == id }
        }
    }

    package static let actions: [Action] = [.postpone, .restart, .vote(ada), .vote(bob), .complete(1)]
}
