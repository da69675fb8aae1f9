/// A whole session held in memory: its header and the events after it.
///
/// `StoreKitReplay` reads one from a file (`Session(contentsOf:)`) and streams large files with its `SessionReader`;
/// a `Session` suits tests, golden files and small tools.
public struct Session: Sendable, Hashable {
    /// The header line.
    public var header: SessionHeader
    /// Every event after the header, in file order.
    public var events: [SessionEvent]

    /// Creates a session from its header and events.
    ///
    /// > Warning: The events must keep the format's rules, as a file's lines must (see ``SessionLineDecoder``):
    /// > sequence numbers one more than the last covered, gaps only where a ``GapEvent`` names them, no second
    /// > header. ``ReplayEngine/replay(_:)`` checks them and stops the process on a session that breaks them.
    public init(header: SessionHeader, events: [SessionEvent]) {
        self.header = header
        self.events = events
    }

    /// The action events, in order.
    public var actions: [ActionEvent] {
        events.compactMap { if case .action(let action) = $0 { action } else { nil } }
    }

    /// How many actions its gaps kept without their states (``GapEvent/actions``), which ``actions`` does not list.
    package var actionsKeptWithoutStates: Int {
        events.reduce(0) { count, event in
            if case .gap(let gap) = event { count + gap.actions.count } else { count }
        }
    }

    /// The session as NDJSON: every line canonical and `\n`-terminated.
    public var ndjson: [UInt8] {
        var bytes: [UInt8] = []
        SessionEvent.header(header).appendLine(to: &bytes)
        for event in events { event.appendLine(to: &bytes) }
        return bytes
    }
}
