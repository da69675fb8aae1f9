import Foundation
import StoreKitJSON
import StoreKitSystem

/// One run of one effect for one action: where its inputs come from and go, and what it has done so far.
package final class EffectRun: Sendable {
    /// Where a run's inputs come from.
    package enum Inputs: Sendable {
        /// From the outside world (see ``Live``).
        case live(Live)
        /// From a recording.
        case replayed(any EffectInputSource)
    }

    /// What a run takes from the outside world: where its inputs are written (no sink when nothing records), the
    /// clock it reads and sleeps on, and where its new UUIDs and random numbers come from.
    package struct Live: Sendable {
        package var sinks: [any EffectInputSink]
        package var clock: EffectClock.Base
        package var uuid: UUIDGenerator
        package var random: RandomGenerator

        package init(sinks: [any EffectInputSink], clock: EffectClock.Base, uuid: UUIDGenerator, random: RandomGenerator) {
            self.sinks = sinks
            self.clock = clock
            self.uuid = uuid
            self.random = random
        }
    }

    /// The store's sequence number of the action that started the run.
    package let cause: Int
    /// The effect's name.
    package let effect: String
    /// Whether the run's end is recorded (a replayable effect's).
    package let isReplayable: Bool
    /// Where its inputs come from.
    package let inputs: Inputs
    private let counts = Locked((calls: 0, sent: 0))

    /// A run of `effect` for the action `cause`.
    package init(cause: Int, effect: String, isReplayable: Bool, inputs: Inputs) {
        self.cause = cause
        self.effect = effect
        self.isReplayable = isReplayable
        self.inputs = inputs
    }

    /// How many inputs it has taken and actions it has sent.
    package var activity: (calls: Int, sent: Int) { counts.withLock { $0 } }

    /// The index of the run's next input, counted as taken.
    private func nextIndex() -> Int {
        counts.withLock { counts in
            defer { counts.calls += 1 }
            return counts.calls
        }
    }

    /// Counts an action the run sent.
    package func noteSent() {
        counts.withLock { $0.sent += 1 }
    }

    /// Takes the next input: live, runs `body` and records what it gave; replayed, gives back the recorded result
    /// without running `body`.
    package func take<Value: Codable & Sendable>(
        _ name: String, input: JSONValue?, isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Value
    ) async throws -> Value {
        let index = nextIndex()
        switch inputs {
        case .live(let live):
            let result: EffectCallResult
            let value: Value
            do {
                value = try await body()
                result = .value(Self.encoded(value))
            } catch is CancellationError {
                record(index, name, input, .cancelled, live: live)
                throw CancellationError()
            } catch {
                record(index, name, input, .error(RecordedCallError(error)), live: live)
                throw error
            }
            record(index, name, input, result, live: live)
            return value
        case .replayed(let source):
            let request = EffectInputRequest(cause: cause, effect: effect, index: index, name: name, input: input)
            switch await source.result(of: request) {
            case .value(let json):
                do {
                    return try JSONValueDecoder().decode(Value.self, from: json)
                } catch {
                    source.resultDoesNotDecode(request, expected: "\(Value.self)", error: error)
                    throw CancellationError()
                }
            case .error(let error):
                throw error
            case .cancelled:
                throw CancellationError()
            }
        }
    }

    /// A new UUID from the live inputs' generator; a random one otherwise (a replay's fallback).
    package func newUUID() -> UUID {
        guard case .live(let live) = inputs else { return UUID() }
        return live.uuid()
    }

    /// The live inputs' random numbers; the system's otherwise (a replay's fallback).
    package var randomGenerator: RandomGenerator {
        guard case .live(let live) = inputs else { return .system }
        return live.random
    }

    /// Takes the next input without suspending (a clock reading, a UUID, a random number): live, `produce` makes
    /// it and it is recorded; replayed, it is the recorded value.
    package func takeNow<Value: Codable & Sendable>(_ name: String, input: JSONValue?, _ produce: () -> Value) -> Value {
        let index = nextIndex()
        switch inputs {
        case .live(let live):
            let value = produce()
            record(index, name, input, .value(Self.encoded(value)), live: live)
            return value
        case .replayed(let source):
            let request = EffectInputRequest(cause: cause, effect: effect, index: index, name: name, input: input)
            if case .value(let json) = source.resultNow(of: request) {
                do {
                    return try JSONValueDecoder().decode(Value.self, from: json)
                } catch {
                    source.resultDoesNotDecode(request, expected: "\(Value.self)", error: error)
                }
            } else {
                source.resultDoesNotDecode(request, expected: "\(Value.self)", error: RecordedCallError(
                    type: "EffectCallResult", message: "the recorded result is not a value"))
            }
            return produce()
        }
    }

    /// The store clock's reading, in nanoseconds since the store's creation, as a `$clock.now` input.
    package func takeNow() -> Int64 {
        takeNow(EffectCallEvent.BuiltIn.clockNow.rawValue, input: nil) {
            guard case .live(let live) = inputs else { return 0 }
            return live.clock.now.nanoseconds
        }
    }

    /// A sleep on the store's clock, as a `$clock.sleep` input: live, `sleep` runs on the store's clock; replayed,
    /// it returns (or throws `CancellationError`) when replay reaches its end in the recording.
    package func takeSleep(input: [String: JSONValue], _ sleep: (EffectClock.Base) async throws -> Void) async throws {
        let base: EffectClock.Base? = if case .live(let live) = inputs { live.clock } else { nil }
        let _: Bool? = try await take(EffectCallEvent.BuiltIn.clockSleep.rawValue, input: .object(input)) {
            if let base { try await sleep(base) }
            return nil
        }
    }

    private func record(
        _ index: Int, _ name: String, _ input: JSONValue?, _ result: EffectCallResult, live: Live
    ) {
        guard !live.sinks.isEmpty else { return }
        let call = EffectCallRecord(
            cause: cause, effect: effect, index: index, name: name, input: input, result: result,
            uptimeNanoseconds: live.clock.storeUptimeNanoseconds())
        for sink in live.sinks { sink.record(call) }
    }

    /// Writes the run's end, if it is a replayable effect's run that took an input or sent an action.
    package func finish(cancelled: Bool) {
        guard isReplayable, case .live(let live) = inputs, !live.sinks.isEmpty else { return }
        let (calls, sent) = activity
        guard calls > 0 || sent > 0 else { return }
        let end = EffectEndRecord(
            cause: cause, effect: effect, outcome: cancelled ? .cancelled : .finished, calls: calls, sent: sent,
            uptimeNanoseconds: live.clock.storeUptimeNanoseconds())
        for sink in live.sinks { sink.record(end) }
    }

    /// `value` as canonical JSON; a value that does not encode is recorded as `null` and never fails the call.
    private static func encoded(_ value: some Encodable) -> JSONValue {
        (try? CanonicalJSONEncoder().encode(value)) ?? .null
    }
}

extension RecordedCallError {
    /// `error` as a session keeps it: its type, its description, and its value when it is `Encodable`.
    init(_ error: any Error) {
        if let recorded = error as? RecordedCallError {
            self = recorded
            return
        }
        let value = (error as? any Encodable).flatMap { try? CanonicalJSONEncoder().encode($0) }
        self.init(type: String(reflecting: Swift.type(of: error)), message: "\(error)", value: value)
    }
}
