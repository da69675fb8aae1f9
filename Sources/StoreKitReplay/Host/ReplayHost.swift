import StoreKitCore

/// The replay-host side of the protocol between `replay-cli` and the app's own reducers
/// (`docs/replay-host-protocol.md`).
///
/// A replay host is a tiny executable in the app's package whose whole body is one call:
/// ```swift
/// import StoreKitCore
/// ReplayHost.run(stores: [ReplayableStore(id: "todos", reducer: Todos.reducer)])
/// ```
/// `replay-cli` starts it with `--request <json>`, streams a session to its standard input, and reads NDJSON
/// from its standard output: a `hello` line, a `step` line before each replayed action (so a reducer that
/// crashes or hangs is pinned to its step), and one `result` or `error` line. For `check` the result holds the
/// header, the schema drift and the report, with the actions before each divergence. For `rerecord` it sends the session
/// back as `line` lines, changed only in its states (see ``ReplayEngine/rerecord(_:)``).
public enum ReplayHost {
    /// The protocol version this library speaks; `hello` carries it and requests must match it.
    /// Version 2 replaced `drift` and `replay` with one `check` that reads the session once. Version 3 added
    /// `ignore` (patterns of places whose values do not count) to `check` and `migrate` to `rerecord`, and the
    /// report's `ignoring`/`ignored` and the drift's `advice`. Version 4 added the `states` command (replay without
    /// comparing, each replayed state sent as a `state` line).
    public static let protocolVersion = 4

    /// Serves one request and exits the process.
    /// - Parameters:
    ///   - stores: Every store this host can replay.
    ///   - arguments: The command line; `--request <json>` comes from `replay-cli`.
    public static func run(stores: [ReplayableStore], arguments: [String] = CommandLine.arguments) -> Never {
        send(
            .object([
                "kind": .string("hello"), "protocol": .integer(Int64(protocolVersion)),
                "stores": .array(stores.map(\.id).sorted().map(JSONValue.string)),
            ]))
        let request: ReplayHostRequest?
        do {
            request = try requestArgument(arguments)
        } catch {
            send(.object(["kind": .string("error"), "message": .string("the request's 'ignore': \(error)")]))
            exit(2)
        }
        guard let request else {
            let message = "this is a replay host for replay-cli; it expects '--request <json>' (protocol \(protocolVersion))"
            send(.object(["kind": .string("error"), "message": .string(message)]))
            exit(2)
        }
        do {
            try serve(request, stores: stores)
            exit(0)
        } catch {
            send(.object(["kind": .string("error"), "line": .integer(Int64(error.line)), "message": .string(error.reason)]))
            exit(0)
        }
    }

    /// The request after `--request`; `nil` when there is none this host understands.
    private static func requestArgument(_ arguments: [String]) throws(JSONPathPatternError) -> ReplayHostRequest? {
        guard let index = arguments.firstIndex(of: "--request"), index + 1 < arguments.count,
            let json = try? JSONValue(parsing: arguments[index + 1])
        else { return nil }
        return try ReplayHostRequest(jsonValue: json)
    }

    private static func serve(_ request: ReplayHostRequest, stores: [ReplayableStore]) throws(SessionReadError) {
        let source = "<session>"
        switch request.command {
        case .check:
            // The session is read from standard input once; the drift check, the replay and the context read it
            // from memory.
            let bytes = try readStandardInput(source: source)
            guard let drift = try ReplayEngine(stores: stores).checkDrift(reader: SessionReader(bytes: bytes, source: source))
            else {
                guard case .header(let header) = try SessionReader(bytes: bytes, source: source).next() else { return }
                send(
                    .object([
                        "kind": .string("result"), "header": SessionEvent.header(header).jsonValue,
                        "unknownStore": .array(stores.map { .string($0.id) }),
                    ]))
                return
            }
            let options = ReplayEngine.Options(
                findAllDivergences: request.findAllDivergences, lastStep: request.lastStep,
                willReplay: { action in
                    send(.object(["kind": .string("step"), "seq": .integer(Int64(action.sequence)), "name": .string(action.name)]))
                }, ignoring: request.ignoring)
            var report = try ReplayEngine(stores: stores, options: options)
                .replay(reader: SessionReader(bytes: bytes, source: source))
            try report.attachPrecedingActions(request.contextActions, from: SessionReader(bytes: bytes, source: source))
            send(
                .object([
                    "kind": .string("result"), "header": SessionEvent.header(report.header).jsonValue,
                    "drift": drift.jsonValue, "report": report.jsonValue,
                ]))
        case .states:
            try sendReplayedStates(stores: stores, source: source)
        case .rerecord:
            let reader = SessionReader(fileDescriptor: 0, source: source, ownsDescriptor: false)
            let session = try Session(reader: reader)
            do {
                let updated = try ReplayEngine(stores: stores).rerecord(session, migrating: request.migrating)
                send(.object(["kind": .string("line"), "line": SessionEvent.header(updated.header).jsonValue]))
                for event in updated.events { send(.object(["kind": .string("line"), "line": event.jsonValue])) }
                send(.object(["kind": .string("result"), "rerecorded": .integer(Int64(updated.actions.count))]))
            } catch {
                send(.object(["kind": .string("result"), "failure": .string(error.description)]))
            }
        }
    }

    /// Replays the session on standard input from its initial state, sending a `step` line before and a `state`
    /// line after each action; after a gap the replay restarts from the next action's recorded state, as
    /// ``ReplayEngine/rerecord(_:migrating:)`` does. Ends with a `result` holding how many steps were replayed, or
    /// the `failure` that stopped it (an unknown store, a value that no longer decodes).
    private static func sendReplayedStates(stores: [ReplayableStore], source: String) throws(SessionReadError) {
        let session = try Session(reader: SessionReader(fileDescriptor: 0, source: source, ownsDescriptor: false))
        guard let store = stores.first(where: { $0.id == session.header.storeID }) else {
            let known = stores.map(\.id).sorted().joined(separator: ", ")
            send(.object(["kind": .string("result"), "failure": .string("no replayable store has id '\(session.header.storeID)' (known: \(known))")]))
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
                send(.object(["kind": .string("step"), "seq": .integer(Int64(action.sequence)), "name": .string(action.name)]))
                if afterGap {
                    try replayer.load(action.state, as: .recordedState)
                    afterGap = false
                } else {
                    try replayer.apply(action.action)
                }
                send(.object(["kind": .string("state"), "seq": .integer(Int64(action.sequence)), "state": try replayer.currentState()]))
                replayed += 1
            }
        } catch {
            let failure = "step \(replayed + 1): the \(error.part.rawValue) no longer decodes at \(error.path): \(error.message)"
            send(.object(["kind": .string("result"), "failure": .string(failure)]))
            return
        }
        send(.object(["kind": .string("result"), "replayed": .integer(Int64(replayed))]))
    }

    /// Reads all of standard input.
    private static func readStandardInput(source: String) throws(SessionReadError) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count: Int
            do {
                count = try Syscall.read(0, into: &buffer)
            } catch {
                throw SessionReadError(source: source, line: 0, problem: .io(error))
            }
            if count == 0 { return bytes }
            bytes += buffer[..<count]
        }
    }

    /// Writes one protocol line to standard output, unbuffered, so it survives a crash right after.
    private static func send(_ message: JSONValue) {
        var line = message.canonicalBytes()
        line.append(0x0A)
        try? Syscall.writeAll(1, line, subject: "standard output")
    }
}
