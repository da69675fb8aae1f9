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
/// crashes or hangs is pinned to its step), and one `result` or `error` line. For `rerecord` it sends the session
/// back as `line` lines, changed only in its states (see ``ReplayEngine/rerecord(_:)``).
public enum ReplayHost {
    /// The protocol version this library speaks; `hello` carries it and requests must match it.
    public static let protocolVersion = 1

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
        guard let index = arguments.firstIndex(of: "--request"), index + 1 < arguments.count,
            let json = try? JSONValue(parsing: arguments[index + 1]), let request = ReplayHostRequest(jsonValue: json)
        else {
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

    private static func serve(_ request: ReplayHostRequest, stores: [ReplayableStore]) throws(SessionReadError) {
        let reader = SessionReader(fileDescriptor: 0, source: "<session>", ownsDescriptor: false)
        switch request.command {
        case .replay:
            let options = ReplayEngine.Options(
                findAllDivergences: request.findAllDivergences, lastStep: request.lastStep,
                willReplay: { action in
                    send(.object(["kind": .string("step"), "seq": .integer(Int64(action.sequence)), "name": .string(action.name)]))
                })
            let report = try ReplayEngine(stores: stores, options: options).replay(reader: reader)
            send(.object(["kind": .string("result"), "header": SessionEvent.header(report.header).jsonValue, "report": report.jsonValue]))
        case .drift:
            let engine = ReplayEngine(stores: stores)
            if let drift = try engine.checkDrift(reader: reader) {
                send(.object(["kind": .string("result"), "header": SessionEvent.header(drift.header).jsonValue, "drift": drift.jsonValue]))
            } else {
                send(.object(["kind": .string("result"), "unknownStore": .array(stores.map { .string($0.id) })]))
            }
        case .rerecord:
            let session = try Session(reader: reader)
            do {
                let updated = try ReplayEngine(stores: stores).rerecord(session)
                send(.object(["kind": .string("line"), "line": SessionEvent.header(updated.header).jsonValue]))
                for event in updated.events { send(.object(["kind": .string("line"), "line": event.jsonValue])) }
                send(.object(["kind": .string("result"), "rerecorded": .integer(Int64(updated.actions.count))]))
            } catch {
                send(.object(["kind": .string("result"), "failure": .string(error.description)]))
            }
        }
    }

    /// Writes one protocol line to standard output, unbuffered, so it survives a crash right after.
    private static func send(_ message: JSONValue) {
        var line = message.canonicalBytes()
        line.append(0x0A)
        try? Syscall.writeAll(1, line, subject: "standard output")
    }
}
