import Foundation
import StoreKitCore
import Testing

@testable import ReplayDaemon

/// replayd's line check takes the lines a recorder writes when its `finish(timeout:)` runs out of time.
@Suite struct SessionLineValidatorTimedOutTests {
    @Test func aTimedOutGapAndATimedOutEndAreAcceptedInOrder() {
        // Given the last lines of a session whose finish timed out after action 1
        let action = #"{"action":{"add":{"_0":1}},"kind":"action","name":"add","origin":"app","seq":1,"state":{"total":1},"time":0.1}"#
        let gap = SessionEvent.gap(
            GapEvent(firstSequence: 2, lastSequence: 9, reason: .timedOut, message: "finish(timeout:) ran out of time"))
        let end = SessionEvent.end(EndEvent(reason: .timedOut, actions: 9, dropped: 8, time: 0.5))
        var order = SessionLineOrder(startingFrom: .object(["total": .integer(0)]), formatVersion: 1)

        // When replayd checks each line and offers it to the session's order, then each is accepted
        for line in [Array(action.utf8), gap.line.dropLast(), end.line.dropLast()].map(Array.init) {
            var validator = SessionLineValidator()
            let verdict: SessionLineOrder.Verdict = line.withUnsafeBufferPointer { bytes in
                switch validator.check(bytes) {
                case .failure(let rejection): return .refused("not valid: \(rejection.reason)")
                case .success(let checked):
                    defer { order.copyBorrowedState() }
                    return order.accept(checked)
                }
            }
            #expect(verdict == .accepted(missing: nil), "\(String(decoding: line, as: UTF8.self))")
        }
        #expect(order.hasEnded)
    }
}
