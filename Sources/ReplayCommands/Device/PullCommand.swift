import CommandLineOptions
import Foundation

/// `replay-cli pull`: copies the session files an app recorded on a phone and verifies each.
///
/// A phone cannot reach `replayd`'s socket on the Mac, so an app on it records to a file in its container
/// (`FileTransport`, a `FlightRecorder`'s dump or spill); this command fetches them with Apple's
/// `xcrun devicectl device copy from` (see ``DevicePull``). Exit 0 when every file pulled is valid, 2 otherwise.
enum PullCommand: Command {
    /// `--device <udid>`.
    static let device = Option<String>.string(
        "--device", valueName: "<udid>",
        help: "the phone's identifier, as 'xcrun devicectl list devices' shows it\n(required)").required()
    /// `--bundle <id>`.
    static let bundle = Option<String>.string(
        "--bundle", valueName: "<id>", help: "the app's bundle identifier (required)").required()
    /// `--latest`.
    static let latest = Flag(
        "--latest",
        help: "keep only the session file modified last (the folder is copied\nwhole, then the others are left out)")
    /// `--from <path>`.
    static let source = Option<String>.string(
        "--from", valueName: "<path>", default: DeviceCopyPlan.defaultSource,
        help: "the file or folder to copy, in the app's data container")
    /// `-o <folder>`.
    static let output = Option<String>.string(
        "-o", valueName: "<folder>", default: ".", defaultDescription: "the current directory",
        help: "where to put the session files")

    /// What this machine cannot do, said instead of trying.
    static let needsXcode =
        "replay-cli pull needs macOS with Xcode 15 or later (xcrun devicectl); on this machine, copy the files "
        + "another way and run replay-cli verify"

    static let command = CommandDescription(
        name: "replay-cli pull",
        abstract: "Copy the session files an app recorded on a phone, and verify each as every command reads it.",
        options: [device.declaration, bundle.declaration, latest.declaration, source.declaration, output.declaration],
        discussion: """
            Runs 'xcrun devicectl device copy from --domain-type appDataContainer' (macOS with Xcode 15 or later, a \
            phone with iOS 17 or later paired with this Mac, an app built for development), then reads each copied \
            session file as 'replay-cli verify' does: 'ok', or the reader's first error at its file and line. Exit \
            status: 0 when every file is valid, 2 otherwise. See docs/devices.md.
            """)

    static func run(_ parsed: ParsedCommandLine, _ context: CommandContext) throws(CLIError) -> ExitStatus {
        guard let device = parsed.value(of: device) else {
            throw CLIError("missing '--device <udid>'", usage: command.usage)
        }
        guard let bundle = parsed.value(of: bundle) else {
            throw CLIError("missing '--bundle <id>'", usage: command.usage)
        }
        let pull = try DevicePull(
            device: device, bundle: bundle, source: parsed.value(ofDefaulted: source),
            destination: parsed.value(ofDefaulted: output), latestOnly: parsed.isSet(latest),
            stagingName: ".replay-pull-" + UUID().uuidString.prefix(8))
        guard Xcrun.isAvailableOnThisSystem else { throw CLIError(.input, needsXcode) }
        let outcome = try pull.run(with: Xcrun())
        for line in outcome.lines { context.terminal.out(line) }
        return outcome.allValid ? .ok : .trouble
    }
}
