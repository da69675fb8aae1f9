import StoreKitJSON

/// Turns a held `action` line into a `gap` line that keeps its action without its state, for a journal near its
/// bound: tens of bytes where the line took kilobytes, so an outage that would have filled the journal with states
/// loses no action.
enum KeptActionLine {
    /// The entry of a one-action `gap` of `reason` (with `message`) that keeps the action of the action line
    /// `entry`; `nil` when the entry is not one action line, or its bytes do not read as one.
    static func entry(
        keeping entry: UnconfirmedLines.Entry, reason: GapEvent.Reason, message: String
    ) -> UnconfirmedLines.Entry? {
        guard case .state = entry.content, entry.sequences.count == 1 else { return nil }
        guard let value = try? JSONValue(parsing: entry.bytes.dropLast()), case .object(var members) = value,
            members["kind"] == .string(SessionEvent.Kind.action.rawValue)
        else { return nil }
        members["kind"] = nil
        members["state"] = nil
        members["patch"] = nil
        let sequence = entry.sequences.lowerBound
        let gap: JSONValue = .object([
            "kind": .string(SessionEvent.Kind.gap.rawValue), "from": .integer(Int64(sequence)),
            "to": .integer(Int64(sequence)), "count": .integer(1), "reason": .string(reason.rawValue),
            "message": .string(message), "actions": .array([.object(members)]),
        ])
        var bytes = gap.canonicalBytes()
        bytes.append(0x0A)
        return UnconfirmedLines.Entry(sequences: entry.sequences, bytes: bytes, content: .keptActions)
    }
}
