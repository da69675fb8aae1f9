import Foundation

/// A progress line for work that counts its steps (`sessions: read 1200 of 10000 files, about 12 s left`): what,
/// how far and, once a second has gone by, how long is left at the pace so far. It is drawn at once, redrawn at
/// most ten times a second, and erased by ``finish()``; on a ``Terminal`` that shows no progress (a pipe, `--json`)
/// it writes nothing.
final class ProgressMeter {
    private let terminal: Terminal
    private let what: String
    private let unit: String
    private let started: Date
    private var lastDrawn: Date?

    /// Starts a meter and draws it at 0.
    /// - Parameters:
    ///   - what: What is being done, `sessions: read` or `report: wrote`.
    ///   - unit: What is counted, in the plural: `files`, `steps`.
    init(_ terminal: Terminal, _ what: String, unit: String, total: Int?, now: Date = Date()) {
        self.terminal = terminal
        self.what = what
        self.unit = unit
        started = now
        advance(to: 0, of: total, now: now)
    }

    /// Redraws the line at `done` of `total`, unless it was drawn less than a tenth of a second ago.
    func advance(to done: Int, of total: Int?, now: Date = Date()) {
        guard terminal.showProgress else { return }
        if let lastDrawn, now.timeIntervalSince(lastDrawn) < 0.1 { return }
        lastDrawn = now
        terminal.progress(Self.line(what, unit: unit, done: done, total: total, elapsed: now.timeIntervalSince(started)))
    }

    /// Erases the line.
    func finish() {
        terminal.endProgress()
    }

    /// `sessions: read 1200 of 10000 files, about 12 s left`; without a total, `... read 1200 files, 3 s so far`.
    static func line(_ what: String, unit: String, done: Int, total: Int?, elapsed: TimeInterval) -> String {
        guard let total else { return "\(what) \(done) \(unit)" + (elapsed >= 1 ? ", \(Int(elapsed)) s so far" : "") }
        var text = "\(what) \(done) of \(total) \(unit)"
        if elapsed >= 1, done > 0, done < total {
            let left = elapsed / Double(done) * Double(total - done)
            text += left < 1 ? ", under a second left" : ", about \(Int(left.rounded())) s left"
        }
        return text
    }
}
