import Foundation
import ReplayDaemon
import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// The daemon's line framing, line check and session order on arbitrary bytes, fed through a real socket pair in
/// uneven reads, exactly as a worker takes one client's lines.
///
/// Properties: nothing crashes or hangs; the framed lines (with over-long ones counted, not held) account for
/// every byte sent, in order; every line the daemon accepts the session reader accepts too, alone; and the lines
/// accepted, once a header was, with the gap lines the daemon writes before a line that skips sequence numbers,
/// make a session that `SessionReader` reads to its end without an error, whose action and gap sequence numbers
/// follow on with no repeat, step back or hole. The check remembers each line for the next, as the daemon does for
/// each client.
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
    let memory = SessionLineValidator.StreamMemory()
    var order: SessionLineOrder?
    var stored: [UInt8] = []
    var covered = 0
    var rejectedSinceStored = 0
    var accounted = 0
    var offset = 0
    func take(_ terminated: UnsafeBufferPointer<UInt8>) {
        let bytes = UnsafeBufferPointer(rebasing: terminated.dropLast())
        guard case .success(let checked) = validator.check(bytes, memory: memory) else {
            rejectedSinceStored += 1
            return
        }
        do {
            _ = try SessionEvent(jsonValue: JSONValue(parsing: bytes))
        } catch {
            fatalError("the daemon accepts a line the reader rejects: \(error)")
        }
        // As the worker: the first line opens the session when it is a header; later ones pass the session's order.
        guard var session = order else {
            if case .header(let header) = checked, SessionLineOrder.problem(startingWith: header) == nil {
                order = SessionLineOrder(startingFrom: header.initialState, formatVersion: header.formatVersion)
                stored += terminated
            }
            return
        }
        defer { order = session }
        guard case .accepted(let missing) = session.accept(checked) else {
            rejectedSinceStored += 1
            return
        }
        // As the worker: a line that skips numbers is stored after a gap the daemon writes for them.
        if let missing {
            guard missing.lowerBound == covered + 1 else {
                fatalError("a gap for \(missing) filled after sequence numbers covered up to \(covered)")
            }
            let gap = GapEvent(filling: missing, before: checked, rejectedLines: rejectedSinceStored)
            stored += SessionEvent.gap(gap).line
            covered = missing.upperBound
        }
        rejectedSinceStored = 0
        switch checked {
        case .action(let action):
            guard action.sequence == covered + 1 else {
                fatalError("action \(action.sequence) accepted after sequence numbers covered up to \(covered)")
            }
            covered = action.sequence
        case .gap(let gap):
            guard gap.firstSequence == covered + 1 else {
                fatalError("gap from \(gap.firstSequence) accepted after sequence numbers covered up to \(covered)")
            }
            covered = gap.lastSequence
        case .header, .end, .effectRun, .unnumbered:
            break
        }
        stored += terminated
    }
    while offset < input.count {
        // Uneven writes: the framer must not depend on where reads split the stream.
        let end = min(input.count, offset + 1 + Int(input[offset]) * 17)
        input[offset..<end].withUnsafeBytes { _ = send(pair[0], $0.baseAddress, $0.count, 0) }
        offset = end
        while (try? framer.read(from: pair[1], { line, _ in
            switch line {
            case .complete(let terminated):
                accounted += terminated.count
                take(terminated)
            case .tooLong(let count):
                accounted += count + 1
                rejectedSinceStored += 1
            }
        })) != nil {
            // As the worker after each read: the read buffer is about to be reused.
            order?.copyBorrowedState()
        }
    }
    guard accounted + framer.pendingByteCount == input.count else {
        fatalError("framed \(accounted) + pending \(framer.pendingByteCount) bytes of \(input.count)")
    }
    if order != nil {
        let reader = SessionReader(bytes: stored, source: "accepted")
        do {
            while try reader.next() != nil {}
        } catch {
            fatalError("the reader refuses what the daemon accepted: \(error)\n\(String(decoding: stored, as: UTF8.self))")
        }
    }
    return 0
}
