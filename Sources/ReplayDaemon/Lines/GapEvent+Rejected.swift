import StoreKitCore

extension GapEvent {
    /// The gap replayd stores, just before `line`, for the sequence numbers `missing` that the line skipped, so the
    /// session still reads to its end: reason ``Reason/rejected``, with a message saying why nothing was stored.
    /// - Parameters:
    ///   - missing: The numbers skipped: from the one after those the session covered up to the one before `line`'s.
    ///   - line: The action, gap or end that skipped them.
    ///   - rejectedLines: How many lines the connection had rejected since the last line it stored; when none, the
    ///     client skipped on its own.
    package init(filling missing: ClosedRange<Int>, before line: SessionLineValidator.Checked, rejectedLines: Int) {
        let last = missing.lowerBound - 1
        let message: String
        if rejectedLines > 0 {
            let since = last == 0 ? "since the header" : "since seq \(last)"
            let lines = rejectedLines == 1 ? "1 line" : "\(rejectedLines) lines"
            message = "replayd rejected \(lines) for this session \(since) (see its log)"
        } else {
            let after = last == 0 ? "first" : "after \(last)"
            switch line {
            case .gap(let gap):
                message = "the client sent a gap from \(gap.firstSequence) \(after)"
            case .end(let end):
                let numbers = SessionLineOrder.range(missing)
                message = "the client's end counts \(end.actions) actions, but it sent no line for \(numbers)"
            case .header, .action, .effectRun, .unnumbered:
                message = "the client sent seq \(missing.upperBound + 1) \(after) with no gap line"
            }
        }
        self.init(
            firstSequence: missing.lowerBound, lastSequence: missing.upperBound, reason: .rejected, message: message)
    }
}
