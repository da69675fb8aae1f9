import CommandLineOptions
import StoreKitCore
import StoreKitReplay

/// Which actions `log` shows: by name, origin, text, step range and the paths they changed, all combined (an
/// action is shown when it passes every filter given). Gaps that touch the step range and the end are always shown.
struct StepFilter {
    /// Who dispatched an action, as `--origin` names it.
    enum Origin: String, CaseIterable, Sendable {
        /// The user, through the app.
        case app
        /// An effect (whatever its cause).
        case effect
    }

    /// `--name <name>`.
    static let name = Option<String>.string(
        "--name", valueName: "<name>",
        help: "only actions named <name> or below it, by whole dot-separated parts: 'path.element.rehearsal' shows 'path.element.rehearsal.timerTick', not 'path.element.rehearsals'")
    /// `--origin app|effect`.
    static let origin = Option<Origin>.choice(
        "--origin", valueName: "app|effect", help: "only actions dispatched by the app, or by effects")
    /// `--grep <text>`.
    static let grep = Option<String>.string(
        "--grep", valueName: "<text>", help: "only actions whose name or JSON contains <text> (case matters)")
    /// `--from <n>`.
    static let from = Option<Int>.integer("--from", in: 1...Int.max, help: "only steps from <n> on")
    /// `--to <n>`.
    static let to = Option<Int>.integer("--to", in: 1...Int.max, help: "only steps up to <n> (with --from, a range)")
    /// `--path <path>`.
    static let path = Option<String>.string(
        "--path", valueName: "<path>",
        help: "only steps that changed something at or under <path>, a pattern as --ignore takes ('todos[*].title', 'route.*', 'todos[id: 3]'); with --diff, only those changes")
    /// The filters' declarations, in the order help lists them.
    static let declarations = [name.declaration, origin.declaration, grep.declaration, from.declaration, to.declaration, path.declaration]

    /// The name an action's name must equal or continue with a dot.
    let namePrefix: String?
    /// The origin an action must have.
    let wantedOrigin: Origin?
    /// Text an action's name or JSON must contain.
    let text: String?
    /// The steps shown.
    let steps: ClosedRange<Int>
    /// The places a shown step must have changed.
    let changes: ChangesUnderPattern?

    /// Reads the filters from the command line.
    /// - Throws: ``CLIError`` (exit 2) for `--from` after `--to` or a `--path` that is not a pattern.
    init(_ parsed: ParsedCommandLine, usage: String) throws(CLIError) {
        namePrefix = parsed.value(of: Self.name)
        wantedOrigin = parsed.value(of: Self.origin)
        text = parsed.value(of: Self.grep)
        let first = parsed.value(of: Self.from) ?? 1
        let last = parsed.value(of: Self.to) ?? Int.max
        guard first <= last else { throw CLIError("--from \(first) is after --to \(last)", usage: usage) }
        steps = first...last
        changes = try parsed.value(of: Self.path).map { text throws(CLIError) in try ChangesUnderPattern(text, option: "--path") }
    }

    /// True when no filter was given: every action is listed.
    var admitsEverything: Bool {
        namePrefix == nil && wantedOrigin == nil && text == nil && steps == 1...Int.max && changes == nil
    }

    /// Whether the action passes the filters that need no diff: step range, name, origin and text.
    func admits(_ action: ActionEvent) -> Bool {
        guard steps.contains(action.sequence) else { return false }
        if let namePrefix, action.name != namePrefix, !action.name.hasPrefix(namePrefix + ".") { return false }
        switch (wantedOrigin, action.origin) {
        case (.app?, .effect), (.effect?, .app): return false
        default: break
        }
        if let text, !action.name.contains(text), !action.action.canonicalString.contains(text) { return false }
        return true
    }

    /// Whether any of a gap's steps fall in the range shown.
    func admits(_ gap: GapEvent) -> Bool {
        gap.firstSequence <= steps.upperBound && gap.lastSequence >= steps.lowerBound
    }

    /// Whether any action of a session has the name `--name` gives or one below it, and the names near it when
    /// none does.
    struct NameSearch {
        /// The name looked for.
        let wanted: String
        /// True once an action had it.
        private(set) var isFound = false
        /// Every action name seen, and each of its dot-separated beginnings, while none had it.
        private var seen: Set<String> = []

        /// Starts looking for `wanted`; `nil` without a name to look for.
        init?(_ wanted: String?) {
            guard let wanted else { return nil }
            self.wanted = wanted
        }

        /// Looks at an action's name.
        mutating func look(at name: String) {
            guard !isFound else { return }
            if name == wanted || name.hasPrefix(wanted + ".") {
                isFound = true
                seen = []
                return
            }
            var beginning = Substring(name)
            while seen.insert(String(beginning)).inserted, let dot = beginning.lastIndex(of: ".") {
                beginning = beginning[..<dot]
            }
        }

        /// A sentence about a name no action had: `--name 'setFiltr' matches no action of s.jsonl; did you mean
        /// 'setFilter'?`; `nil` when one had it.
        func note(option: String, source: String) -> String? {
            guard !isFound else { return nil }
            var text = "\(option) '\(wanted)' matches no action of \(source)"
            let near = Suggestion.nearest(to: wanted, among: seen)
            if !near.isEmpty {
                text += "; did you mean \(Suggestion.either(near.map { "'\($0)'" }))?"
            } else if !seen.isEmpty {
                let top = Set(seen.map { String($0.prefix { $0 != "." }) }).sorted()
                text += "; its actions' names begin with \(top.prefix(5).map { "'\($0)'" }.joined(separator: ", "))"
                    + (top.count > 5 ? " and \(top.count - 5) more" : "")
            }
            return text
        }
    }
}
