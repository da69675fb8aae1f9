/// The app that recorded a session, as the session header names it.
public struct AppInfo: Sendable, Hashable {
    /// The app's name, such as `TodoApp`.
    public var name: String
    /// The app's marketing version, such as `1.4`.
    public var version: String
    /// The build that recorded the session, such as `212`.
    public var build: String
    /// The version of the app's state and action types, bumped by the app when they change shape.
    public var schemaVersion: String
    /// The git commit the app was built from: 40 lowercase hex digits (64 in a SHA-256 repository), or an empty
    /// string when not known.
    ///
    /// When it is empty, a ``SessionRecorder`` fills it in as it starts with the commit `HEAD` names in the git
    /// checkout the running executable lives in, if there is one (a `swift run` or a test run of a checkout). An
    /// app built elsewhere (by Xcode, for the simulator or a phone) runs far from its checkout: give it the commit
    /// from a build setting instead, which the recorder keeps as given.
    public var commit: String

    /// Creates an app description; empty strings mean "not given".
    public init(
        name: String, version: String = "", build: String = "", schemaVersion: String = "", commit: String = ""
    ) {
        self.name = name
        self.version = version
        self.build = build
        self.schemaVersion = schemaVersion
        self.commit = commit
    }

    /// Whether `text` has the shape of a git commit id: 40 or 64 lowercase hex digits.
    package static func isCommitID(_ text: some StringProtocol) -> Bool {
        let digits = text.utf8
        return (digits.count == 40 || digits.count == 64)
            && digits.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
