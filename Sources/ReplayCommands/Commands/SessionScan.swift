import StoreKitCore
import StoreKitReplay

/// Reads a session locally (no host), turning read errors into command-line errors that name the file and line.
enum SessionScan {
    static func read(_ session: SessionInput, _ body: (SessionEvent) throws(CLIError) -> Bool) throws(CLIError) {
        do {
            let reader = try SessionReader(path: session.path)
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
