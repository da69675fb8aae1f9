import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import StoreKitSystem
import StoreKitTestFixtures
import Testing

@testable import ReplayDaemon

/// replayd and format 2: the fast path for an effect's action line, and the reader's rules between effect lines,
/// kept as the stored lines leave them, across the daemon's own gaps and across a reconnect.
@Suite struct SessionLineOrderEffectTests {
    private static let header = formatTwoLines[0]
    private static let call0 = formatTwoLines[2]
    private static let call1 = formatTwoLines[3]
    private static let call2 = formatTwoLines[4]
    private static let effectAction = formatTwoLines[5]

    /// Checks `line` as the daemon does and offers it to `order`.
    private func offer(_ line: String, to order: inout SessionLineOrder) -> SessionLineOrder.Verdict {
        var validator = SessionLineValidator()
        return Array(line.utf8).withUnsafeBufferPointer { bytes in
            switch validator.check(bytes) {
            case .failure(let rejection): return .refused("not valid: \(rejection.reason)")
            case .success(let checked):
                let verdict = order.accept(checked)
                order.copyBorrowedState()
                return verdict
            }
        }
    }

    private func newOrder(format: Int = 2) -> SessionLineOrder {
        SessionLineOrder(startingFrom: .object([:]), formatVersion: format)
    }

    @Test func anEffectsActionLineTakesTheFastPathWithItsEffect() throws {
        // Given the line of an action an effect sent, naming the effect
        var validator = SessionLineValidator()
        let checked = Array(Self.effectAction.utf8).withUnsafeBufferPointer { validator.check($0) }

        // Then the fast path took it (its state left as bytes), noting that it names an effect and is no app's
        guard case .success(.action(let action)) = checked, case .stateBytes = action.snapshot else {
            Issue.record("not taken by the fast path: \(checked)")
            return
        }
        #expect(action.sequence == 2)
        #expect(action.namesEffect)
        #expect(!action.isFromApp)
    }

    @Test func aFormatTwoSessionIsAcceptedLineByLine() {
        var order = newOrder()
        for line in formatTwoLines.dropFirst() {
            #expect(offer(line, to: &order) == .accepted(missing: nil), "\(line)")
        }
        #expect(order.hasEnded)
    }

    @Test(arguments: [
        (2, appActionNamingEffect,
         "field 'effect' names an effect on an action with origin 'app'; only an action an effect sent names one"),
        (1, effectActionNamingEffect,
         "field 'effect' is the effect that sent the action, which needs format 2; this session is format 1"),
        (1, formatTwoLines[2], "field 'kind' is 'call', which needs format 2; this session is format 1"),
    ])
    func anActionOrLineTheReaderRefusesIsRefusedInItsWords(format: Int, line: String, reason: String) {
        // Given a session at seq 1 (an effect's action refused is the first line, at seq 1 too)
        var order = newOrder(format: format)
        if line.contains(#""kind":"call""#) { _ = offer(formatTwoLines[1], to: &order) }

        // Then the line is refused with the reader's reason, fast path or not
        #expect(offer(line, to: &order) == .refused(reason))
    }

    @Test func aRefusedCallLeavesItsRunAsTheStoredLinesLeftIt() {
        // Given a run whose call 0 is stored
        var order = newOrder()
        _ = offer(formatTwoLines[1], to: &order)
        #expect(offer(Self.call0, to: &order) == .accepted(missing: nil))

        // When call 2 comes first, it is refused; call 1, the next stored, is then accepted, and call 2 after it
        #expect(offer(Self.call2, to: &order) == .refused("field 'index' is 2, out of order: the run's next call is 1"))
        #expect(offer(Self.call1, to: &order) == .accepted(missing: nil))
        #expect(offer(Self.call2, to: &order) == .accepted(missing: nil))
    }

    @Test func theGapTheDaemonWritesForASkipExcusesAnIndexSkipAsTheReaderWill() {
        // Given a run whose call 0 is stored, and an action that skips seq 2 (replayd stores a `rejected` gap)
        var order = newOrder()
        _ = offer(formatTwoLines[1], to: &order)
        _ = offer(Self.call0, to: &order)
        #expect(offer(formatTwoAction(3, adding: 2, to: [1], time: "0.3"), to: &order) == .accepted(missing: 2...2))

        // Then the run's call 2 is accepted: its call 1 may have been lost there
        #expect(offer(Self.call2, to: &order) == .accepted(missing: nil))
    }

    @Test func theEffectLinesAfterTheLastActionOrGapAreCounted() {
        var order = newOrder()
        _ = offer(formatTwoLines[1], to: &order)
        _ = offer(Self.call0, to: &order)
        _ = offer(Self.call2, to: &order)  // refused: not counted
        _ = offer(Self.call1, to: &order)
        #expect(order.effectLinesSinceCovered == 2)
        _ = offer(Self.effectAction, to: &order)
        #expect(order.effectLinesSinceCovered == 0)
    }

    @Test func aContinuedFormatTwoSessionKnowsItsOpenRunsFromTheStoredFile() throws {
        // Given a stored session that ends in the middle of a run: action 1, calls 0 and 1, and the daemon's end
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let name = "tally-s2.jsonl"
        let disconnected = #"{"actions":1,"dropped":0,"kind":"end","reason":"disconnected","time":0.1}"#
        _ = try directory.write(name, [Self.header, formatTwoLines[1], Self.call0, Self.call1, disconnected].map { $0 + "\n" }.joined())

        // When the session is continued
        let header = try #require(
            try SessionEvent(jsonValue: JSONValue(parsing: Array(Self.header.utf8))).headerValue)
        let file = try Array((Self.header + "\n").utf8).withUnsafeBytes {
            try SessionFile.open(directory: directory.path, name: name, header: header, headerLine: $0, maxLineBytes: 1 << 20)
        }
        defer { try? file.close() }

        // Then it continues after seq 1 and the run's two calls: call 1 again is refused, call 2 is accepted
        #expect(file.isContinuation)
        #expect(file.lastSequence == 1)
        #expect(file.order.effectLinesSinceCovered == 2)
        var order = file.order
        #expect(offer(Self.call1, to: &order) == .refused("field 'index' is 1, out of order: the run's next call is 2"))
        #expect(offer(Self.call2, to: &order) == .accepted(missing: nil))
        // And the daemon's `end` is gone
        let stored = try String(contentsOfFile: directory.file(name), encoding: .utf8)
        #expect(!stored.contains("disconnected"))
    }
}

extension SessionEvent {
    fileprivate var headerValue: SessionHeader? {
        if case .header(let header) = self { header } else { nil }
    }
}
