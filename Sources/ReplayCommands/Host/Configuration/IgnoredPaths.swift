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

    /// The patterns `--ignore` gave, last in what ``resolve(_:context:)`` returns.
    package static func given(_ parsed: ParsedCommandLine, in resolved: [JSONPathPattern]) -> [JSONPathPattern] {
        Array(resolved.suffix(parsed.values(of: SharedOptions.ignore).count))
    }

    /// A warning for each of `patterns` (those `--ignore` gave) that names no place in any state or action of
    /// `sessions`, with the nearest places that exist; `.replay.json`'s patterns are shared by every store and go
    /// unwarned.
    /// A pattern that names nothing ignores nothing: the verdict stands as if it were not given.
    ///
    /// Each session is read until every pattern is found, mostly its first line alone. A session that does not
    /// read is left out: the comparison reports it.
    static func warnings(about patterns: [JSONPathPattern], in sessions: [SessionInput], source: String) -> [String] {
        guard !sessions.isEmpty else { return [] }
        var presences = patterns.map(PatternPresence.init)
        func someMissing() -> Bool { presences.contains { !$0.isPresent } }
        for session in sessions where someMissing() {
            func look(in state: JSONValue) -> Bool {
                for index in presences.indices { presences[index].look(in: state) }
                return someMissing()
            }
            do {
                try SessionScan.read(session) { event throws(CLIError) in
                    switch event {
                    case .header(let header): look(in: header.initialState)
                    case .action(let action): look(in: action.state) && look(in: action.action)
                    case .gap, .end, .call, .effectEnd, .note: true
                    }
                }
            } catch {
                continue
            }
        }
        return warnings(presences, source: source, looked: "state or action")
    }

    /// A warning for each pattern `--ignore` gave (of `resolved`, what ``resolve(_:context:)`` returned) that names no
    /// place in any state or action of `session`, as ``warnings(about:in:source:)`` finds them.
    static func warnings(given parsed: ParsedCommandLine, in resolved: [JSONPathPattern], session: SessionInput) -> [String] {
        warnings(about: given(parsed, in: resolved), in: [session], source: session.displayName)
    }

    /// A warning for each of `patterns` (those `--ignore` gave) that names no place in `states`.
    static func warnings(about patterns: [JSONPathPattern], inStates states: [JSONValue], source: String) -> [String] {
        var presences = patterns.map(PatternPresence.init)
        for index in presences.indices { states.forEach { presences[index].look(in: $0) } }
        return warnings(presences, source: source, looked: "state")
    }

    private static func warnings(_ presences: [PatternPresence], source: String, looked: String) -> [String] {
        presences.compactMap { presence in
            presence.note(subject: "--ignore '\(presence.pattern.text)' ignores nothing: it", source: source, looked: looked)
                .map { "warning: \($0)" }
        }
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
