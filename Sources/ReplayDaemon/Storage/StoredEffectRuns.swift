import StoreKitCore
import StoreKitReplay

/// Where a stored session of format 2 or later stands, read from the whole file by the session reader: what its
/// lines cover, the effect lines and notes after the last action or gap, and its effect runs still open, each with
/// the calls it had.
///
/// A reconnecting client continues runs that began long before the file's last lines (an effect that sleeps on the
/// clock for an hour), and the daemon must number their next calls as the reader will, so it reads every line once
/// when such a session is continued; a format 1 session, which has no runs, is never read this way.
struct StoredEffectRuns {
    /// The order the session's next line must keep.
    var order: SessionLineOrder
    /// The time of the last action stored, in seconds since the session started.
    var lastTime: Double

    /// Reads the stored session at `path` (already checked to be the one continued, with no `end` left).
    /// - Parameters:
    ///   - name: The file's name, for messages.
    ///   - formatVersion: The stored header's format version.
    ///   - maxLineBytes: The longest line the daemon accepts now; the reader allows at least the format's default.
    /// - Throws: ``SessionFile/OpenError`` when the stored file does not read to its end.
    init(path: String, name: String, formatVersion: Int, maxLineBytes: Int) throws {
        var covered = 0
        var sinceCovered = 0
        var effectLines = EffectLineOrder(formatVersion: formatVersion)
        lastTime = 0
        do {
            let reader = try SessionReader(path: path, maxLineBytes: max(maxLineBytes, SessionFormat.defaultMaxLineBytes))
            // Only the numbers, times and effect lines count here: each state is checked by the scan, never built.
            reader.defersRecordedStates = true
            while let event = try reader.next() {
                // The reader refused whatever breaks the rules, so this only moves the runs along.
                _ = effectLines.admit(event, covered: covered)
                switch event {
                case .action(let action):
                    covered = action.sequence
                    lastTime = action.time
                    sinceCovered = 0
                case .gap(let gap):
                    covered = gap.lastSequence
                    sinceCovered = 0
                case .call, .effectEnd, .note:
                    sinceCovered += 1
                case .header, .end:
                    break
                }
            }
        } catch {
            throw SessionFile.OpenError(description: "the stored session \(name) does not read to its end: \(error)")
        }
        order = SessionLineOrder(continuingAfter: covered, effectLinesSinceCovered: sinceCovered, effectLines: effectLines)
    }
}
