import Foundation

/// A region of a compiled Swift file that a page of the documentation shows, between a `// snippet: NAME` line and
/// a `// snippet end` line.
///
/// The region's text is its lines with their common indentation removed, so a snippet may sit inside a function
/// (for statements) or an array literal (for an expression) whose helpers lie outside the markers.
struct DocSnippet {
    /// The name after `// snippet:`, for messages.
    let name: String
    /// The file's path relative to the package root, for messages.
    let file: String
    /// The region's lines, without their common indentation, joined with newlines.
    let text: String

    /// The marked regions of `source`, in file order.
    static func snippets(in source: String, file: String) -> [DocSnippet] {
        var snippets: [DocSnippet] = []
        var open: (name: String, lines: [Substring])?
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("// snippet: ") {
                open = (String(trimmed.dropFirst("// snippet: ".count)), [])
            } else if trimmed == "// snippet end", let region = open {
                snippets.append(DocSnippet(name: region.name, file: file, text: dedented(region.lines)))
                open = nil
            } else {
                open?.lines.append(line)
            }
        }
        return snippets
    }

    /// `lines` without the indentation all their non-blank lines share, joined with newlines.
    private static func dedented(_ lines: [Substring]) -> String {
        let indentation =
            lines.filter { !$0.allSatisfy(\.isWhitespace) }.map { $0.prefix(while: { $0 == " " }).count }.min() ?? 0
        return lines.map { $0.allSatisfy(\.isWhitespace) ? "" : String($0.dropFirst(indentation)) }
            .joined(separator: "\n")
    }
}
