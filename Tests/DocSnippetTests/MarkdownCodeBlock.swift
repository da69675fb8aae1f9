import Foundation

/// A fenced code block of a Markdown page: its language, the line of its opening fence, and its text.
struct MarkdownCodeBlock {
    /// The word after the opening fence (`swift`, `sh`, `json`), empty when there is none.
    let language: String
    /// The page's path relative to the package root, for messages.
    let page: String
    /// The 1-based line number of the opening fence.
    let line: Int
    /// The lines between the fences, joined with newlines.
    let text: String

    /// Every fenced block of `markdown`, in page order; fences are lines starting with three backticks.
    static func blocks(in markdown: String, page: String) -> [MarkdownCodeBlock] {
        var blocks: [MarkdownCodeBlock] = []
        var open: (language: String, line: Int, lines: [Substring])?
        for (index, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard line.hasPrefix("```") else {
                open?.lines.append(line)
                continue
            }
            if let block = open {
                blocks.append(
                    MarkdownCodeBlock(
                        language: block.language, page: page, line: block.line, text: block.lines.joined(separator: "\n")))
                open = nil
            } else {
                open = (String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces), index + 1, [])
            }
        }
        return blocks
    }

    /// Whether the block is a fragment of a `Package.swift` (its first line says so), which cannot compile alone.
    var isPackageManifestFragment: Bool {
        text.hasPrefix("// Package.swift")
    }
}
