import StoreKitSystem

/// What a command wrote to a capturing ``Terminal``: its stdout and its stderr, each kept whole.
final class TerminalCapture: Sendable {
    private let written = Locked<(output: String, errors: String)>(("", ""))

    /// An empty capture.
    init() {}

    /// Appends `text` to the captured stderr when `toErrors`, else to the captured stdout.
    func append(_ text: String, toErrors: Bool) {
        written.withLock { written in
            if toErrors { written.errors += text } else { written.output += text }
        }
    }

    /// Everything written to stdout so far.
    var output: String { written.withLock { $0.output } }
    /// Everything written to stderr so far.
    var errors: String { written.withLock { $0.errors } }
}
