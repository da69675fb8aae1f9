import Foundation

/// Where the testing helpers look for a file a test names: an absolute path as given, a relative one from the folder
/// of the test file that names it (`#filePath`), never from the working directory, which differs between
/// `swift test`, Xcode and CI runners.
enum TestFileRelativePath {
    /// `path` as given when absolute, else from the folder of the test file `filePath`.
    static func resolve(_ path: String, calledFrom filePath: StaticString) -> String {
        guard !path.hasPrefix("/") else { return path }
        return URL(fileURLWithPath: "\(filePath)").deletingLastPathComponent().appendingPathComponent(path).path
    }
}
