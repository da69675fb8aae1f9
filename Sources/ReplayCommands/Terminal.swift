import Foundation
import StoreKitCore
import StoreKitReplay

/// Where the command line writes: stdout for results, stderr for errors and progress; colour only on a terminal
/// and never with `NO_COLOR`.
package struct Terminal {
    let useColor: Bool
    let showProgress: Bool

    /// A terminal that colours and shows progress as given.
    package init(useColor: Bool, showProgress: Bool) {
        self.useColor = useColor
        self.showProgress = showProgress
    }

    /// Colour when standard output is a terminal and `NO_COLOR` is unset; progress when standard error is one.
    package init(environment: [String: String]) {
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        useColor = isatty(1) == 1 && !noColor
        showProgress = isatty(2) == 1
    }

    func out(_ text: String) {
        write(text + "\n", to: 1)
    }

    func err(_ text: String) {
        write(text + "\n", to: 2)
    }

    /// A progress line on stderr that overwrites itself, on a terminal only.
    func progress(_ text: String) {
        guard showProgress else { return }
        write("\r\u{1B}[K\(text)", to: 2)
    }

    func endProgress() {
        guard showProgress else { return }
        write("\r\u{1B}[K", to: 2)
    }

    /// Writes to stdout or stderr. A reader that went away (`replay-cli log s.jsonl | head`) ends the command
    /// quietly with the shell's status for a broken pipe, 141, as a tool killed by SIGPIPE would.
    private func write(_ text: String, to fd: Int32) {
        do {
            try Syscall.writeAll(fd, Array(text.utf8))
        } catch where error.errno == EPIPE {
            exit(141)
        } catch {
            // stderr or stdout is unusable; there is nowhere left to say so.
        }
    }

    func red(_ text: String) -> String { paint(text, "31") }
    func green(_ text: String) -> String { paint(text, "32") }
    func yellow(_ text: String) -> String { paint(text, "33") }
    func bold(_ text: String) -> String { paint(text, "1") }

    private func paint(_ text: String, _ code: String) -> String {
        useColor ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    /// The lines as text, each coloured by its kind on a colour terminal: removed lines red, added lines green.
    package func render(_ lines: [RenderedLine]) -> String {
        lines.map { line in
            switch line.kind {
            case .removed: red(line.text)
            case .added: green(line.text)
            case .text, .context, .unchanged: line.text
            }
        }.joined(separator: "\n")
    }
}
