extension SessionEvent {
    /// Appends the event as one canonical NDJSON line, `\n` included.
    public func appendLine(to buffer: inout [UInt8]) {
        jsonValue.writeCanonical(to: &buffer)
        buffer.append(0x0A)
    }

    /// The event as one canonical NDJSON line, `\n` included.
    public var line: [UInt8] {
        var buffer: [UInt8] = []
        appendLine(to: &buffer)
        return buffer
    }
}
