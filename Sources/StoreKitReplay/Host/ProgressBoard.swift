import StoreKitCore
import StoreKitSystem

/// Where a replay host shows the step each of its workers is replaying, so that `replay-cli` can name the step of
/// a reducer that crashes or hangs without the host sending a line per step.
///
/// The board is a small file that `replay-cli` creates (zero-filled) and names in the request (`progress`): one
/// slot of ``slotSize`` bytes per worker. The host maps the file into its memory, shared, and before each step writes
/// the worker's slot with plain stores: no system call, no signal handler. The stores are in the kernel's page cache
/// as soon as they are made, so when the host crashes (a trap, a segmentation fault, an abort, a kill) or is stopped
/// after hanging, the file still holds the step each worker was at, and `replay-cli` reads it then; while the host
/// runs, it reads the board to see that the host is still moving and to show progress.
///
/// A slot holds one line of ASCII text, `<session> <step> <action name>\n`, the rest of the slot zero: `session` is the
/// index of the session in the request's list (0 for a session on standard input), `step` the sequence number of the
/// action being replayed, or 0 with an empty name when the worker has taken the session and not reached its first
/// step. An action name longer than the slot holds is cut to fit.
///
/// After its last step, while the effect runs still in flight are ended and judged, the worker adds a second line,
/// `ending <in flight> <ended> <judged>\n` (see ``EffectRunsEnding``), and rewrites it as they go: a long ending
/// moves the board, so it is not taken for a hang, and a hang there is named as one. A zero byte ends the text.
public enum ProgressBoard {
    /// The bytes of one worker's slot.
    public static let slotSize = 512
    /// The bytes of a slot kept for its `ending` line: the action name is cut to leave them.
    static let endingLineRoom = 80

    /// What one slot says.
    public struct Entry: Sendable, Equatable {
        /// The index of the session the worker is replaying, in the request's list.
        public var session: Int
        /// The sequence number of the action being replayed; 0 before the first.
        public var step: Int
        /// The action's display name; empty before the first step.
        public var name: String
        /// How far the worker is in ending the effect runs in flight, after its last step; `nil` before.
        public var ending: EffectRunsEnding?

        /// Creates one.
        public init(session: Int, step: Int, name: String, ending: EffectRunsEnding? = nil) {
            self.session = session
            self.step = step
            self.name = name
            self.ending = ending
        }
    }

    /// The slots of a board read as bytes: an entry for each written slot, `nil` for one never written (or not
    /// readable as an entry).
    public static func entries(in bytes: [UInt8]) -> [Entry?] {
        stride(from: 0, to: bytes.count, by: slotSize).map { start in
            let slot = bytes[start..<min(start + slotSize, bytes.count)]
            guard let newline = slot.firstIndex(of: 0x0A) else { return nil }
            let fields = slot[slot.startIndex..<newline].split(separator: 0x20, maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count >= 2, let session = Int(String(decoding: fields[0], as: UTF8.self)),
                let step = Int(String(decoding: fields[1], as: UTF8.self))
            else { return nil }
            return Entry(
                session: session, step: step, name: fields.count > 2 ? String(decoding: fields[2], as: UTF8.self) : "",
                ending: ending(in: slot[(newline + 1)...]))
        }
    }

    /// The `ending <in flight> <ended> <judged>` line at the start of `bytes`, if it is there whole.
    private static func ending(in bytes: ArraySlice<UInt8>) -> EffectRunsEnding? {
        let text = bytes.prefix { $0 != 0 }
        guard let newline = text.firstIndex(of: 0x0A) else { return nil }
        let fields = text[text.startIndex..<newline].split(separator: 0x20, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        guard fields.count == 4, fields[0] == "ending", let inFlight = Int(fields[1]), let ended = Int(fields[2]),
            let judged = Int(fields[3])
        else { return nil }
        return EffectRunsEnding(inFlight: inFlight, ended: ended, judged: judged)
    }

    /// The host's side: the board mapped into memory, each slot written by one worker.
    final class Writer: @unchecked Sendable {
        private let address: UnsafeMutableRawPointer
        private let length: Int

        /// Maps the board at `path`, which must hold at least `slots` slots.
        /// - Throws: A description of what is wrong when the file cannot be opened, is too small, or cannot be mapped.
        init(path: String, slots: Int) throws(SystemError) {
            let fd = try Syscall.open(path, O_RDWR)
            defer { try? Syscall.close(fd, subject: path) }
            let size = Int(try Syscall.status(of: fd, subject: path).size)
            guard slots > 0, size >= slots * ProgressBoard.slotSize else {
                throw SystemError(call: "mmap", subject: "\(path) (\(size) bytes; \(slots) slots need \(slots * ProgressBoard.slotSize))", errno: EINVAL)
            }
            self.length = slots * ProgressBoard.slotSize
            self.address = try Syscall.mapShared(fd, length: length, subject: path)
        }

        deinit { try? Syscall.unmap(address, length: length) }

        /// Writes `slot`: the worker is at `step` (0 before the first) of session `session`, an action named `name`.
        /// Runs before every step of a replay, so it copies the name's bytes in one go when it can.
        func write(slot: Int, session: Int, step: Int, name: String) {
            let start = address + slot * ProgressBoard.slotSize
            var cursor = Self.put(session, at: start)
            cursor.storeBytes(of: 0x20, as: UInt8.self)
            cursor = Self.put(step, at: cursor + 1)
            cursor.storeBytes(of: 0x20, as: UInt8.self)
            cursor += 1
            let room = ProgressBoard.slotSize - ProgressBoard.endingLineRoom - (cursor - start) - 1
            let copied = name.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
                let count = min(bytes.count, room)
                guard count > 0 else { return 0 }
                guard let base = bytes.baseAddress, memchr(base, 0x0A, count) == nil else { return nil }
                cursor.copyMemory(from: base, byteCount: count)
                return count
            }
            if let copied = copied ?? nil {
                cursor += copied
            } else {
                // A name with a line feed (or without contiguous bytes): byte by byte, without the line feeds.
                for byte in name.utf8.prefix(room) where byte != 0x0A {
                    cursor.storeBytes(of: byte, as: UInt8.self)
                    cursor += 1
                }
            }
            cursor.storeBytes(of: 0x0A, as: UInt8.self)
            (cursor + 1).storeBytes(of: 0, as: UInt8.self)
        }

        /// Writes `slot`'s `ending` line after the step its worker wrote last: how far it is in ending the effect
        /// runs in flight after that step.
        func write(slot: Int, ending: EffectRunsEnding) {
            let start = address + slot * ProgressBoard.slotSize
            let lineRoom = ProgressBoard.slotSize - ProgressBoard.endingLineRoom
            guard let newline = memchr(start, 0x0A, lineRoom) else { return }
            var cursor = UnsafeMutableRawPointer(newline) + 1
            for byte in "ending ".utf8 {
                cursor.storeBytes(of: byte, as: UInt8.self)
                cursor += 1
            }
            for (index, number) in [ending.inFlight, ending.ended, ending.judged].enumerated() {
                cursor = Self.put(number, at: cursor)
                cursor.storeBytes(of: index < 2 ? 0x20 : 0x0A, as: UInt8.self)
                cursor += 1
            }
            cursor.storeBytes(of: 0, as: UInt8.self)
        }

        /// Writes the decimal digits of `number` (0 for a negative one) at `cursor`; returns the position after them.
        private static func put(_ number: Int, at cursor: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
            var rest = max(0, number)
            var length = 1
            var scale = rest
            while scale >= 10 {
                scale /= 10
                length += 1
            }
            var position = cursor + length
            repeat {
                position -= 1
                position.storeBytes(of: 0x30 + UInt8(rest % 10), as: UInt8.self)
                rest /= 10
            } while rest > 0
            return cursor + length
        }
    }
}
