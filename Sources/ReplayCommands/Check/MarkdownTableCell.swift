import StoreKitReplay

/// Text from a session written into a cell of a GitHub-flavoured Markdown table (the `check --summary` job
/// summary): the one way it is written there.
///
/// The text goes into an inline code span, the one Markdown construct whose content is never markup: no heading,
/// emphasis, link, image, autolink, entity or HTML inside it renders. What could still break out of it is written
/// otherwise first: every invisible scalar (``InvisibleScalars``), a line break among them, which would end the
/// table's row, is written visibly as `\u{A}`; a `|`, which would end the cell, is escaped as `\|` (which a table
/// reads as `|`, in a code span too); and the span's fence of backticks is longer than any run of them in the text.
enum MarkdownTableCell {
    /// `text` as an inline code span for a table cell that shows exactly `text`, invisible scalars escaped; empty
    /// for empty text.
    static func code(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "|": escaped += "\\|"
            case _ where InvisibleScalars.contains(scalar): escaped += InvisibleScalars.escape(scalar)
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        guard !escaped.isEmpty else { return "" }
        var fence = "`"
        while escaped.contains(fence) { fence += "`" }
        // A span drops one space at each end when both ends have one; a backtick at an end would join the fence.
        let padded = escaped.hasPrefix("`") || escaped.hasSuffix("`") || (escaped.hasPrefix(" ") && escaped.hasSuffix(" "))
        let padding = padded ? " " : ""
        return fence + padding + escaped + padding + fence
    }
}
