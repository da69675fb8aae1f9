import Foundation

/// Where the command line writes: stdout for results, stderr for errors and progress; colour only on a terminal
/// and never with `NO_COLOR`.
struct Terminal {
    let useColor: Bool
    let showProgress: Bool

    init(environment: [String: String]) {
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        useColor = isatty(1) == 1 && !noColor
        showProgress = isatty(2) == 1
    }

    func out(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    func err(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// A progress line on stderr that overwrites itself, on a terminal only.
    func progress(_ text: String) {
        guard showProgress else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K\(text)".utf8))
    }

    func endProgress() {
        guard showProgress else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }

    func red(_ text: String) -> String { paint(text, "31") }
    func green(_ text: String) -> String { paint(text, "32") }
    func yellow(_ text: String) -> String { paint(text, "33") }
    func bold(_ text: String) -> String { paint(text, "1") }

    private func paint(_ text: String, _ code: String) -> String {
        useColor ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    /// Colours the -/+ lines of a diff dump.
    func colorDiff(_ text: String) -> String {
        guard useColor else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("- ") || line.hasPrefix("-") { return red(String(line)) }
            if trimmed.hasPrefix("+ ") || line.hasPrefix("+") { return green(String(line)) }
            return String(line)
        }.joined(separator: "\n")
    }
}
