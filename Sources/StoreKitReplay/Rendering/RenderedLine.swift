import StoreKitCore

/// One line of rendered output with what it is, so that a terminal colours it by its kind, never by its text.
public struct RenderedLine: Sendable, Equatable {
    /// What a line is.
    public enum Kind: Sendable, Equatable {
        /// Prose: a headline, a verdict, a summary.
        case text
        /// An action shown before a divergence, for context.
        case context
        /// A diff line of the old (recorded) value: `- ...`.
        case removed
        /// A diff line of the new (replayed) value: `+ ...`.
        case added
        /// A diff line both values share, shown as context: `  ...`.
        case unchanged
    }

    /// What the line is.
    public var kind: Kind
    /// The line, without its newline.
    public var text: String

    /// Creates a line.
    public init(_ kind: Kind, _ text: String) {
        self.kind = kind
        self.text = text
    }

    /// The same line with `prefix` in front (an indentation), of the same kind.
    func prefixed(_ prefix: String) -> RenderedLine { RenderedLine(kind, prefix + text) }
}

extension [RenderedLine] {
    /// The lines as plain text, joined by newlines.
    public var text: String { map(\.text).joined(separator: "\n") }
}

extension String {
    /// The text's lines, each of `kind`.
    package func renderedLines(_ kind: RenderedLine.Kind) -> [RenderedLine] {
        split(separator: "\n", omittingEmptySubsequences: false).map { RenderedLine(kind, String($0)) }
    }
}
