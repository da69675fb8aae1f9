import StoreKitCore
import StoreKitReplay
import StoreKitSystem

/// The write end of the one signal pipe, read by the signal handler (which may only call async-signal-safe
/// functions, so it cannot reach any Swift object).
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// Turns signals into bytes on a non-blocking pipe that an event loop polls (the self-pipe trick), and ignores
/// `SIGPIPE` so a vanished peer shows up as `EPIPE` instead of killing the process.
///
/// The handler writes the signal's number as one byte; ``drain()`` returns the numbers received since the last call.
/// One signal pipe exists per process.
package final class SignalPipe {
    /// The end to poll for reading.
    package let readEnd: Int32
    private let writeEnd: Int32

    /// Creates the pipe and routes `signals` to it.
    package init(signals: [Int32]) throws(SystemError) {
        precondition(signalPipeWriteEnd < 0, "one SignalPipe per process")
        (readEnd, writeEnd) = try Syscall.makePipe()
        signalPipeWriteEnd = writeEnd
        signal(SIGPIPE, SIG_IGN)
        // A parent may have started this process with these signals blocked (the mask is inherited).
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        for number in signals { sigaddset(&unblocked, number) }
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        for number in signals {
            signal(number) { received in
                // Only async-signal-safe C here: no Swift wrapper, no errno handling (a full pipe drops the byte,
                // and the bytes already waiting wake the event loop all the same).
                var byte = UInt8(truncatingIfNeeded: received)
                _ = write(signalPipeWriteEnd, &byte, 1)
            }
        }
    }

    /// The signals received since the last call, in order.
    package func drain() -> [Int32] {
        var received: [Int32] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while let count = try? Syscall.read(readEnd, into: &buffer), count > 0 {
            received += buffer[..<count].map { Int32($0) }
        }
        return received
    }
}
