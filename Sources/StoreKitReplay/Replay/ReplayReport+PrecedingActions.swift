import StoreKitCore

extension ReplayReport {
    /// Gives each divergence the `count` actions before it, read from the session again (`reader` reads it from its
    /// first line), so that an explanation shows what led up to the divergence without reading the file itself.
    /// Reading stops at the last divergence.
    /// - Throws: ``SessionReadError`` when the session is not valid up to there.
    public mutating func attachPrecedingActions(_ count: Int, from reader: SessionReader) throws(SessionReadError) {
        guard count > 0, !divergences.isEmpty else { return }
        var window: [PrecedingAction] = []
        var next = 0
        while next < divergences.count, let event = try reader.next() {
            guard case .action(let action) = event else { continue }
            if action.sequence == divergences[next].step {
                divergences[next].precedingActions = window
                next += 1
            }
            window.append(PrecedingAction(step: action.sequence, name: action.name, action: action.action))
            if window.count > count { window.removeFirst() }
        }
        if case .diverged = verdict, let first = divergences.first { verdict = .diverged(first) }
    }
}
