import StoreKitCore
import StoreKitReplay

/// A failure the command line reports with exit status 2: bad usage, unreadable input, a failing host.
struct CLIError: Error, CustomStringConvertible {
    /// What went wrong, with offending tokens in single quotes.
    var message: String
    /// The usage line of the command, shown after a usage error.
    var usage: String?

    var description: String { message }

    init(_ message: String, usage: String? = nil) {
        self.message = message
        self.usage = usage
    }
}
