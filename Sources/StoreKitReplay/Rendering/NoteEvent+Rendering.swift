import StoreKitCore

extension NoteEvent {
    /// The note in one line, as `log` and the HTML report show it between the actions: its message, then its fields
    /// sorted by name as `name=value` (logfmt), every string from the session with its controls escaped.
    ///
    /// `GET /todos failed requestId=r-17 status=500`; a value with a space, a `=` or a quote reads as a Swift string
    /// literal: `screen="Todo list"`.
    public var summary: String {
        let labels = fields.sorted { $0.key < $1.key }.map { "\(Self.label($0.key))=\(Self.label($0.value))" }
        return ([message.escapingControls()] + labels).joined(separator: " ")
    }

    /// A field's name or value as text: bare when it is one plain word, else quoted with its quotes, backslashes
    /// and controls escaped.
    private static func label(_ text: String) -> String {
        let plain = !text.isEmpty && !text.contains { $0 == " " || $0 == "=" || $0 == "\"" || $0 == "\\" }
        return plain ? text.escapingControls() : text.debugDescription
    }
}
