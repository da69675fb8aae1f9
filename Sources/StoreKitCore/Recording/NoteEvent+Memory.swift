extension NoteEvent {
    /// The memory a queued note is estimated to hold: its queue slot, its strings' bytes, and a dictionary entry's
    /// and a string's storage for each field.
    var estimatedBytes: Int {
        let perString = 32
        let strings = fields.reduce(message.utf8.count + perString) { total, field in
            total + field.key.utf8.count + field.value.utf8.count + 3 * perString
        }
        return MemoryLayout<QueuedEvent>.stride + strings
    }
}
