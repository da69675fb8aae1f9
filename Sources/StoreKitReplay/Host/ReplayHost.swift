import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitSystem

/// The replay-host side of the protocol between `replay-cli` and the app's own reducers
/// (`docs/replay-host-protocol.md`).
///
/// A replay host is a tiny executable in the app's package whose whole body is one call:
/// ```swift
/// import StoreKitCore
/// ReplayHost.run(stores: [ReplayableStore(id: "todos", reducer: Todos.reducer)])
/// ```
/// `replay-cli` starts it with `--request <json>` and reads NDJSON from its standard output: a `hello` line, then
/// the answer. For `check` the host opens the session files the request lists and checks them, several at once on
/// their own threads, sending a `result` (or `error`) line for each as it is done: the header, the schema drift and
/// the report, with the actions before each divergence. For `rerecord` and `states` it reads one session from its
/// standard input; `rerecord` sends the session back as `line` lines, changed only in its states (see
/// ``ReplayEngine/rerecord(_:migrating:)``), `states` a `state` line per step. Before each step a worker writes it on
/// the ``ProgressBoard`` the request names, so a reducer that crashes or hangs is pinned to its step.
public enum ReplayHost {
    /// The protocol version this library speaks; `hello` carries it and requests must match it, both written and
    /// checked by `HostProtocolVersion`.
    /// Version 2 replaced `drift` and `replay` with one `check` that reads the session once. Version 3 added
    /// `ignore` (patterns of places whose values do not count) to `check` and `migrate` to `rerecord`, and the
    /// report's `ignoring`/`ignored` and the drift's `advice`. Version 4 added the `states` command (replay without
    /// comparing, each replayed state sent as a `state` line). Version 5 replaced the `step` lines with the
    /// ``ProgressBoard`` and made `check` take a list of session files (`sessions`, checked `jobs` at a time, each
    /// `result` or `error` naming its `session`); a `state` line carries its action's `name`. Version 6 added the
    /// rerun of replayable effects to `check`: its report can carry the `effectDiverged` verdict, `effects` (what was
    /// compared of the effects, and what was not) and `effectDivergences`. Version 7 added `identity` to `check`
    /// (which member identifies the elements of which arrays, for the divergences' diffs) and the diffs'
    /// `identityKeys`.
    public static let protocolVersion = 7

    /// Serves one request and exits the process.
    /// - Parameters:
    ///   - stores: Every store this host can replay.
    ///   - arguments: The command line; `--request <json>` comes from `replay-cli`.
    public static func run(stores: [ReplayableStore], arguments: [String] = CommandLine.arguments) -> Never {
        send(.hello(stores: stores.map(\.id).sorted()))
        let expected = "this is a replay host for replay-cli; it expects '--request <json>' (protocol \(protocolVersion))"
        let request: ReplayHostRequest
        do throws(ReplayHostRequest.ReadError) {
            guard let json = requestArgument(arguments) else {
                send(.error(HostMessage.Failure(message: expected)))
                exit(2)
            }
            request = try ReplayHostRequest(json: json)
        } catch {
            switch error {
            case .pattern(let error): send(.error(HostMessage.Failure(message: "the request's 'ignore': \(error)")))
            case .identity(let error): send(.error(HostMessage.Failure(message: "the request's 'identity' \(error)")))
            case .protocolError(let error): send(.error(HostMessage.Failure(message: "\(expected); it was sent \(error)")))
            }
            exit(2)
        }
        do {
            try serve(request, stores: stores)
            exit(0)
        } catch {
            send(.error(HostMessage.Failure(message: error.reason, line: error.line)))
            exit(0)
        }
    }

    /// The JSON after `--request`; `nil` when there is none, or it is not JSON.
    private static func requestArgument(_ arguments: [String]) -> JSONValue? {
        guard let index = arguments.firstIndex(of: "--request"), index + 1 < arguments.count else { return nil }
        return try? JSONValue(parsing: arguments[index + 1])
    }

    private static func serve(_ request: ReplayHostRequest, stores: [ReplayableStore]) throws(SessionReadError) {
        let source = "<session>"
        let board: ProgressBoard.Writer?
        do {
            board = try request.progress.map { path throws(SystemError) in
                try ProgressBoard.Writer(path: path, slots: request.command == .check ? request.jobs : 1)
            }
        } catch {
            send(.error(HostMessage.Failure(message: "cannot use the progress board: \(error)")))
            return
        }
        switch request.command {
        case .check:
            checkSessions(request, stores: stores, board: board)
        case .states:
            try sendReplayedStates(stores: stores, source: source, board: board)
        case .rerecord:
            let reader = SessionReader(fileDescriptor: 0, source: source, ownsDescriptor: false)
            let session = try Session(reader: reader)
            do {
                let updated = try ReplayEngine(stores: stores).rerecord(session, migrating: request.migrating)
                send(.line(SessionEvent.header(updated.header).jsonValue))
                for event in updated.events { send(.line(event.jsonValue)) }
                send(.result(HostMessage.Result(rerecorded: updated.actions.count)))
            } catch {
                send(.result(HostMessage.Result(failure: error.description)))
            }
        }
    }

    /// Checks every session of the request, `jobs` at a time: each worker takes the next session, shows it on its
    /// slot of the board, and sends its `result` or `error` line when done. The first worker is this thread; the
    /// others are threads with as much stack as a main thread, since reducers and decoders may recurse deeply.
    private static func checkSessions(_ request: ReplayHostRequest, stores: [ReplayableStore], board: ProgressBoard.Writer?) {
        let nextSession = Locked(0)
        let work: @Sendable (Int) -> Void = { worker in
            while true {
                let index = nextSession.withLock { next -> Int in
                    defer { next += 1 }
                    return next
                }
                guard index < request.sessions.count else { return }
                board?.write(slot: worker, session: index, step: 0, name: "")
                let willReplay: @Sendable (ActionEvent) -> Void = { action in
                    board?.write(slot: worker, session: index, step: action.sequence, name: action.name)
                }
                send(
                    check(
                        request.sessions[index], index: index, request: request, stores: stores, willReplay: willReplay,
                        endingEffectRuns: { ending in board?.write(slot: worker, ending: ending) }))
            }
        }
        let workers = max(1, min(request.jobs, request.sessions.count))
        let finished = DispatchSemaphore(value: 0)
        for worker in 1..<workers {
            let thread = Thread {
                work(worker)
                finished.signal()
            }
            thread.stackSize = workerStackBytes
            thread.start()
        }
        work(0)
        for _ in 1..<workers { finished.wait() }
    }

    /// The stack of each worker thread but the first: a main thread's.
    private static let workerStackBytes = 8 << 20

    /// The `result` (or `error`) line of the session at `path`, the `index`th of the request.
    private static func check(
        _ path: String, index: Int, request: ReplayHostRequest, stores: [ReplayableStore],
        willReplay: @escaping @Sendable (ActionEvent) -> Void,
        endingEffectRuns: @escaping @Sendable (EffectRunsEnding) -> Void
    ) -> HostMessage {
        let options = ReplayEngine.Options(
            findAllDivergences: request.findAllDivergences, lastStep: request.lastStep, willReplay: willReplay,
            ignoring: request.ignoring, identity: request.identity, endingEffectRuns: endingEffectRuns)
        do {
            let reader = try SessionReader(path: path)
            let check = try ReplayEngine(stores: stores, options: options).check(reader: reader, contextActions: request.contextActions)
            let header = SessionEvent.header(check.report.header).jsonValue
            guard let drift = check.drift else {
                return .result(HostMessage.Result(session: index, header: header, unknownStore: stores.map(\.id)))
            }
            return .result(HostMessage.Result(session: index, header: header, drift: drift.jsonValue, report: check.report.jsonValue))
        } catch {
            // A file that cannot be read is no line's fault.
            let line = if case .io = error.problem { 0 } else { error.line }
            return .error(HostMessage.Failure(message: error.reason, line: line, session: index))
        }
    }

    /// Replays the session on standard input from its initial state, showing each step on the board before it
    /// and sending a `state` line after it; after a gap the replay restarts from the next action's recorded state, as
    /// ``ReplayEngine/rerecord(_:migrating:)`` does. Ends with a `result` holding how many steps were replayed, or
    /// the `failure` that stopped it (an unknown store, a value that no longer decodes), and where the states hold
    /// dates, durations and dictionaries written as keyed pairs.
    private static func sendReplayedStates(
        stores: [ReplayableStore], source: String, board: ProgressBoard.Writer?
    ) throws(SessionReadError) {
        let session = try Session(reader: SessionReader(fileDescriptor: 0, source: source, ownsDescriptor: false))
        guard let store = stores.first(where: { $0.id == session.header.storeID }) else {
            let known = stores.map(\.id).sorted().joined(separator: ", ")
            send(.result(HostMessage.Result(failure: "no replayable store has id '\(session.header.storeID)' (known: \(known))")))
            return
        }
        let replayer = store.replayer(for: session.header)
        var replayed = 0
        var afterGap = false
        do {
            try replayer.load(session.header.initialState, as: .initialState)
            for event in session.events {
                guard case .action(let action) = event else {
                    if case .gap = event { afterGap = true }
                    continue
                }
                board?.write(slot: 0, session: 0, step: action.sequence, name: action.name)
                if afterGap {
                    try replayer.load(action.state, as: .recordedState)
                    afterGap = false
                } else {
                    try replayer.apply(action.action)
                }
                send(.state(HostMessage.ReplayedState(seq: action.sequence, name: action.name, state: try replayer.currentState())))
                replayed += 1
            }
        } catch {
            let failure = "step \(replayed + 1): the \(error.part.rawValue) no longer decodes at \(error.path): \(error.message)"
            send(.result(HostMessage.Result(failure: failure)))
            return
        }
        let notes = replayer.typeNotes
        send(.result(HostMessage.Result(replayed: replayed, typeNotes: notes.isEmpty ? nil : .object(notes.jsonMembers))))
    }

    /// Serializes the lines of the workers.
    private static let output = Locked(())

    /// Writes one protocol line to standard output, unbuffered, so it survives a crash right after; whole, when
    /// several workers send at once.
    private static func send(_ message: HostMessage) {
        let line = message.lineBytes()
        output.withLock { _ in try? Syscall.writeAll(1, line, subject: "standard output") }
    }
}
