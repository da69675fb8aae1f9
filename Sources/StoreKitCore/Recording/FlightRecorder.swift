import Foundation
import StoreKitJSON
import StoreKitSystem

/// A transport that keeps only the last part of a session in memory, bounded in bytes, for a bug report: a
/// keyframe (the state before the first action it still holds) and the actions after it, rolling forward.
///
/// Record to it like to any transport; when the user taps "report a bug", ``dump(to:)`` writes what it holds as a
/// valid session whose header's initial state is the keyframe, which `replay-cli verify`, `diff` and `report`
/// accept. With a ``Spill``, it also writes that session to a file at most every `interval` while actions arrive,
/// so after a crash the next launch finds the last minutes in the spill file (see ``recoverSpill(at:to:)``).
///
/// ```swift
/// let flight = FlightRecorder(maxBytes: 4 << 20, spill: .init(path: cachesFolder + "/last-session.jsonl"))
/// let recorder = store.startRecording(.init(storeID: "todos", app: app), to: flight)
/// // the bug-report button:
/// try flight.dump(to: reportFolder + "/session.jsonl")
/// ```
///
/// Like every transport it runs on the recorder's background thread, so the app never waits for it; ``dump(to:)``
/// holds the flight recorder's lock only to copy what it holds, and does its encoding after. Each line holds its
/// full state (record with the default `snapshots: .full`): that is what lets the oldest action be forgotten by
/// making its state the keyframe. Sequence numbers in a dump start at 1; the header's metadata keeps the original
/// ones (`flightRecorder.firstSequence`), and an effect whose cause is no longer held keeps no `cause`. It keeps
/// effects' `call` and `effectEnd` lines too, renumbering their `cause` like an action's; those of a run whose cause
/// it no longer holds are left out of a dump. It keeps `note` lines as they are, between the lines around them.
public final class FlightRecorder: SessionTransport, @unchecked Sendable {
    /// Where and how often the flight recorder writes what it holds, so a crash does not lose it.
    public struct Spill: Sendable {
        /// The file; written whole each time, through a temporary file renamed over it.
        public var path: String
        /// The least time between two spills.
        public var interval: Duration

        /// Describes a spill file.
        public init(path: String, interval: Duration = .seconds(5)) {
            self.path = path
            self.interval = interval
        }
    }

    /// One held line: an action with its full state, a gap, an effect's line, or a note.
    private struct HeldLine {
        /// What a held line is.
        enum Kind { case action, gap, effect, note }

        var bytes: [UInt8]
        var kind: Kind
        var isAction: Bool { kind == .action }
        /// Whether the line has a sequence number of its own: an action or a gap.
        var isNumbered: Bool { kind == .action || kind == .gap }
    }

    /// The bound on the bytes held: the keyframe's line plus the lines after it.
    public let maxBytes: Int
    private let spill: Spill?
    private let lock = NSLock()
    // Guarded by `lock`.
    private var header: JSONValue?
    private var keyframeLine: [UInt8]?
    private var held: [HeldLine] = []
    private var firstHeld = 0
    private var heldBytes = 0
    private var highWaterBytes = 0
    private var lastSpill: ContinuousClock.Instant?
    private var lastError: String?

    /// Creates a flight recorder.
    /// - Parameters:
    ///   - maxBytes: The most bytes of lines it holds (4 MB unless given); the oldest actions are forgotten first.
    ///   - spill: Where to keep a copy on disk, if anywhere.
    public init(maxBytes: Int = 4 << 20, spill: Spill? = nil) {
        self.maxBytes = maxBytes
        self.spill = spill
    }

    /// The most memory it holds: twice ``maxBytes``, because a dump or a spill builds the session's bytes beside
    /// the lines it holds (at most ``maxBytes``, unless its lines are so long that the keyframe's line and the
    /// last line or two pass it alone: it always keeps those).
    public var memoryBound: Int { 2 * maxBytes }

    /// The bytes of lines in its memory now: the keyframe's line and the lines after it, counted in the storage
    /// that holds them, so a forgotten line whose bytes were still kept would count too.
    public var retainedBytes: Int {
        lock.withLock { held.reduce(keyframeLine?.count ?? 0) { $0 + $1.bytes.count } }
    }

    /// The most bytes it ever held at once: never more than ``maxBytes``, unless its lines are so long that the
    /// keyframe's line and the last line or two pass it alone.
    public var highWaterMark: Int { lock.withLock { highWaterBytes } }

    /// The last failure to spill, if any (a spill never throws into the recorder).
    public var lastSpillError: String? { lock.withLock { lastError } }

    /// Keeps the header; a restart of the same session keeps the first one.
    public func start(header line: [UInt8]) throws -> Int? {
        let parsed = try JSONValue(parsing: Array(line.dropLast()))
        lock.withLock { if header == nil { header = parsed } }
        return nil
    }

    /// Holds the lines, forgetting the oldest actions beyond ``maxBytes``, and spills when it is time.
    /// - Throws: ``FlightRecorderError/patchLine`` for a line that holds a patch instead of its state.
    public func write(_ lines: [UInt8]) throws {
        var incoming: [HeldLine] = []
        var scanner = JSONLineScanner()
        try lines.withUnsafeBufferPointer { buffer in
            var lineStart = 0
            while lineStart < buffer.count {
                let lineEnd = buffer[lineStart...].firstIndex(of: 0x0A) ?? buffer.count
                defer { lineStart = lineEnd + 1 }
                let line = UnsafeBufferPointer(rebasing: buffer[lineStart..<lineEnd])
                guard !line.isEmpty else { continue }
                // `end`: a dump describes a live session.
                guard let kind = try Self.kind(of: line, scanner: &scanner) else { continue }
                var bytes: [UInt8] = []
                bytes.reserveCapacity(line.count + 1)
                bytes.append(contentsOf: line)
                bytes.append(0x0A)
                incoming.append(HeldLine(bytes: bytes, kind: kind))
            }
        }
        let spillNow: Bool = lock.withLock {
            for line in incoming {
                held.append(line)
                heldBytes += line.bytes.count
            }
            forgetOldestBeyondBound()
            highWaterBytes = max(highWaterBytes, heldBytes + (keyframeLine?.count ?? 0))
            guard let spill, !incoming.isEmpty else { return false }
            let now = ContinuousClock.now
            guard lastSpill.map({ $0.duration(to: now) >= spill.interval }) ?? true else { return false }
            lastSpill = now
            return true
        }
        if spillNow, let spill { spillTo(spill.path) }
    }

    /// Spills once more, so the file holds everything up to the `end`.
    public func close() throws {
        if let spill { spillTo(spill.path) }
    }

    /// Writes what it holds as a session, readable and writable by its owner only (mode 0600, like every session
    /// file), through a temporary file renamed over `path`.
    /// - Throws: ``FlightRecorderError/nothingRecorded`` before the recorder started, or the file system's error
    ///   (a ``SystemError`` naming the call and the path).
    public func dump(to path: String) throws {
        let bytes = try sessionBytes()
        let temporary = path + ".dumping-\(ProcessInfo.processInfo.processIdentifier)"
        do {
            let fd = try Syscall.open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode: 0o600)
            do {
                // A file left by an earlier dump that failed keeps its mode through O_CREAT: set it again.
                try Syscall.changeMode(temporary, 0o600)
                try Syscall.writeAll(fd, bytes, subject: temporary)
            } catch {
                try? Syscall.close(fd, subject: temporary)
                throw error
            }
            try Syscall.close(fd, subject: temporary)
            try Syscall.rename(temporary, to: path)
        } catch {
            try? Syscall.unlink(temporary)
            throw error
        }
    }

    /// What it holds as the bytes of a session file.
    /// - Throws: ``FlightRecorderError/nothingRecorded`` before the recorder started.
    public func sessionBytes() throws -> [UInt8] {
        let (header, keyframeLine, lines) = lock.withLock { (self.header, self.keyframeLine, Array(held[firstHeld...])) }
        guard case .object(var members)? = header else { throw FlightRecorderError.nothingRecorded }
        // The number of the first action or gap held: an action's `seq`, or a gap's `from`; with none, the one after
        // the keyframe's.
        let first = try lines.first { $0.isNumbered }.map { try JSONValue(parsing: Array($0.bytes.dropLast())) }
        let keyframe = try keyframeLine.map { try JSONValue(parsing: Array($0.dropLast())) }
        let firstSequence = Int(
            first?["seq"]?.integerValue ?? first?["from"]?.integerValue
                ?? keyframe?["seq"]?.integerValue.map { $0 + 1 } ?? 1)
        if let state = keyframe?["state"] { members["initialState"] = state }
        var metadata = members["metadata"]?.objectValue ?? [:]
        metadata["flightRecorder"] = .object(["firstSequence": .integer(Int64(firstSequence))])
        members["metadata"] = .object(metadata)
        var bytes = JSONValue.object(members).canonicalBytes() + [0x0A]
        let offset = Int64(firstSequence - 1)
        for line in lines {
            guard offset > 0, case .object(var event) = try JSONValue(parsing: Array(line.bytes.dropLast())) else {
                bytes += line.bytes
                continue
            }
            for field in ["seq", "from", "to"] {
                if case .integer(let number)? = event[field] { event[field] = .integer(number - offset) }
            }
            if case .integer(let cause)? = event["cause"] {
                // A run whose cause is forgotten has lost its first lines: leave out the rest.
                if line.kind == .effect && cause <= offset { continue }
                event["cause"] = cause > offset ? .integer(cause - offset) : nil
            }
            bytes += JSONValue.object(event).canonicalBytes() + [0x0A]
        }
        return bytes
    }

    /// Moves the spill file a previous run left at `path` to `destination`, so the app can attach it to a crash
    /// report before recording over it.
    /// - Returns: Whether there was one.
    public static func recoverSpill(at path: String, to destination: String) throws -> Bool {
        guard FileManager.default.fileExists(atPath: path) else { return false }
        try Syscall.rename(path, to: destination)
        return true
    }

    /// What `line` holds as the flight recorder keeps it, or `nil` for a line it does not keep (an `end`).
    ///
    /// `scanner` checks the line and finds its top-level `kind` and `patch` without building the other values, which
    /// for a line of a large state would be most of the work and memory; a line it cannot settle (a key with an
    /// escape, or one that is not valid) is parsed in full.
    /// - Throws: ``FlightRecorderError/patchLine`` for an action that holds a patch, or the parser's error for a
    ///   line that is not a JSON object.
    private static func kind(
        of line: UnsafeBufferPointer<UInt8>, scanner: inout JSONLineScanner
    ) throws -> HeldLine.Kind? {
        var kind: String?
        var hasPatch = false
        if scanner.scanObject(line) {
            var memory = JSONParserMemory()
            var recent = RecentValues()
            for member in scanner.members {
                let key = line[member.key]
                if key.elementsEqual("patch".utf8) { hasPatch = true }
                guard key.elementsEqual("kind".utf8) else { continue }
                kind = JSONLineScanner.value(of: member, in: line, memory: &memory, recent: &recent)?.stringValue
            }
        } else {
            let event = try JSONValue(parsing: line)
            kind = event["kind"]?.stringValue
            hasPatch = event["patch"] != nil
        }
        if kind == "action" && hasPatch { throw FlightRecorderError.patchLine }
        switch kind {
        case "action": return .action
        case "gap": return .gap
        case "call", "effectEnd": return .effect
        case "note": return .note
        default: return nil
        }
    }

    /// Forgets the oldest lines while more than ``maxBytes`` are held, keeping the last one; the state of the last
    /// action forgotten becomes the keyframe. Call with the lock held.
    private func forgetOldestBeyondBound() {
        while heldBytes + (keyframeLine?.count ?? 0) > maxBytes, held.count - firstHeld > 1 {
            forgetOldest()
        }
        // A dump starts right after its keyframe: never with a gap, after which the state is unknown, nor with an
        // effect line, whose run's cause the keyframe already holds. A gap goes with the action after it (and the
        // effect lines between them), whose state becomes the keyframe; a gap that cannot (only it and the last
        // line are left) stays, and replay resyncs after it. A note may start a dump: it needs no state.
        while held.count - firstHeld > 2, !held[firstHeld].isAction, held[firstHeld].kind != .note {
            let forgotGap = held[firstHeld].kind == .gap
            forgetOldest()
            guard forgotGap else { continue }
            while held.count - firstHeld > 1, !held[firstHeld].isNumbered { forgetOldest() }
            if held[firstHeld].isAction { forgetOldest() }
        }
        if firstHeld > 1024 && firstHeld * 2 > held.count {
            held.removeFirst(firstHeld)
            firstHeld = 0
        }
    }

    /// Forgets the oldest line held; an action's state becomes the keyframe. Call with the lock held.
    private func forgetOldest() {
        // Its bytes are let go now, not when the forgotten lines' slots are removed together.
        let oldest = held[firstHeld]
        held[firstHeld].bytes = []
        firstHeld += 1
        heldBytes -= oldest.bytes.count
        if oldest.isAction { keyframeLine = oldest.bytes }
    }

    private func spillTo(_ path: String) {
        do {
            try dump(to: path)
        } catch {
            lock.withLock { lastError = "\(error)" }
        }
    }

}

/// Why a flight recorder could not do what was asked.
public enum FlightRecorderError: Error, Sendable, Equatable {
    /// The recorder has not started the session yet: there is nothing to dump.
    case nothingRecorded
    /// A line held a patch: the flight recorder needs every state in full (`snapshots: .full`).
    case patchLine
}
