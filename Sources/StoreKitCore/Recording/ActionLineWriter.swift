/// Writes an `action` line straight from pre-encoded action and state bytes, in canonical key order, so the
/// recorder never builds a JSON tree of the state.
///
/// The bytes are exactly those of `SessionEvent.action(event).line` for the same event (a test checks this).
enum ActionLineWriter {
    /// Appends one `action` line, `\n` included.
    static func append(
        sequence: Int, time: Double, name: String, action: [UInt8], origin: ActionEvent.Origin, state: [UInt8],
        to buffer: inout [UInt8]
    ) {
        buffer.append(contentsOf: #"{"action":"#.utf8)
        buffer.append(contentsOf: action)
        if case .effect(let cause?) = origin {
            buffer.append(contentsOf: #","cause":"#.utf8)
            buffer.append(contentsOf: String(cause).utf8)
        }
        buffer.append(contentsOf: #","kind":"action","name":"#.utf8)
        JSONValue.writeString(name, to: &buffer)
        buffer.append(contentsOf: #","origin":"#.utf8)
        buffer.append(contentsOf: (origin == .app ? #""app""# : #""effect""#).utf8)
        buffer.append(contentsOf: #","seq":"#.utf8)
        buffer.append(contentsOf: String(sequence).utf8)
        buffer.append(contentsOf: #","state":"#.utf8)
        buffer.append(contentsOf: state)
        buffer.append(contentsOf: #","time":"#.utf8)
        buffer.append(contentsOf: JSONValue.canonicalNumber(time).utf8)
        buffer.append(contentsOf: "}\n".utf8)
    }
}
