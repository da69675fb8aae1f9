import StoreKitJSON

/// Writes an `action` line straight from pre-encoded action and state bytes, in canonical key order, so the
/// recorder never builds a JSON tree of the state.
///
/// The bytes are exactly those of `SessionEvent.action(event).line` for the same event (a test checks this).
enum ActionLineWriter {
    /// How the line carries the state.
    enum Snapshot {
        /// The full state's canonical bytes.
        case state([UInt8])
        /// A patch's canonical bytes.
        case patch([UInt8])

        /// The state's or the patch's bytes.
        var bytes: [UInt8] {
            switch self {
            case .state(let bytes), .patch(let bytes): bytes
            }
        }
    }

    /// One `action` line, `\n` included; `effect` names the effect that sent it (format 2 only).
    static func line(
        sequence: Int, time: Double, name: String, action: [UInt8], origin: ActionEvent.Origin, effect: String?,
        snapshot: Snapshot
    ) -> [UInt8] {
        var buffer: [UInt8] = []
        // Room for the whole line at once, so that writing it does not copy what it holds so far to grow.
        buffer.reserveCapacity(
            Self.framingBytes + action.count + snapshot.bytes.count + name.utf8.count + (effect?.utf8.count ?? 0))
        buffer.append(contentsOf: #"{"action":"#.utf8)
        buffer.append(contentsOf: action)
        if case .effect(let cause?) = origin {
            buffer.append(contentsOf: #","cause":"#.utf8)
            buffer.append(contentsOf: String(cause).utf8)
        }
        if case .effect = origin, let effect {
            buffer.append(contentsOf: #","effect":"#.utf8)
            JSONValue.writeString(effect, to: &buffer)
        }
        buffer.append(contentsOf: #","kind":"action","name":"#.utf8)
        JSONValue.writeString(name, to: &buffer)
        buffer.append(contentsOf: #","origin":"#.utf8)
        buffer.append(contentsOf: (origin == .app ? #""app""# : #""effect""#).utf8)
        if case .patch(let patch) = snapshot {
            buffer.append(contentsOf: #","patch":"#.utf8)
            buffer.append(contentsOf: patch)
        }
        buffer.append(contentsOf: #","seq":"#.utf8)
        buffer.append(contentsOf: String(sequence).utf8)
        if case .state(let state) = snapshot {
            buffer.append(contentsOf: #","state":"#.utf8)
            buffer.append(contentsOf: state)
        }
        buffer.append(contentsOf: #","time":"#.utf8)
        JSONValue.withCanonicalNumber(time) { buffer.append(contentsOf: $0) }
        buffer.append(contentsOf: "}\n".utf8)
        return buffer
    }

    /// The bytes a line holds besides its action, state or patch, name and effect name: its keys, punctuation,
    /// numbers and the quotes of the names (a line with more, such as a name full of escapes, grows as it is
    /// written).
    private static var framingBytes: Int { 160 }
}
