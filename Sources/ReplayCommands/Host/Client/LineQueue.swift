import Foundation
import StoreKitSystem

/// Lines read from a pipe on a background thread, handed out with a timeout.
final class LineQueue: @unchecked Sendable {
    enum Next {
        case line([UInt8])
        case timedOut
        case ended
    }

    private let condition = NSCondition()
    private var lines: [[UInt8]] = []
    private var head = 0
    private var ended = false

    init(_ handle: FileHandle) {
        let fd = handle.fileDescriptor
        let thread = Thread { [self] in
            var pending: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = (try? Syscall.read(fd, into: &chunk)) ?? 0
                if count == 0 { break }
                let scanFrom = pending.count
                pending.append(contentsOf: chunk[..<count])
                var start = 0
                var found: [[UInt8]] = []
                var index = scanFrom
                while let newline = pending[index...].firstIndex(of: 0x0A) {
                    found.append(Array(pending[start..<newline]))
                    start = newline + 1
                    index = start
                }
                if start > 0 { pending.removeFirst(start) }
                if !found.isEmpty {
                    condition.withLock {
                        lines += found
                        condition.signal()
                    }
                }
            }
            condition.withLock {
                if !pending.isEmpty { lines.append(pending) }
                ended = true
                condition.broadcast()
            }
        }
        thread.start()
    }

    /// The next line, or why there is none.
    func next(timeout: Double) -> Next {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while head == lines.count && !ended {
            if !condition.wait(until: deadline) { return .timedOut }
        }
        if head == lines.count { return .ended }
        let line = lines[head]
        head += 1
        if head > 4096 && head * 2 > lines.count {
            lines.removeFirst(head)
            head = 0
        }
        return .line(line)
    }

    /// Every line read so far and not handed out, after waiting up to a second for the writer to close the pipe.
    func remaining() -> [String] {
        let deadline = Date(timeIntervalSinceNow: 1)
        condition.lock()
        defer { condition.unlock() }
        while !ended && condition.wait(until: deadline) {}
        return lines[head...].map { String(decoding: $0, as: UTF8.self) }
    }
}
