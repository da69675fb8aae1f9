import Foundation
import StoreKitCore
import StoreKitReplay
import StoreKitSystem

/// Reads a session as it is written (`log --follow`): each complete line as it arrives, as strictly as every
/// command reads, until the session's `end` line; at the end of the file it looks again every 200 ms.
///
/// Each byte is read once however a line arrives, and a line that grows past the line limit is refused as soon as it
/// passes it (``SessionReader/init(following:waitForMore:)``).
enum SessionFollower {
    /// Calls `body` with each event until it returns false or the `end` line has been read.
    static func read(_ session: SessionInput, _ body: (SessionEvent) throws(CLIError) -> Bool) throws(CLIError) {
        let following = { () throws(SessionReadError) in
            try SessionReader(following: session.path) { Thread.sleep(forTimeInterval: 0.2) }
        }
        try SessionScan.read(session, from: following) { event throws(CLIError) in
            let wantsMore = try body(event)
            if case .end = event { return false }
            return wantsMore
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
