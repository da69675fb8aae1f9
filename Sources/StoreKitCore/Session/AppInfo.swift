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

    /// Creates an app description; empty strings mean "not given".
    public init(name: String, version: String = "", build: String = "", schemaVersion: String = "") {
        self.name = name
        self.version = version
        self.build = build
        self.schemaVersion = schemaVersion
    }
}
