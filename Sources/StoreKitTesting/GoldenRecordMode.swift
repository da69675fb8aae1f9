import Foundation
import StoreKitReplay

/// When a golden replay assertion may write golden sessions, in the style of swift-snapshot-testing.
///
/// Chosen by the `record:` parameter of the assertion, else by the `REPLAY_RECORD` environment variable
/// (`missing`, `all`, `failed` or `never`), else ``never`` when the `CI` environment variable is set and
/// ``missing`` otherwise. So CI can never record a golden and pass.
public enum GoldenRecordMode: String, Sendable, CaseIterable {
    /// Record a golden that does not exist yet, and fail so it gets reviewed; compare existing ones (local default).
    case missing
    /// Re-record every golden, and fail so the changes get reviewed.
    case all
    /// Re-record goldens that do not match (accepting the current reducers), and fail so they get reviewed.
    case failed
    /// Never write: compare only (the default when `CI` is set).
    case never

    /// The environment variable that chooses the mode.
    public static let environmentVariable = "REPLAY_RECORD"

    /// The mode the environment chooses.
    /// - Throws: ``GoldenReplayError`` when `REPLAY_RECORD` holds something else than a mode's name.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(GoldenReplayError) -> GoldenRecordMode {
        if let text = environment[environmentVariable], !text.isEmpty {
            guard let mode = GoldenRecordMode(rawValue: text) else {
                let names = allCases.map(\.rawValue).joined(separator: ", ")
                throw GoldenReplayError("\(environmentVariable)='\(text)' is not a record mode; use one of \(names)")
            }
            return mode
        }
        return environment["CI"].map { !$0.isEmpty && $0 != "false" && $0 != "0" } == true ? .never : .missing
    }
}
