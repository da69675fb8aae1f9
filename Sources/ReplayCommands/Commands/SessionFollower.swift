import Foundation
import StoreKitCore
import StoreKitReplay

/// Reads a session as it is written (`log --follow`): each complete line as it arrives, as strictly as every
/// command reads, until the session's `end` line; between arrivals it looks again every 200 ms.
enum SessionFollower {
    /// Calls `body` with each event until it returns false or the `end` line has been read.
    static func read(_ session: SessionInput, _ body: (SessionEvent) throws(CLIError) -> Bool) throws(CLIError) {
        guard let handle = FileHandle(forReadingAtPath: session.path) else {
            throw CLIError(.input, "cannot open '\(session.displayName)' to follow it")
        }
        defer { try? handle.close() }
        var decoder = SessionLineDecoder(source: session.displayName)
        var pending: [UInt8] = []
        while true {
            let chunk = handle.availableData
            guard !chunk.isEmpty else {
                Thread.sleep(forTimeInterval: 0.2)
                continue
            }
            pending += chunk
            var lineStart = 0
            while let newline = pending[lineStart...].firstIndex(of: 0x0A) {
                let line = Array(pending[lineStart..<newline])
                lineStart = newline + 1
                let event: SessionEvent
                do {
                    event = try decoder.decode(line: line)
                } catch {
                    throw CLIError(error, in: session)
                }
                if try !body(event) { return }
                if case .end = event { return }
            }
            pending.removeFirst(lineStart)
            if pending.count > decoder.maxLineBytes {
                do {
                    try decoder.decodeOverlongLine(byteCount: pending.count)
                } catch {
                    throw CLIError(error, in: session)
                }
            }
        }
    }

    /// The session file in `directory` written to last; `nil` when there is none.
    static func latest(in directory: String) -> String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        let files = names.filter { $0.hasSuffix("." + SessionFormat.fileExtension) }.compactMap { name -> (String, Int64)? in
            guard let status = try? Syscall.status(directory + "/" + name) else { return nil }
            return (directory + "/" + name, status.modifiedMilliseconds)
        }
        return files.max { ($0.1, $0.0) < ($1.1, $1.0) }?.0
    }
}
