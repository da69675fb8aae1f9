import Foundation
import StoreKitSystem

/// The disk side of a recorder's ``UnconfirmedLines``: the held lines it moved to a sequence of segment files
/// (``JournalFile``, named by ``JournalFolder``, in the folder of the transport's ``UnixSocketTransport/Journal``
/// settings), bounded in bytes across all of them. Each segment is deleted as soon as the receiver confirmed every
/// line in it, so a journal sent while new lines join it shrinks from its oldest end.
///
/// A segment takes lines until it holds ``segmentBytes``; the next line starts a new one (as does a line after a
/// write error). Each segment file stays open (and locked) until it is deleted: 17 at most, but for segments a
/// write error ended early.
///
/// It never throws: a line it cannot take (the bound reached, a disk error) is refused, and from then on it takes
/// none until a segment is deleted, so the lines it holds always come before those held in memory, and what was lost
/// in between is one run of sequence numbers per refusal. ``problem`` says why it refused.
package final class SessionJournal {
    /// The settings: folder and bound.
    package let settings: UnixSocketTransport.Journal
    /// The socket path of the daemon the session is for.
    package let socketPath: String
    /// The most bytes a segment takes lines until: a sixteenth of the bound, and at least 64 KB.
    package let segmentBytes: Int
    /// The id that names the journal's segment files.
    private let id = UUID().uuidString.lowercased()
    /// Makes the session's header line, written first in each segment.
    private let makeHeader: () throws -> [UInt8]
    /// The segments, oldest first, each from its first line until every line in it is confirmed.
    private var segments: [JournalFile] = []
    /// The number of the next segment.
    private var nextSegmentNumber = 1
    /// Whether the newest segment takes no more lines (a write to it failed, so it may end part way in a record).
    private var newestIsSealed = false
    /// Whether it refused a line since a segment was last deleted.
    private var refusing = false
    /// Why it last refused a line, for the `gap` that records what was lost.
    package private(set) var problem: String?
    /// The action lines it took after the sequence number of the last ``linesSent(through:)``: held for a resend,
    /// not yet taken by the transport.
    package private(set) var unsentActions = 0
    /// The sequence number of the last ``linesSent(through:)``.
    private var sentThrough = 0
    /// The highest sequence number a line it took covers.
    private var takenThrough = 0
    /// The sequence numbers of the action lines it took keeping their actions only (past ``statesByteLimit``), since
    /// the last ``takeActionsKeptWithoutStates()``.
    private var keptWithoutStates: [ClosedRange<Int>] = []

    /// The bytes up to which the journal takes action lines with their states; past them, it takes their actions
    /// only (``KeptActionLine``), in the last quarter of the bound.
    private var statesByteLimit: Int { settings.byteLimit - settings.byteLimit / 4 }

    /// The message of the gaps that keep an action without its state past ``statesByteLimit``.
    private var keptMessage: String {
        "replayd was away and the journal in \(settings.folder) held \(statesByteLimit) bytes: the action was kept "
            + "without its state"
    }

    /// Creates an empty journal; no file is made until a line is appended.
    package init(settings: UnixSocketTransport.Journal, socketPath: String, header: @escaping () throws -> [UInt8]) {
        self.settings = settings
        self.socketPath = socketPath
        segmentBytes = max(settings.byteLimit / 16, 64 << 10)
        makeHeader = header
    }

    /// Why it refuses lines, while it does (until a segment is deleted).
    package var refusal: String? { refusing ? problem : nil }

    /// True when it holds no line.
    package var isEmpty: Bool { segments.allSatisfy { $0.last == nil } }

    /// The paths of its segment files, oldest first.
    package var paths: [String] { segments.map(\.path) }

    /// The bytes its segment files hold, those not yet written included.
    package var byteCount: Int { segments.reduce(0) { $0 + $1.size } }

    /// Takes a line, unless it refuses one since a segment was last deleted, the line would take its segments
    /// beyond the bound, or the disk fails.
    /// - Returns: Whether it took the line.
    package func append(_ entry: UnconfirmedLines.Entry) -> Bool {
        guard !refusing else { return false }
        do {
            var entry = entry
            var keepsActionOnly = false
            if byteCount + JournalFile.recordBytes(entry) > statesByteLimit,
                let kept = KeptActionLine.entry(keeping: entry, reason: .transportFailed, message: keptMessage)
            {
                // Past three quarters of the bound, an action line keeps its action only.
                entry = kept
                keepsActionOnly = true
            }
            guard try write(entry, within: settings.byteLimit) else {
                refuse(
                    "the journal \(id) in \(settings.folder) reached its bound of \(settings.byteLimit) bytes "
                        + "(\(segments.count) segments)")
                return false
            }
            if entry.sequences.lowerBound > sentThrough { unsentActions += entry.actionCount }
            if keepsActionOnly { keptWithoutStates.append(entry.sequences) }
            takenThrough = max(takenThrough, entry.sequences.upperBound)
            return true
        } catch {
            newestIsSealed = true
            refuse("the journal in \(settings.folder) cannot be written: \(error)")
            return false
        }
    }

    /// Writes the lines taken so far to the files; a failure refuses further lines (those lost are then missing
    /// from the file, and a resend records them as a gap).
    package func flush() {
        do {
            try segments.last?.flush()
        } catch {
            newestIsSealed = true
            refuse("the journal in \(settings.folder) cannot be written: \(error)")
        }
    }

    /// The sequence numbers of the action lines it took keeping their actions without their states since the last
    /// call, which the recorder has not counted yet.
    package func takeActionsKeptWithoutStates() -> [ClosedRange<Int>] {
        defer { keptWithoutStates = [] }
        return keptWithoutStates
    }

    /// Records that the transport took every line it holds, up to `sequence`: none of its actions is unsent.
    package func linesSent(through sequence: Int) {
        sentThrough = max(sentThrough, sequence)
        unsentActions = 0
    }

    /// A place among the journal's lines, where a walk that stops goes on from (``forEachEntry(from:_:)``); it stays
    /// valid while no segment is deleted.
    package struct Position {
        fileprivate var segment = 0
        fileprivate var offset: Int?

        /// The place before the first line.
        package init() {}

        fileprivate init(segment: Int) {
            self.segment = segment
        }
    }

    /// Calls `body` with each line held, in order; a segment that cannot be read ends its own lines (a resend then
    /// records what is missing as a gap).
    /// - Throws: What `body` throws.
    package func forEachEntry(_ body: (UnconfirmedLines.Entry) throws -> Void) throws {
        var position = Position()
        _ = try forEachEntry(from: &position) { entry in
            try body(entry)
            return true
        }
    }

    /// Calls `body` with each line held from `position` on, in order, until `body` returns false, and moves
    /// `position` past the lines it gave; lines appended meanwhile are given too. A segment that cannot be read
    /// ends its own lines (a resend then records what is missing as a gap).
    /// - Returns: Whether it gave every line held.
    /// - Throws: What `body` throws.
    package func forEachEntry(
        from position: inout Position, _ body: (UnconfirmedLines.Entry) throws -> Bool
    ) throws -> Bool {
        while position.segment < segments.count {
            let segment = segments[position.segment]
            do {
                let ended = try segment.forEachEntry(from: &position.offset) { entry in
                    do {
                        return try body(entry)
                    } catch {
                        throw Forwarded(error: error)
                    }
                }
                guard ended else { return false }
            } catch let forwarded as Forwarded {
                throw forwarded.error
            } catch {
                refuse("the journal \(segment.path) cannot be read: \(error)")
            }
            // The newest segment may take more lines: the walk stays at its end until another one starts.
            guard position.segment + 1 < segments.count else { return true }
            position = Position(segment: position.segment + 1)
        }
        return true
    }

    /// Deletes each segment, oldest first, whose every line the receiver confirmed, and takes lines again once one
    /// is deleted.
    package func confirm(through confirmed: Int) {
        while let oldest = segments.first, oldest.isConfirmed(through: confirmed) {
            oldest.remove()
            segments.removeFirst()
            refusing = false
        }
    }

    /// Deletes every segment and takes lines again.
    package func removeAll() {
        for segment in segments { segment.remove() }
        segments = []
        refusing = false
        unsentActions = 0
    }

    /// Closes the journal as its session ends with the receiver away: when it is refusing lines, it first takes a
    /// `gap` line (reason ``GapEvent/Reason/transportFailed``, with the reason it refused) for the sequence numbers
    /// after the last line it took through `lastSequence`, beyond its bound (the line is a few hundred bytes), so
    /// that the transport that sends it later records what it could not keep, and nothing after the journal's last
    /// line goes missing unsaid. Then it closes (``close()``).
    /// - Returns: The sequence numbers the `gap` covers, when it took one.
    package func close(recordingLossThrough lastSequence: Int) -> ClosedRange<Int>? {
        defer { close() }
        guard refusing, takenThrough < lastSequence, let problem else { return nil }
        let gap = GapEvent(
            firstSequence: takenThrough + 1, lastSequence: lastSequence, reason: .transportFailed, message: problem)
        let entry = UnconfirmedLines.Entry(
            sequences: gap.firstSequence...gap.lastSequence, bytes: SessionEvent.gap(gap).line, content: .gap(gap))
        do {
            _ = try write(entry, within: nil)
            try segments[segments.count - 1].flush()
        } catch {
            return nil
        }
        return entry.sequences
    }

    /// Closes the segments, which stay for a later transport to send (empty ones are deleted), and takes no more
    /// lines.
    package func close() {
        for segment in segments {
            if segment.last == nil { segment.remove() } else { segment.close() }
        }
        segments = []
        refusing = true
    }

    /// Writes `entry` to the newest segment, or to a new one when the newest is full or sealed, unless that takes
    /// the segments beyond `limit` bytes.
    /// - Returns: Whether it wrote the entry (false only beyond `limit`).
    private func write(_ entry: UnconfirmedLines.Entry, within limit: Int?) throws -> Bool {
        var bytes = JournalFile.recordBytes(entry)
        var header: [UInt8]?
        if newestIsSealed || (segments.last?.size ?? segmentBytes) >= segmentBytes {
            let line = try makeHeader()
            bytes += JournalFile.startBytes(socketPath: socketPath, header: line)
            header = line
        }
        if let limit, byteCount + bytes > limit { return false }
        if let header { try startSegment(header: header) }
        try segments[segments.count - 1].append(entry)
        return true
    }

    private func startSegment(header: [UInt8]) throws {
        try segments.last?.flush()
        try JournalFolder.create(settings.folder)
        let path = JournalFolder.segmentPath(folder: settings.folder, journal: id, number: nextSegmentNumber)
        nextSegmentNumber += 1
        segments.append(try JournalFile.create(path: path, socketPath: socketPath, header: header))
        newestIsSealed = false
    }

    /// An error of the body of ``forEachEntry(_:)``, told apart from the file's own.
    private struct Forwarded: Error {
        var error: any Error
    }

    private func refuse(_ reason: String) {
        refusing = true
        problem = reason
    }
}
