/// How a recorder shares its ``SessionRecorder/Configuration/memoryLimit`` among the parts that hold memory: what
/// its transport holds itself (a ``FlightRecorder``'s lines, ``SessionTransport/memoryBound``), the chunk of
/// encoded lines gathered before a write, the lines held until the transport confirms them (which hold that chunk's
/// lines too), and the queue of actions waiting for the background thread, which gets the rest.
///
/// The chunk is given a sixteenth but counted as an eighth: an array that grows past its size may take twice it.
package struct RecorderMemoryShares: Equatable {
    /// The most bytes the chunk of encoded lines may gather before it is written.
    static var largestChunk: Int { 16 << 20 }
    /// The least bytes the chunk may gather, however small the limit.
    static var smallestChunk: Int { 64 << 10 }

    /// The bound on the memory estimated for the queued actions.
    package var queueBytes: Int
    /// The bound on the lines held until the transport confirms them.
    package var unconfirmedBytes: Int
    /// The bytes of encoded lines gathered before a write.
    package var chunkBytes: Int
    /// What the transport holds itself.
    package var transportBytes: Int

    /// Shares `limit` among the parts, after what the transport holds (at least a quarter of the limit is left to
    /// the recorder's own parts, so a transport that holds more than three quarters takes the footprint past the
    /// limit); the deprecated settings `queueOverride` and `unconfirmedOverride`, when set, replace their shares.
    package init(limit: Int, transportBytes: Int, queueOverride: Int? = nil, unconfirmedOverride: Int? = nil) {
        let available = max(limit - transportBytes, limit / 4)
        self.transportBytes = transportBytes
        chunkBytes = min(Self.largestChunk, max(Self.smallestChunk, available / 16))
        unconfirmedBytes = unconfirmedOverride ?? available / 4
        queueBytes = queueOverride ?? max(1, available - available / 4 - 2 * chunkBytes)
    }

    /// The most memory the parts may hold together.
    package var total: Int { queueBytes + unconfirmedBytes + 2 * chunkBytes + transportBytes }
}
