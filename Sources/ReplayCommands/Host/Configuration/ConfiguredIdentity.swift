import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// Which member identifies the elements of which arrays in a comparison's diffs: `.replay.json`'s `"identity"`
/// object (the file ``ReplayConfiguration`` finds), from path patterns to member names, such as
/// `"identity": {"todos": "toDoID"}`.
package struct ConfiguredIdentity {
    /// The keys, in the patterns' order; none without `"identity"`.
    package var keys: [IdentityKey] = []
    /// The file they were read from, for the warnings about them.
    var file: String?

    /// Reads `"identity"` from `.replay.json`.
    /// - Throws: ``CLIError`` (exit 2) naming the file and what is wrong with `"identity"`, or a `.replay.json` that
    ///   is malformed or not trusted.
    package static func resolve(_ context: CommandContext) throws(CLIError) -> ConfiguredIdentity {
        guard let configuration = try ReplayConfiguration.find(context),
            let json = configuration.json["identity"], json != .null
        else { return ConfiguredIdentity() }
        do {
            return ConfiguredIdentity(keys: try [IdentityKey](jsonValue: json), file: configuration.file)
        } catch {
            throw CLIError(.input, "\(configuration.file): field 'identity' \(error)")
        }
    }

    /// A warning line for each key whose pattern names no array in the states `reports`' divergences compared
    /// (see ``IdentityKey``); none when nothing diverged.
    package func warnings(about reports: [ReplayReport]) -> [String] {
        keys.warnings(comparedIn: reports, source: file ?? ReplayConfiguration.fileName)
    }

    /// A warning line for each key whose pattern names no array in `compared`, two states a diff compared.
    package func warnings(about compared: [JSONValue]) -> [String] {
        keys.warnings(about: compared, source: file ?? ReplayConfiguration.fileName)
    }
}
