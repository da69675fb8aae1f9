import Foundation
import StoreKitCore
import StoreKitReplay

/// `replay-cli update`: accept the current reducers by re-recording a session's states.
enum UpdateCommand: Command {
    static let name = "update"
    static let abstract = "Accept the current reducers: rewrite a session's recorded states with the replayed ones."
    static let usage = "replay-cli update <session> [--no-backup] [--host <command>] [--timeout <seconds>] [--json]"
    static let arguments = [("<session>", "the golden session to update")]
    static let options = [
        OptionSpec(name: "--no-backup", valueName: nil, help: "do not keep the original as <session>.orig"),
        CommonOptions.host, CommonOptions.timeout, CommonOptions.json,
    ]

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws(CLIError) -> Int32 {
        guard parsed.positionals.count == 1, parsed.positionals[0] != "-" else {
            throw CLIError("update takes one session file (not standard input: it rewrites the file)", usage: usage)
        }
        let session = try SessionInput(parsed.positionals[0])
        _ = try HostReplay.header(of: session)
        let host = try HostCommand.locate(option: parsed.values["--host"], context: context)
        try host.prepare(context.terminal)
        let timeout = Double(try parsed.integer("--timeout", in: 1...86_400, usage: usage) ?? 30)
        let answer = try HostClient(host: host, timeout: timeout)
            .run(ReplayHostRequest(command: .rerecord), sessionPath: session.path, displayName: session.displayName)
        if let failure = answer.result["failure"]?.stringValue { throw CLIError("\(session.displayName): \(failure)") }
        var bytes: [UInt8] = []
        for line in answer.lines {
            line.writeCanonical(to: &bytes)
            bytes.append(0x0A)
        }
        // Check what the host sent before replacing anything.
        do {
            _ = try Session(ndjson: bytes, source: "the host's re-recorded session")
        } catch {
            throw CLIError("the replay host sent back an invalid session: \(error)")
        }
        let backup = session.path + ".orig"
        do {
            if !parsed.has("--no-backup") {
                try? FileManager.default.removeItem(atPath: backup)
                try FileManager.default.copyItem(atPath: session.path, toPath: backup)
            }
            try Data(bytes).write(to: URL(fileURLWithPath: session.path), options: .atomic)
        } catch {
            throw CLIError("cannot rewrite '\(session.path)': \(error.localizedDescription)")
        }
        let count = Int(answer.result["rerecorded"]?.integerValue ?? 0)
        if parsed.has("--json") {
            context.terminal.out(JSONValue.object([
                "session": .string(session.path), "actions": .integer(Int64(count)),
                "backup": parsed.has("--no-backup") ? .null : .string(backup),
            ]).prettyString())
        } else {
            let kept = parsed.has("--no-backup") ? "" : " (the original is kept as \(backup))"
            context.terminal.out("updated \(session.path): \(count) recorded states replaced by the current reducers' ones\(kept)")
        }
        return 0
    }
}
