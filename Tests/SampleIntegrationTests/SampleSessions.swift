import Foundation

/// The golden sessions shipped under `samples/sessions/`.
enum SampleSessions {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("samples/sessions")

    /// Every `.jsonl` file there, sorted by name.
    static var paths: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".jsonl") }.sorted().map { directory.appendingPathComponent($0).path }
    }

    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
}
