import Foundation
import StoreKitCore
import StoreKitJSON

/// What a replay went through: the host's executable and when it was built, and the commit of the host's package
/// when that is a git checkout. Every report that replays says it, so a verdict can be traced to the code behind it.
struct HostIdentity {
    /// The absolute path of the host's executable; `nil` when the command names none that exists.
    var executable: String?
    /// When the executable was last written (its modification time).
    var builtAt: Date?
    /// The build step that brought the host up to date before this replay; `nil` when there is none or `--no-build`.
    var build: String?
    /// Whether that step was skipped because nothing it reads changed since its last successful run.
    var buildSkipped: Bool
    /// The commit checked out in the host's directory (`HEAD`); `nil` when it is not a git checkout or has none.
    var commit: String?
    /// Whether `git status` lists changes there (only with a commit).
    var dirty: Bool

    /// Looks the host up on disk and in git (one `git status --porcelain=v2 --branch`: its `# branch.oid` line is
    /// the commit, `(initial)` before the first one, and any line not starting with `#` a change).
    static func of(_ host: HostCommand, build: (command: String, outcome: HostBuild.Outcome)?) -> HostIdentity {
        let executable = host.executablePath
        let attributes = executable.flatMap { try? FileManager.default.attributesOfItem(atPath: $0) }
        let status = Git(directory: host.directory).output(["status", "--porcelain=v2", "--branch"])?.split(separator: "\n") ?? []
        let commit = status.first { $0.hasPrefix("# branch.oid ") }.map { String($0.dropFirst("# branch.oid ".count)) }
            .flatMap { $0 == "(initial)" ? nil : $0 }
        let dirty = commit != nil && status.contains { !$0.hasPrefix("#") }
        return HostIdentity(
            executable: executable, builtAt: attributes?[.modificationDate] as? Date, build: build?.command,
            buildSkipped: build?.outcome == .unchanged, commit: commit, dirty: dirty)
    }

    /// The build time as ISO 8601 in UTC, to the second.
    var builtAtText: String? {
        builtAt.map {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime]
            return formatter.string(from: $0)
        }
    }

    /// One line for text reports: `replayed through PATH (built TIME, commit SHA, with uncommitted changes)`, ending
    /// in `up to date: nothing its build reads changed since` when the build step was skipped, `not rebuilt` when
    /// there was none.
    var summary: String {
        var details = [builtAtText.map { "built \($0)" } ?? "build time unknown"]
        if let commit { details.append("commit \(commit)" + (dirty ? " with uncommitted changes" : "")) }
        if build == nil {
            details.append("not rebuilt")
        } else if buildSkipped {
            details.append("up to date: nothing its build reads changed since")
        }
        return "replayed through \(executable ?? "an executable that was not found") (\(details.joined(separator: ", ")))"
    }

    /// The same as JSON: `{"executable", "builtAt", "build", "buildSkipped", "commit", "dirty"}`, `null` where
    /// unknown (`buildSkipped` is `null` without a build step).
    var jsonValue: JSONValue {
        .object([
            "executable": executable.map(JSONValue.string) ?? .null,
            "builtAt": builtAtText.map(JSONValue.string) ?? .null,
            "build": build.map(JSONValue.string) ?? .null,
            "buildSkipped": build == nil ? .null : .bool(buildSkipped),
            "commit": commit.map(JSONValue.string) ?? .null,
            "dirty": commit == nil ? .null : .bool(dirty),
        ])
    }

    /// The same as JUnit `<property>` pairs, in a fixed order; unknown values are left out.
    var properties: [(String, String)] {
        var pairs: [(String, String)] = []
        if let executable { pairs.append(("host.executable", executable)) }
        if let builtAtText { pairs.append(("host.builtAt", builtAtText)) }
        pairs.append(("host.build", build ?? "(not rebuilt)"))
        if build != nil { pairs.append(("host.buildSkipped", buildSkipped ? "true" : "false")) }
        if let commit {
            pairs.append(("host.commit", commit))
            pairs.append(("host.dirty", dirty ? "true" : "false"))
        }
        return pairs
    }
}
