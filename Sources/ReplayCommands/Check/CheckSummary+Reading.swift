import Foundation

extension CheckSummary {
    /// A table row of a summary read back, as `merge-reports` needs it: the row's text and what it says.
    struct ReadRow {
        /// The row as written.
        var line: String
        /// The session's cell, as written (escaped).
        var session: String
        /// The verdict's name.
        var verdict: String
        /// Whether the session passed.
        var passed: Bool
    }

    /// The rows of every summary document in `markdown` (a file `check --summary` wrote or appended to).
    /// - Parameter file: The file's name, for errors.
    /// - Throws: ``CLIError`` naming the file and line when it holds something else than such documents.
    static func rows(in markdown: String, file: String) throws(CLIError) -> [ReadRow] {
        var lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        var rows: [ReadRow] = []
        var number = 0
        func malformed(_ reason: String, line: Int? = nil) -> CLIError {
            CLIError(.input, "not a summary written by replay-cli check: \(reason)", file: file, line: line ?? number)
        }
        while number < lines.count {
            let heading = lines[number]
            number += 1
            guard heading == "### \(title): passed" || heading == "### \(title): failed" else {
                throw malformed("expected the heading '### \(title): passed' or '... failed'")
            }
            guard number + 4 < lines.count, lines[number] == "", lines[number + 2] == "",
                Array(lines[(number + 3)..<min(number + 5, lines.count)]) == tableHeader
            else { throw malformed("expected the counts line and the table's header after the heading") }
            let declared = lines[number + 1]
            let countsLine = number + 2
            number += 5
            var documentRows: [ReadRow] = []
            while number < lines.count, lines[number].hasPrefix("| ") {
                number += 1
                let cells = Self.cells(of: lines[number - 1])
                guard cells.count == 6, cells[0] == "✅" || cells[0] == "❌", !cells[2].isEmpty else {
                    throw malformed("a table row should have 6 cells, the first ✅ or ❌, the third a verdict")
                }
                documentRows.append(ReadRow(line: lines[number - 1], session: cells[1], verdict: cells[2], passed: cells[0] == "✅"))
            }
            let counted = CheckResult.countsLine(Dictionary(grouping: documentRows, by: \.verdict).mapValues(\.count))
            guard counted == declared else {
                throw malformed("its counts line says '\(declared)' but its table holds '\(counted)'", line: countsLine)
            }
            rows += documentRows
        }
        return rows
    }

    /// The cells of a table row, split at the pipes a cell's text does not escape (`\|`), trimmed.
    private static func cells(of line: String) -> [String] {
        var cells: [String] = []
        var cell = ""
        var escaped = false
        for character in line.dropFirst().dropLast() {
            if character == "|" && !escaped {
                cells.append(cell.trimmingCharacters(in: .whitespaces))
                cell = ""
            } else {
                cell.append(character)
            }
            escaped = character == "\\"
        }
        cells.append(cell.trimmingCharacters(in: .whitespaces))
        return cells
    }
}
