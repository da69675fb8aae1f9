import CommandLineOptions
import Foundation

/// `replay-cli merge-reports`: joins the `--junit` and `--summary` files of the jobs of a sharded `check` into
/// one of each.
enum MergeReportsCommand: Command {
    /// `--junit <file>`.
    static let junit = Option<String>.string(
        "--junit", valueName: "<file>", help: "write the JUnit reports given as one, to this file")
    /// `--summary <file>`.
    static let summary = Option<String>.string(
        "--summary", valueName: "<file>", help: "write the Markdown summaries given as one, to this file")

    static let command = CommandDescription(
        name: "replay-cli merge-reports",
        abstract: "Merge the --junit and --summary files of the shards of a 'check --shard' into one of each.",
        arguments: [
            ArgumentDeclaration(
                "<report>", help: "JUnit reports and summaries that check wrote, told apart by their content",
                isRepeating: true)
        ],
        options: [junit.declaration, summary.declaration],
        discussion: """
            The merged JUnit report keeps each shard's suite and its host's properties; the merged summary has one \
            table and its counts. Inputs that are not check's, that contradict themselves, that list a session \
            twice, or whose hosts were built from different commits are refused. \
            Exit status: 0 every session passed, 1 one failed, 2 one could not be checked or trouble.
            """)

    static func run(_ parsed: ParsedCommandLine, _ context: CommandContext) throws(CLIError) -> ExitStatus {
        let junitOutput = parsed.value(of: junit)
        let summaryOutput = parsed.value(of: summary)
        guard junitOutput != nil || summaryOutput != nil else {
            throw CLIError("give '--junit <file>', '--summary <file>' or both, to say what to write", usage: command.usage)
        }
        var reports: [(file: String, document: JUnitDocument)] = []
        var summaries: [(file: String, rows: [CheckSummary.ReadRow])] = []
        for file in parsed.positionals {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw CLIError(.input, "cannot read '\(file)'")
            }
            let text = String(decoding: data, as: UTF8.self)
            if text.hasPrefix("### ") {
                summaries.append((file, try CheckSummary.rows(in: text, file: file)))
            } else if text.hasPrefix("<") {
                reports.append((file, try JUnitDocument(xml: data, file: file)))
            } else {
                throw CLIError(.input, "'\(file)' is neither a JUnit report nor a summary written by replay-cli check")
            }
        }
        var status = ExitStatus.ok
        if let first = reports.first, junitOutput == nil {
            throw CLIError("'\(first.file)' is a JUnit report: give '--junit <file>' to merge it", usage: command.usage)
        }
        if let first = summaries.first, summaryOutput == nil {
            throw CLIError("'\(first.file)' is a summary: give '--summary <file>' to merge it", usage: command.usage)
        }
        if let junitOutput {
            let merged = try mergedJUnit(reports)
            try JUnitReport.write(merged, to: junitOutput)
            let suites = merged.suites
            let (failures, errors) = (suites.map(\.failures).reduce(0, +), suites.map(\.errors).reduce(0, +))
            let cases = suites.map(\.cases.count).reduce(0, +)
            context.terminal.out("\(junitOutput): \(cases) sessions from \(reports.count) reports, \(failures) failed, \(errors) errors")
            status = max(status, errors > 0 ? .trouble : failures > 0 ? .different : .ok)
        }
        if let summaryOutput {
            let rows = try mergedRows(summaries)
            let counts = CheckResult.countsLine(Dictionary(grouping: rows, by: \.verdict).mapValues(\.count))
            let markdown = CheckSummary.document(passed: rows.allSatisfy(\.passed), counts: counts, rowLines: rows.map(\.line))
            do {
                try Data(markdown.utf8).write(to: URL(fileURLWithPath: summaryOutput), options: .atomic)
            } catch {
                throw CLIError(.output, "cannot write the summary '\(summaryOutput)': \(error.localizedDescription)")
            }
            context.terminal.out("\(summaryOutput): \(counts), from \(summaries.count) summaries")
            status = max(status, rows.allSatisfy(\.passed) ? .ok : .different)
        }
        return status
    }

    /// The suites of `reports` in one document, after checking that no session is in two of them and that their
    /// hosts were built from one commit.
    private static func mergedJUnit(_ reports: [(file: String, document: JUnitDocument)]) throws(CLIError) -> JUnitDocument {
        guard !reports.isEmpty else { throw CLIError(.input, "--junit: none of the inputs is a JUnit report") }
        var seen: [String: String] = [:]
        var commit: (file: String, value: String)?
        for (file, document) in reports {
            for suite in document.suites {
                for testCase in suite.cases {
                    if let other = seen.updateValue(file, forKey: testCase.name) {
                        throw CLIError(.input, "session '\(testCase.name)' is in both '\(other)' and '\(file)'; were two shards the same?")
                    }
                }
                guard let value = suite.properties.first(where: { $0.name == "host.commit" })?.value else { continue }
                if let commit, commit.value != value {
                    throw CLIError(
                        .input, "'\(commit.file)' was replayed by a host built from commit \(commit.value), '\(file)' from \(value)")
                }
                commit = commit ?? (file, value)
            }
        }
        return JUnitDocument(suites: reports.flatMap(\.document.suites))
    }

    /// The rows of `summaries`, in order, after checking that no session is in two of them.
    private static func mergedRows(_ summaries: [(file: String, rows: [CheckSummary.ReadRow])]) throws(CLIError) -> [CheckSummary.ReadRow] {
        guard !summaries.isEmpty else { throw CLIError(.input, "--summary: none of the inputs is a summary") }
        var seen: [String: String] = [:]
        for (file, rows) in summaries {
            for row in rows {
                if let other = seen.updateValue(file, forKey: row.session) {
                    throw CLIError(.input, "session \(row.session) is in both '\(other)' and '\(file)'; were two shards the same?")
                }
            }
        }
        return summaries.flatMap(\.rows)
    }
}
