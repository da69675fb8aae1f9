import Foundation
import StoreKitCore
import StoreKitReplay
import StoreKitSystem

/// Where the command line writes: stdout for results, stderr for errors and progress; colour only on a terminal
/// and never with `NO_COLOR`; or, for a command run inside another program (`mcp`), a capture of what it writes.
package struct Terminal {
    let useColor: Bool
    private(set) var showProgress: Bool
    /// Where stdout and stderr go instead of the process's own, when set.
    let capture: TerminalCapture?

    /// A terminal that colours and shows progress as given.
    package init(useColor: Bool, showProgress: Bool) {
        self.useColor = useColor
        self.showProgress = showProgress
        capture = nil
    }

    /// A terminal whose stdout and stderr go to `capture`, without colour, and without progress unless asked.
    init(capturingIn capture: TerminalCapture, showProgress: Bool = false) {
        useColor = false
        self.showProgress = showProgress
        self.capture = capture
    }

    /// Colour when standard output is a terminal and `NO_COLOR` is unset; progress when standard error is a
    /// terminal, whatever `NO_COLOR` says (it is about colour alone).
    /// - Parameter isTerminal: Whether a file descriptor is a terminal; tests give their own answer.
    package init(environment: [String: String], isTerminal: (Int32) -> Bool = { isatty($0) == 1 }) {
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        useColor = isTerminal(1) && !noColor
        showProgress = isTerminal(2)
        capture = nil
    }

    /// This terminal without progress lines: what a command that writes `--json` writes to.
    var withoutProgress: Terminal {
        var quiet = self
        quiet.showProgress = false
        return quiet
    }

    /// Writes `text` and a line break to stdout, every character in it a terminal would act on shown as an
    /// escape (``Swift/String/escapingControls(keepingLineBreaks:)``) except its line breaks.
    func out(_ text: String) {
        write(text.escapingControls(keepingLineBreaks: true) + "\n", to: 1)
    }

    /// Writes the pieces and a line break to stdout, each shown as ``out(_:)-(String)`` shows text, then painted.
    func out(_ pieces: Painted...) {
        write(pieces.map(paint).joined() + "\n", to: 1)
    }

    /// Writes the lines to stdout, each shown as ``out(_:)-(String)`` shows text, then coloured by its kind.
    func out(_ lines: [RenderedLine]) {
        write(render(lines) + "\n", to: 1)
    }

    /// Writes `text` and a line break to stderr, shown as ``out(_:)-(String)`` shows text.
    func err(_ text: String) {
        write(text.escapingControls(keepingLineBreaks: true) + "\n", to: 2)
    }

    /// A progress line on stderr that overwrites itself, on a terminal only. It is cut to
    /// ``progressWidth`` characters: a line the terminal wrapped would leave its first rows behind when erased.
    func progress(_ text: String) {
        guard showProgress else { return }
        let shown = text.escapingControls()
        write("\r\u{1B}[K\(shown.count > Self.progressWidth ? shown.prefix(Self.progressWidth - 1) + "…" : shown)", to: 2)
    }

    /// The most characters a progress line shows: the narrowest common terminal's width, less one.
    static let progressWidth = 79

    /// Erases the progress line, on a terminal only.
    func endProgress() {
        guard showProgress else { return }
        write("\r\u{1B}[K", to: 2)
    }

    /// Writes to stdout or stderr. A reader that went away (`replay-cli log s.jsonl | head`) ends the command
    /// quietly with the shell's status for a broken pipe, 141, as a tool killed by SIGPIPE would.
    private func write(_ text: String, to fd: Int32) {
        if let capture {
            capture.append(text, toErrors: fd == 2)
            return
        }
        do {
            try Syscall.writeAll(fd, Array(text.utf8))
        } catch where error.errno == EPIPE {
            exit(ExitStatus.brokenPipe.code)
        } catch {
            // stderr or stdout is unusable; there is nowhere left to say so.
        }
    }

    /// A piece of a line of output, in the colour a colour terminal paints it.
    struct Painted: ExpressibleByStringInterpolation {
        var text: String
        /// The SGR code of the colour (`31` red), or `nil` for the terminal's own.
        var code: String?

        init(stringLiteral text: String) {
            self.text = text
        }

        init(_ text: String, code: String?) {
            self.text = text
            self.code = code
        }
    }

    func red(_ text: String) -> Painted { Painted(text, code: "31") }
    func green(_ text: String) -> Painted { Painted(text, code: "32") }
    func yellow(_ text: String) -> Painted { Painted(text, code: "33") }

    /// The piece shown visibly, then painted on a colour terminal: the colour's escapes are the only ones written.
    private func paint(_ piece: Painted) -> String {
        let shown = piece.text.escapingControls(keepingLineBreaks: true)
        guard useColor, let code = piece.code else { return shown }
        return "\u{1B}[\(code)m\(shown)\u{1B}[0m"
    }

    /// The lines as text, each shown visibly and coloured by its kind on a colour terminal: removed lines red, added
    /// lines green.
    package func render(_ lines: [RenderedLine]) -> String {
        lines.map { line in
            switch line.kind {
            case .removed: paint(red(line.text))
            case .added: paint(green(line.text))
            case .text, .context, .unchanged: paint(Painted(line.text, code: nil))
            }
        }.joined(separator: "\n")
    }
}
