import Foundation
import ReplayDaemon
import StoreKitCore

/// The daemon's line framing and line check on arbitrary bytes, fed through a real socket pair in uneven reads.
///
/// Properties: nothing crashes or hangs; the framed lines (with over-long ones counted, not held) account for
/// every byte sent, in order; a line the check accepts is one the session reader accepts too, except for a
/// duplicate key below the top level, which the check does not look for. The check remembers each line for the next,
/// as the daemon does for each client.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDaemonLines(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    var pair: [Int32] = [0, 0]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0 else { fatalError("socketpair failed") }
    defer {
        close(pair[0])
        close(pair[1])
    }
    _ = fcntl(pair[1], F_SETFL, fcntl(pair[1], F_GETFL) | O_NONBLOCK)
    let framer = LineFramer(maxLineBytes: 2048, chunkSize: 1 + (size % 4099))
    var validator = SessionLineValidator()
    let memory = JSONLineMemory()
    var accounted = 0
    var offset = 0
    while offset < input.count {
        // Uneven writes: the framer must not depend on where reads split the stream.
        let end = min(input.count, offset + 1 + Int(input[offset]) * 17)
        input[offset..<end].withUnsafeBytes { _ = send(pair[0], $0.baseAddress, $0.count, 0) }
        offset = end
        while (try? framer.read(from: pair[1], { line, _ in
            switch line {
            case .complete(let terminated):
                accounted += terminated.count
                let bytes = UnsafeBufferPointer(rebasing: terminated.dropLast())
                if case .success = validator.check(bytes, memory: memory) {
                    do {
                        _ = try SessionEvent(jsonValue: JSONValue(parsing: bytes))
                    } catch where !"\(error)".contains("duplicate") {
                        fatalError("the daemon accepts a line the reader rejects: \(error)")
                    } catch {}
                }
            case .tooLong(let count):
                accounted += count + 1
            }
        })) != nil {}
    }
    guard accounted + framer.pendingByteCount == input.count else {
        fatalError("framed \(accounted) + pending \(framer.pendingByteCount) bytes of \(input.count)")
    }
    return 0
}
