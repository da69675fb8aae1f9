import StoreKitCore

/// What `replay-cli` asks a replay host to do with the session on its standard input.
public struct ReplayHostRequest: Sendable, Equatable {
    /// The kinds of work a host does.
    public enum Command: String, Sendable, CaseIterable {
        /// Replay and report (a ``ReplayReport``).
        case replay
        /// Check that every recorded value still decodes (a ``SchemaDrift``).
        case drift
        /// Replay and send back the session with the replayed states (a golden update).
        case rerecord
    }

    /// The work.
    public var command: Command
    /// For `replay`: list every diverging step instead of stopping at the first.
    public var findAllDivergences: Bool
    /// For `replay`: stop after this step.
    public var lastStep: Int?

    /// Creates a request.
    public init(command: Command, findAllDivergences: Bool = false, lastStep: Int? = nil) {
        self.command = command
        self.findAllDivergences = findAllDivergences
        self.lastStep = lastStep
    }

    /// The request as the JSON passed after `--request`.
    public var jsonValue: JSONValue {
        .object([
            "protocol": .integer(Int64(ReplayHost.protocolVersion)), "command": .string(command.rawValue),
            "findAll": .bool(findAllDivergences), "lastStep": lastStep.map { .integer(Int64($0)) } ?? .null,
        ])
    }

    /// Reads a request; `nil` when it is not one this host understands.
    public init?(jsonValue: JSONValue) {
        guard jsonValue["protocol"]?.integerValue == Int64(ReplayHost.protocolVersion),
            let command = jsonValue["command"]?.stringValue.flatMap(Command.init(rawValue:))
        else { return nil }
        self.command = command
        self.findAllDivergences = jsonValue["findAll"] == .bool(true)
        self.lastStep = jsonValue["lastStep"]?.integerValue.map { Int($0) }
    }
}
