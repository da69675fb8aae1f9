import Foundation

/// A transport that keeps the session in memory, for tests and previews.
///
/// ```swift
/// let transport = MemoryTransport()
/// let recorder = store.startRecording(.init(storeID: "counter", app: AppInfo(name: "Demo")), to: transport)
/// store.dispatch(.increment)
/// recorder.finish()
/// let session = try transport.session()
/// ```
public final class MemoryTransport: SessionTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var bytes: [UInt8] = []
    private var closed = false

    /// Creates an empty in-memory transport.
    public init() {}

    /// Stores the header line the first time; a restart keeps what is there.
    public func start(header: [UInt8]) throws -> Int? {
        lock.withLock {
            if bytes.isEmpty { bytes.append(contentsOf: header) }
        }
        return nil
    }

    /// Stores the lines.
    public func write(_ lines: [UInt8]) throws {
        lock.withLock { bytes.append(contentsOf: lines) }
    }

    /// Marks the session closed.
    public func close() throws {
        lock.withLock { closed = true }
    }

    /// Whether the recorder has closed the transport.
    public var isClosed: Bool { lock.withLock { closed } }

    /// Every byte delivered so far.
    public var data: [UInt8] { lock.withLock { bytes } }

    /// Every line delivered so far, without the `\n`.
    public var lines: [String] {
        data.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
    }
}
