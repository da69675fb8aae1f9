import CommandLineOptions
import Foundation
import StoreKitCore
import StoreKitReplay

/// The places whose values a comparison ignores: `.replay.json`'s `"ignore"` list (the nearest such file in the
/// working directory or a parent), unless `--no-default-ignore`, then every `--ignore`.
package enum IgnoredPaths {
    /// Reads the patterns of `parsed` and of `.replay.json`.
    /// - Throws: ``CLIError`` (exit 2) naming a pattern that does not parse and where, or a malformed `.replay.json`.
    package static func resolve(_ parsed: ParsedCommandLine, context: CommandContext) throws(CLIError) -> [JSONPathPattern] {
        var patterns: [JSONPathPattern] = []
        if !parsed.isSet(SharedOptions.noDefaultIgnore) {
            patterns += try fromConfiguration(startingAt: context.currentDirectory)
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

    /// The `"ignore"` list of the nearest `.replay.json`; empty when there is none or it has no such list.
    private static func fromConfiguration(startingAt start: String) throws(CLIError) -> [JSONPathPattern] {
        var directory = URL(fileURLWithPath: start)
        while true {
            let file = directory.appendingPathComponent(".replay.json").path
            if let data = FileManager.default.contents(atPath: file) { return try patterns(in: data, file: file) }
            let parent = directory.deletingLastPathComponent()
            if parent.path == directory.path { return [] }
            directory = parent
        }
    }

    private static func patterns(in data: Data, file: String) throws(CLIError) -> [JSONPathPattern] {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: Array(data))
        } catch {
            throw CLIError(.input, "\(file): not valid JSON: \(error)")
        }
        guard let list = json["ignore"], list != .null else { return [] }
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
