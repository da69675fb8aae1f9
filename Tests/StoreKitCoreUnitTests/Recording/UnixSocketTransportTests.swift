import Foundation
import StoreKitCore
import StoreKitSystem
import Testing

/// A fake daemon's socket, listening at a temporary path until it is released.
private final class ListeningSocket {
    let path = "/tmp/ust-\(UUID().uuidString.prefix(8)).sock"
    let descriptor: Int32

    init() throws {
        descriptor = try Syscall.makeUnixSocket()
        do {
            try Syscall.bind(descriptor, to: UnixSocketAddress(path: path))
            try Syscall.listen(descriptor, backlog: 1)
        } catch {
            try? Syscall.close(descriptor)
            try? Syscall.unlink(path)
            throw error
        }
    }

    deinit {
        try? Syscall.close(descriptor)
        try? Syscall.unlink(path)
    }
}

@Suite struct UnixSocketTransportTests {
    private static func temporarySocketPath() -> String { "/tmp/ust-\(UUID().uuidString.prefix(8)).sock" }

    @Test func withNoDaemonStartFailsAtOnceAndThenBacksOff() throws {
        // A first wait of a minute, so that however slow the machine the second attempt falls inside it
        let transport = UnixSocketTransport(path: Self.temporarySocketPath(), timeout: 1, firstRetryDelay: 60)
        #expect(throws: SystemError.self) { try transport.start(header: Array("{}\n".utf8)) }
        #expect {
            try transport.start(header: Array("{}\n".utf8))
        } throws: { error in
            guard case .backingOff(let seconds) = error as? UnixSocketTransport.Failure else { return false }
            return seconds > 0 && seconds <= 60
        }
    }

    @Test func aDaemonAwayIsTriedAgainEveryFirstDelayThroughItsFirstSecondAway() async throws {
        // Given a transport whose daemon is away, retrying after 10 ms
        let transport = UnixSocketTransport(path: Self.temporarySocketPath(), timeout: 1, firstRetryDelay: 0.01)
        let header = Array("{}\n".utf8)

        // When 20 connection attempts fail in a row (the waits the backoff hands out add up to 200 ms, well inside
        // its first second), with starts between them that report the wait still to go
        // (On a thread of its own, with plain sleeps: an async loop could be starved of the shared pool for
        // minutes on a busy machine.)
        let (attempts, reportedWaits) = await withCheckedContinuation { continuation in
            Thread {
                var attempts = 0
                var reportedWaits: [Double] = []
                let deadline = ContinuousClock.now + .seconds(120)
                while attempts < 20, ContinuousClock.now < deadline {
                    do {
                        _ = try transport.start(header: header)
                        attempts = -1
                        break
                    } catch UnixSocketTransport.Failure.backingOff(let seconds) {
                        reportedWaits.append(seconds)
                        Thread.sleep(forTimeInterval: 0.002)
                    } catch {
                        attempts += 1
                    }
                }
                continuation.resume(returning: (attempts, reportedWaits))
            }.start()
        }

        // Then every wait was at most 10 ms: the delay did not double (with doubling, the 20 attempts would have
        // waited up to 5 s each, and any start between them would report more)
        #expect(attempts == 20, "-1: connected to a socket no daemon listens on")
        #expect(reportedWaits.allSatisfy { $0 <= 0.01 }, "\(reportedWaits)")
    }

    @Test func aDaemonThatGoesAwayGivesAnErrorNotSIGPIPE() throws {
        // Given a fake daemon that welcomes the session and then closes the connection
        let socket = try ListeningSocket()
        defer { withExtendedLifetime(socket) {} }
        let (path, listener) = (socket.path, socket.descriptor)
        let transport = UnixSocketTransport(path: path, timeout: 2)
        let server = Thread {
            guard let client = try? Syscall.accept(listener) else { return }
            var buffer = [UInt8](repeating: 0, count: 4096)
            Thread.sleep(forTimeInterval: 0.05)
            _ = try? Syscall.read(client, into: &buffer)
            try? Syscall.sendAll(client, Array(#"{"kind":"welcome","lastSeq":7,"sessionId":"s","file":"f"}"#.utf8) + [0x0A])
            try? Syscall.close(client)
        }
        server.start()

        // When the app starts the session and keeps writing after the daemon left
        #expect(try transport.start(header: Array("{}\n".utf8)) == 7)
        // (a welcome without `protocol` is protocol 1: the daemon does not confirm, so the recorder holds nothing)
        #expect(transport.persistedSequence() == nil)
        var failure: (any Error)?
        for _ in 0..<1000 where failure == nil {
            do { try transport.write([UInt8](repeating: 0x0A, count: 4096)) } catch { failure = error }
        }

        // Then the write throws EPIPE or ECONNRESET, and the process is still alive to see it
        let errno = (failure as? SystemError)?.errno
        #expect(errno == EPIPE || errno == ECONNRESET, "\(String(describing: failure))")
    }

    /// Whether this system grants a Unix socket a send buffer of megabytes when asked: Linux caps what is asked at
    /// `net.core.wmem_max` (208 KB unless raised; CI's machines raise it), Darwin at `kern.ipc.maxsockbuf` (8 MB).
    static let grantsLargeSendBuffers: Bool = {
        guard let (one, other) = try? Syscall.makeSocketPair() else { return false }
        defer {
            try? Syscall.close(one)
            try? Syscall.close(other)
        }
        return ((try? Syscall.setSendBufferSize(one, bytes: UnixSocketTransport.largestSendBuffer)) ?? 0) >= 2 << 20
    }()

    @Test(.enabled(if: grantsLargeSendBuffers, "this system caps a socket's send buffer below 2 MB"))
    func aDaemonThatPausesReadingDoesNotHoldUpTheRecorderForAMegabyteOfLines() throws {
        // Given a fake daemon that welcomes the session and then reads nothing until the test is done
        let socket = try ListeningSocket()
        defer { withExtendedLifetime(socket) {} }
        let (path, listener) = (socket.path, socket.descriptor)
        let done = DispatchSemaphore(value: 0)
        let serverGone = DispatchSemaphore(value: 0)
        Thread {
            defer { serverGone.signal() }
            guard let client = try? Syscall.accept(listener) else { return }
            var buffer = [UInt8](repeating: 0, count: 4096)
            _ = try? Syscall.read(client, into: &buffer)
            try? Syscall.sendAll(client, Array(#"{"kind":"welcome","lastSeq":0,"sessionId":"s","file":"f"}"#.utf8) + [0x0A])
            _ = done.wait(timeout: .now() + 120)
            try? Syscall.close(client)
        }.start()
        defer {
            done.signal()
            _ = serverGone.wait(timeout: .now() + 120)
        }
        let transport = UnixSocketTransport(path: path, timeout: 1)
        #expect(try transport.start(header: Array("{}\n".utf8)) == 0)

        // When the recorder writes 1 MB of 10 KB lines
        let line = [UInt8](repeating: 0x20, count: 10_239) + [0x0A]
        var failure: (any Error)?
        var written = 0
        while written < 100, failure == nil {
            do { try transport.write(line) } catch { failure = error }
            written += 1
        }

        // Then each write went into the socket's buffer at once: with the system's default buffer, a write past
        // its 208 KB waited out the 1 s timeout for the daemon to read, and failed
        #expect(failure == nil, "write \(written) of 100: \(String(describing: failure))")
    }

    @Test func theDefaultSocketPathFollowsTheEnvironment() {
        #expect(ReplaydSocketPath.resolve(environment: ["REPLAYD_SOCKET": "/x/s", "XDG_RUNTIME_DIR": "/run/u"]) == "/x/s")
        #expect(ReplaydSocketPath.resolve(environment: ["XDG_RUNTIME_DIR": "/run/u", "HOME": "/h"]) == "/run/u/replayd/replayd.sock")
        #expect(ReplaydSocketPath.resolve(environment: ["HOME": "/h"]) == "/h/.replayd/replayd.sock")
    }
}
