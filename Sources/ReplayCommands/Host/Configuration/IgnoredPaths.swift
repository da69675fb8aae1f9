import CommandLineOptions
import StoreKitCore
import StoreKitReplay

/// The places whose values a comparison ignores: `.replay.json`'s `"ignore"` list (the file
/// ``ReplayConfiguration`` finds), unless `--no-default-ignore`, then every `--ignore`.
package enum IgnoredPaths {
    /// Reads the patterns of `parsed` and of `.replay.json`.
    /// - Throws: ``CLIError`` (exit 2) naming a pattern that does not parse and where, or a `.replay.json` that is
    ///   malformed or not trusted.
    package static func resolve(_ parsed: ParsedCommandLine, context: CommandContext) throws(CLIError) -> [JSONPathPattern] {
        var patterns: [JSONPathPattern] = []
        if !parsed.isSet(SharedOptions.noDefaultIgnore) {
            patterns += try fromConfiguration(context)
        }
        for text in parsed.values(of: SharedOptions.ignore) {
            do {
                patterns.append(try JSONPathPattern(text))
            } catch {
                throw CLIError(.input, "--ignore: \(error)")
            }
        }
        return patterns
    }

    /// The `"ignore"` list of `.replay.json`; empty when there is none or it has no such list.
    private static func fromConfiguration(_ context: CommandContext) throws(CLIError) -> [JSONPathPattern] {
        guard let configuration = try ReplayConfiguration.find(context) else { return [] }
        let file = configuration.file
        guard let list = configuration.json["ignore"], list != .null else { return [] }
        guard let entries = list.arrayValue else {
            throw CLIError(.input, "\(file): field 'ignore' must be an array of path patterns, such as [\"todos[*].id\"]")
        }
        var patterns: [JSONPathPattern] = []
        for (index, entry) in entries.enumerated() {
            guard let text = entry.stringValue else {
                throw CLIError(.input, "\(file): ignore[\(index)] must be a string (a path pattern such as \"todos[*].id\")")
            }
            do {
                patterns.append(try JSONPathPattern(text))
            } catch {
                throw CLIError(.input, "\(file): ignore[\(index)]: \(error)")
            }
        }
        return patterns
    }
}
