import Foundation
import StoreKitCore
import StoreKitJSON

/// The inputs of replayed effect runs, handed over as replay reads them: a run that asks for an input replay has not
/// read yet waits for it (an `await` suspends; an input taken without suspending blocks the effects' thread while
/// replay reads on), and a line read before its run asks is kept until it does. Each hand-over compares the input the
/// run asks for with the recorded one.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
final class RecordedEffectInputs: EffectInputSource, @unchecked Sendable {
    /// What replay found comparing an input asked for with the recorded one.
    struct Finding {
        var run: EffectRunKey
        var kind: EffectDivergence.Kind
    }

    /// What became of a recorded input line.
    enum Delivery {
        /// The run was waiting for it and has it now.
        case fed
        /// The run was not waiting for it; it gets it when it asks.
        case kept
        /// The run asked for it and was cancelled while it waited.
        case cancelledInReplay
    }

    private final class BlockedRequest: @unchecked Sendable {
        let semaphore = DispatchSemaphore(value: 0)
        var result = EffectCallResult.cancelled
    }

    private enum Waiter {
        case suspended(CheckedContinuation<EffectCallResult, Never>)
        case blocked(BlockedRequest)
    }

    private let lock = NSLock()
    private let executor: ReplayExecutor
    /// The session's secret paths, masked in an input before it is compared with the recorded one.
    private let redaction: Redaction
    private var waiting: [EffectRunKey: [Int: (request: EffectInputRequest, waiter: Waiter)]] = [:]
    private var readEarly: [EffectRunKey: [Int: EffectCallEvent]] = [:]
    private var cancelledWhileWaiting: [EffectRunKey: [Int: String]] = [:]
    private var findings: [Finding] = []
    /// The runs that began or stopped waiting for an input since ``takeChanged()`` last took them.
    private var changed: Set<EffectRunKey> = []
    private var isFinishing = false
    /// The runs replay is done with (judged, cut by a gap, gone outside): what they ask for from then on is
    /// cancelled, and what they find or are sent is dropped.
    private var forgotten: Set<EffectRunKey> = []
    private var inputsFed = 0

    /// Inputs for runs on `executor`, of a session whose secrets `redaction` names.
    init(executor: ReplayExecutor, redaction: Redaction) {
        self.executor = executor
        self.redaction = redaction
    }

    func result(of request: EffectInputRequest) async -> EffectCallResult {
        let run = EffectRunKey(cause: request.cause, effect: request.effect)
        if let line = lock.withLock({ readEarly[run]?.removeValue(forKey: request.index) }) {
            return lock.withLock { answer(request, with: line) }
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now: EffectCallResult? = lock.withLock {
                    if isDone(with: run) { return .cancelled }
                    if let line = readEarly[run]?.removeValue(forKey: request.index) { return answer(request, with: line) }
                    if Task.isCancelled {
                        cancelledWhileWaiting[run, default: [:]][request.index] = request.name
                        return .cancelled
                    }
                    startWaiting(run, request, .suspended(continuation))
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            let continuation = lock.withLock { () -> CheckedContinuation<EffectCallResult, Never>? in
                guard let entry = waiting[run]?[request.index], case .suspended(let continuation) = entry.waiter else {
                    return nil
                }
                stopWaiting(run, request.index)
                cancelledWhileWaiting[run, default: [:]][request.index] = request.name
                return continuation
            }
            continuation?.resume(returning: .cancelled)
        }
    }

    func resultNow(of request: EffectInputRequest) -> EffectCallResult {
        let run = EffectRunKey(cause: request.cause, effect: request.effect)
        let (now, blocked) = lock.withLock { () -> (EffectCallResult?, BlockedRequest?) in
            if isDone(with: run) { return (.cancelled, nil) }
            if let line = readEarly[run]?.removeValue(forKey: request.index) {
                return (answer(request, with: line), nil)
            }
            let blocked = BlockedRequest()
            startWaiting(run, request, .blocked(blocked))
            return (nil, blocked)
        }
        guard let blocked else { return now ?? .cancelled }
        executor.whileWaitingForInput { blocked.semaphore.wait() }
        return blocked.result
    }

    func resultDoesNotDecode(_ request: EffectInputRequest, expected: String, error: any Error) {
        lock.withLock {
            guard !isDone(with: EffectRunKey(cause: request.cause, effect: request.effect)) else { return }
            findings.append(
                Finding(
                    run: EffectRunKey(cause: request.cause, effect: request.effect),
                    kind: .callResultDoesNotDecode(
                        name: request.name, index: request.index, expected: expected, message: "\(error)")))
        }
    }

    /// Hands a recorded input line to its run, or keeps it until the run asks.
    func deliver(_ line: EffectCallEvent) -> Delivery {
        let run = EffectRunKey(cause: line.cause, effect: line.effect)
        let (delivery, resume) = lock.withLock { () -> (Delivery, (() -> Void)?) in
            if forgotten.contains(run) { return (.kept, nil) }
            if let name = cancelledWhileWaiting[run]?.removeValue(forKey: line.index) {
                if name != line.name {
                    findings.append(Finding(run: run, kind: .callChanged(index: line.index, recorded: line.name, made: name)))
                } else if line.result != .cancelled {
                    findings.append(
                        Finding(run: run, kind: .cancellationChanged(name: name, index: line.index, recordedCancelled: false)))
                }
                return (.cancelledInReplay, nil)
            }
            guard let entry = waiting[run]?[line.index] else {
                readEarly[run, default: [:]][line.index] = line
                return (.kept, nil)
            }
            stopWaiting(run, line.index)
            let result = answer(entry.request, with: line)
            switch entry.waiter {
            case .suspended(let continuation):
                return (.fed, { continuation.resume(returning: result) })
            case .blocked(let blocked):
                blocked.result = result
                return (.fed, { [executor] in executor.inputArrived { blocked.semaphore.signal() } })
            }
        }
        resume?()
        return delivery
    }

    /// The first input `run` waits for, if it waits for one.
    func request(awaitedBy run: EffectRunKey) -> EffectInputRequest? {
        lock.withLock { waiting[run]?.values.map(\.request).min { $0.index < $1.index } }
    }

    /// The recorded lines of `run` read before it asked for them and never asked for.
    func unasked(by run: EffectRunKey) -> [EffectCallEvent] {
        lock.withLock { (readEarly[run] ?? [:]).values.sorted { $0.index < $1.index } }
    }

    /// Whether `run` asked for an input and was cancelled while it waited for the recorded line.
    func wasCancelledWhileWaiting(_ run: EffectRunKey) -> Bool {
        lock.withLock { cancelledWhileWaiting[run]?.isEmpty == false }
    }

    /// How many recorded inputs were handed to runs.
    var fedCount: Int { lock.withLock { inputsFed } }

    /// Whether replay is done with `run`, or with every run; call with the lock held.
    private func isDone(with run: EffectRunKey) -> Bool {
        isFinishing || forgotten.contains(run)
    }

    /// Waits for `run`'s input `request`; call with the lock held.
    private func startWaiting(_ run: EffectRunKey, _ request: EffectInputRequest, _ waiter: Waiter) {
        waiting[run, default: [:]][request.index] = (request, waiter)
        changed.insert(run)
    }

    /// Stops waiting for `run`'s input `index`; call with the lock held.
    private func stopWaiting(_ run: EffectRunKey, _ index: Int) {
        waiting[run]?[index] = nil
        if waiting[run]?.isEmpty == true { waiting[run] = nil }
        changed.insert(run)
    }

    /// The runs that began or stopped waiting for an input since the last call.
    func takeChanged() -> Set<EffectRunKey> {
        lock.withLock {
            defer { changed = [] }
            return changed
        }
    }

    /// What the hand-overs found since the last call.
    func takeFindings() -> [Finding] {
        lock.withLock {
            defer { findings = [] }
            return findings
        }
    }

    /// Is done with `run`: drops what was kept for it and ends its waits with a cancellation, now and for every
    /// later ask, so that a run cut by a gap while it waited (blocking the effects' thread for an input taken
    /// without suspending) does not hold up the runs after it.
    func forget(_ run: EffectRunKey) {
        let waiters = lock.withLock { () -> [Waiter] in
            forgotten.insert(run)
            readEarly[run] = nil
            cancelledWhileWaiting[run] = nil
            changed.remove(run)
            defer { waiting[run] = nil }
            return waiting[run]?.values.map(\.waiter) ?? []
        }
        for waiter in waiters { cancel(waiter) }
    }

    /// Ends every wait with a cancellation, now and for every later ask: the session has ended.
    func finish() {
        let waiters = lock.withLock { () -> [Waiter] in
            isFinishing = true
            defer { waiting = [:] }
            return waiting.values.flatMap { $0.values.map(\.waiter) }
        }
        for waiter in waiters { cancel(waiter) }
    }

    /// Ends a wait with a cancellation.
    private func cancel(_ waiter: Waiter) {
        switch waiter {
        case .suspended(let continuation): continuation.resume(returning: .cancelled)
        case .blocked(let blocked): executor.inputArrived { blocked.semaphore.signal() }
        }
    }

    /// The recorded result of `line` for `request`, after comparing the two; call with the lock held.
    private func answer(_ request: EffectInputRequest, with line: EffectCallEvent) -> EffectCallResult {
        let run = EffectRunKey(cause: request.cause, effect: request.effect)
        guard request.name == line.name else {
            findings.append(Finding(run: run, kind: .callChanged(index: line.index, recorded: line.name, made: request.name)))
            return .cancelled
        }
        let input = request.input.map { input in
            redaction.redactingCall(
                EffectCallEvent(
                    cause: request.cause, effect: request.effect, index: request.index, name: request.name, time: 0,
                    input: input, result: .value(.null))
            ).input ?? input
        }
        if input != line.input {
            findings.append(
                Finding(
                    run: run,
                    kind: .callInputDiffers(
                        name: line.name, index: line.index,
                        diff: StateDiff(from: line.input ?? .null, to: input ?? .null))))
        }
        if line.result == .cancelled {
            findings.append(
                Finding(run: run, kind: .cancellationChanged(name: line.name, index: line.index, recordedCancelled: true)))
        }
        inputsFed += 1
        return line.result
    }
}
