import StoreKitCore
import StoreKitReplay

/// Reads a session locally (no host), turning read errors into command-line errors that name the file and line.
enum SessionScan {
    /// Calls `body` with each event of the session file until it returns false or the file ends.
    static func read(_ session: SessionInput, _ body: (SessionEvent) throws(CLIError) -> Bool) throws(CLIError) {
        try read(session, from: { () throws(SessionReadError) in try SessionReader(path: session.path) }, body)
    }

    /// Calls `body` with each event the reader that `open` makes reads, until it returns false or the reader ends.
    static func read(
        _ session: SessionInput, from open: () throws(SessionReadError) -> SessionReader,
        _ body: (SessionEvent) throws(CLIError) -> Bool
    ) throws(CLIError) {
        do {
            let reader = try open()
            while let event = try reader.next() {
                if try !body(event) { return }
            }
        } catch let error as CLIError {
            throw error
        } catch let error as SessionReadError {
            throw CLIError(error, in: session)
        } catch {
            throw CLIError(.session, "\(error)", file: session.displayName)
        }
    }
}
