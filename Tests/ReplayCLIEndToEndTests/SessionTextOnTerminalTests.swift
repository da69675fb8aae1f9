import Foundation
import Testing

/// Text from a session on the terminal: every command shows the characters a terminal acts on as escapes, so a
/// session never retitles, clears, links, recolours or reorders the terminal that reads it.
@Suite struct SessionTextOnTerminalTests {
    /// A title change, a clear, an OSC 8 link, a one-character CSI (U+009B), DEL, a line break, a carriage return
    /// and a right-to-left override.
    static let hostile =
        "\u{1B}]0;pwned\u{07}\u{1B}[2J\u{1B}]8;;https://evil.example\u{1B}\\link\u{1B}]8;;\u{1B}\\\u{9B}31m\u{7F}\n\r\u{202E}end"

    /// `hostile` as it reads on the terminal.
    static let shown = #"\u001b]0;pwned\u0007\u001b[2J\u001b]8;;https://evil.example\u001b\link\u001b]8;;\u001b\\u009b31m\u007f\n\r\u202eend"#
    /// `hostile` as it reads on the terminal inside a Swift string literal: Swift's own escapes (`\u{1B}`, `\\`), then
    /// the characters a terminal acts on that Swift keeps (U+009B, U+202E) escaped as everywhere else.
    static let shownAsSwift = #""\u{1B}]0;pwned\u{07}\u{1B}[2J\u{1B}]8;;https://evil.example\u{1B}\\link\u{1B}]8;;\u{1B}\\\u009b31m\u{7F}\n\r\u202eend""#
    /// `hostile` as it reads on the terminal inside a JSON string literal, its backslashes escaped.
    static let shownInJSON = #"\u001b]0;pwned\u0007\u001b[2J\u001b]8;;https://evil.example\u001b\\link\u001b]8;;\u001b\\\u009b31m\u007f\n\r\u202eend"#

    /// `text` as a JSON string literal as the recorder writes it: control characters below U+0020 escaped, the rest
    /// (DEL, U+009B, U+202E) as they are.
    static func literal(_ text: String) -> String {
        var literal = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": literal += "\\\""
            case "\\": literal += "\\\\"
            case _ where scalar.value < 0x20: literal += String(format: "\\u%04x", scalar.value)
            default: literal.unicodeScalars.append(scalar)
            }
        }
        return literal + "\""
    }

    /// A session with `hostile` as its session id, store id, app name, version and build, action name, and as a
    /// state member's key and a string value.
    static func hostileSession(in scratch: Scratch, named name: String = "hostile.jsonl") throws -> String {
        let text = literal(hostile)
        let header = #"{"app":{"build":\#(text),"name":\#(text),"version":\#(text)},"format":1,"initialState":{"n":0,"title":"plain"},"#
            + #""kind":"session","metadata":{"note":\#(text)},"sessionId":\#(text),"startedAt":"2026-11-22T10:00:00.000Z","storeId":\#(text)}"#
        let renamed = #"{"action":{"rename":{"_0":\#(text)}},"kind":"action","name":\#(text),"origin":"app","seq":1,"#
            + #""state":{"n":1,"title":\#(text),\#(text):true},"time":0.5}"#
        let ticked = #"{"action":{"tick":{}},"kind":"action","name":"tick","origin":"app","seq":2,"#
            + #""state":{"n":2,"title":"plain",\#(text):true},"time":0.75}"#
        let end = #"{"actions":2,"dropped":0,"kind":"end","reason":"finished","time":1.0}"#
        return try scratch.write(name, [header, renamed, ticked, end].joined(separator: "\n") + "\n")
    }

    /// The bytes and characters a terminal acts on: ESC, BEL, CR, DEL, U+009B (CSI) and U+202E.
    static func actingCharacters(in text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { ["\u{1B}", "\u{07}", "\r", "\u{7F}", "\u{9B}", "\u{202E}"].contains($0) }
    }

    @Test(arguments: [
        ["log"], ["log", "--diff"], ["log", "--diff", "--full"], ["show"], ["show", "--step", "1"], ["stats"],
        ["history", "title"], ["log", "--json"], ["log", "--diff", "--json"], ["show", "--json"],
        ["stats", "--json"], ["history", "title", "--json"],
    ])
    func commandsShowControlCharactersAsEscapes(_ command: [String]) async throws {
        // Given a session whose every string is hostile
        let scratch = try Scratch()
        defer { scratch.remove() }
        let session = try Self.hostileSession(in: scratch)

        // When a command reads it
        let outcome = try await CLI.run([command[0], session] + command.dropFirst())

        // Then it succeeds and writes none of the characters a terminal acts on, but shows them escaped
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(Self.actingCharacters(in: outcome.stdout + outcome.stderr).isEmpty, "\(outcome.stdout)\(outcome.stderr)")
        #expect((outcome.stdout + outcome.stderr).contains(#"\u001b]0;pwned\u0007"#))
        // and --json is JSON that still holds the text itself
        if command.contains("--json") {
            let document = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8))
            #expect(Self.holds(document, Self.hostile), "\(outcome.stdout)")
        }
    }

    /// Whether a document that `JSONSerialization` read holds `text` as a string or a key somewhere.
    static func holds(_ document: Any, _ text: String) -> Bool {
        switch document {
        case let string as String: string == text
        case let array as [Any]: array.contains { holds($0, text) }
        case let object as [String: Any]: object.keys.contains(text) || object.values.contains { holds($0, text) }
        default: false
        }
    }

    @Test func logWithDiffShowsEveryStringOfTheSessionOnItsOwnLineEscaped() async throws {
        // Given a session whose every string is hostile
        let scratch = try Scratch()
        defer { scratch.remove() }
        let session = try Self.hostileSession(in: scratch)

        // When it is logged with its changes
        let outcome = try await CLI.run(["log", session, "--diff"])

        // Then each string shows its control characters escaped, and each event stays one line
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let (shown, json) = (Self.shown, Self.shownInJSON)
        // (a value's text is cut at 60 characters)
        let cut = #""\u001b]0;pwned\u0007\u001b[2J\u001b]8;;https://evil.exam..."#
        #expect(
            outcome.stdout == """
                session \(shown), store "\(shown)", \(shown) \(shown), started 2026-11-22T10:00:00.000Z
                     1     0.500s  app              3 changes    rename(\(Self.shownAsSwift))
                       ["\(json)"]  (absent) -> true
                       n  0 -> 1
                       title  "plain" -> \(cut)
                     2     0.750s  app              2 changes    tick
                       n  1 -> 2
                       title  \(cut) -> "plain"
                     - end: finished after 1.000 s, 2 actions, 0 dropped

                """)
    }

    @Test func diffAndCheckThroughTheHostShowTheAppTheActionAndTheStateEscaped() async throws {
        // Given a todos session whose app name, first action's name and recorded title are hostile
        let scratch = try Scratch()
        defer { scratch.remove() }
        var lines = try String(contentsOfFile: CLI.session("todos-basic.jsonl"), encoding: .utf8).components(separatedBy: "\n")
        let text = Self.literal(Self.hostile)
        lines[0] = lines[0].replacingOccurrences(of: #""name":"SampleApp""#, with: #""name":\#(text)"#)
        lines[1] = lines[1].replacingOccurrences(of: #""name":"addTodo""#, with: #""name":\#(text)"#)
            .replacingOccurrences(of: #""title":"Water plants"}]}"#, with: #""title":\#(text)}]}"#)
        let session = try scratch.write("todos.jsonl", lines.joined(separator: "\n"))

        // When it is replayed by diff and by check
        let diffed = try await CLI.run(["diff", session])
        let checked = try await CLI.run(["check", session])

        // Then both report the divergence at step 1 with every hostile string escaped
        for outcome in [diffed, checked] {
            #expect(outcome.status == 1, "\(outcome.stderr)")
            #expect(Self.actingCharacters(in: outcome.stdout + outcome.stderr).isEmpty, "\(outcome.stdout)\(outcome.stderr)")
            #expect(outcome.stdout.contains("recorded by \(Self.shown) 1.0 (build 1)"))
            // (the action reads from its JSON, as Swift writes it; its hostile name is not shown with it)
            #expect(outcome.stdout.contains(
                #"  action  addTodo(createdAt: 1795000017.2135663, id: "0BB980A5-75A8-4661-BEC0-8AA83B63F1EE", title: "Water plants")"#))
            #expect(outcome.stdout.contains(#"-       "title": "\#(Self.shownInJSON)""#))
        }
        // and check's line names the step's action as Swift writes it, from its JSON (not by its hostile name)
        #expect(checked.stdout.contains(
            #"step 1 addTodo(createdAt: 1795000017.2135663, id: "0BB980A5-75A8-4661-BEC0-8AA83B63F1EE", title: "Water plants"), todos[id: 0BB980A5-75A8-4661-BEC0-8AA83B63F1EE].title"#))
    }

    @Test func sessionsListsHostileAppsStoresAndFileNamesEscaped() async throws {
        // Given a folder of sessions with one whose strings, and file name, are hostile
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try Self.hostileSession(in: scratch, named: "\u{1B}]0;pwned\u{07}\u{9B}2J.jsonl")

        // When the folder is listed
        let outcome = try await CLI.run(["sessions", "--dir", scratch.path])

        // Then the app, store and file name are shown escaped
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(Self.actingCharacters(in: outcome.stdout + outcome.stderr).isEmpty, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains(#"\u001b]0;pwned\u0007\u009b2J.jsonl"#))
        #expect(outcome.stdout.split(separator: "\n").count == 2)
    }

    @Test func diffOfTwoSessionsAndAnErrorQuoteTheSessionEscaped() async throws {
        // Given a hostile session and one whose first step's title differs
        let scratch = try Scratch()
        defer { scratch.remove() }
        let session = try Self.hostileSession(in: scratch)
        let other = try scratch.write(
            "other.jsonl",
            String(decoding: try Data(contentsOf: URL(fileURLWithPath: session)), as: UTF8.self)
                .replacingOccurrences(of: #""n":1,"title":"#, with: #""n":1,"title":"other","was":"#))
        // and a file whose first line has a hostile kind
        let broken = try scratch.write("broken.jsonl", #"{"kind":\#(Self.literal(Self.hostile))}"# + "\n")

        // When the sessions are compared, and the broken file read
        let compared = try await CLI.run(["diff", session, other])
        let refused = try await CLI.run(["log", broken])
        let verified = try await CLI.run(["verify", broken])

        // Then the difference names the hostile action escaped, and the error quotes the kind escaped
        #expect(compared.status == 1, "\(compared.stderr)")
        #expect(compared.stdout.contains("step 1: state after \(Self.shown)\n"))
        #expect(refused.status == 2)
        #expect(refused.stderr.contains(Self.shown))
        #expect(verified.status == 2)
        #expect(verified.stdout.contains(Self.shown))
        for output in [compared.stdout + compared.stderr, refused.stdout + refused.stderr, verified.stdout + verified.stderr] {
            #expect(Self.actingCharacters(in: output).isEmpty, "\(output)")
        }
    }
}
