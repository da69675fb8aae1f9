import Foundation

/// The names the system shows for this process's threads (`/proc/self/task/TID/comm`, Linux).
public enum ThreadNames {
    /// Whether this system shows them there.
    public static var areReadable: Bool { FileManager.default.fileExists(atPath: "/proc/self/task") }

    /// How many of this process's threads have a name that `matches`.
    public static func count(where matches: (String) -> Bool) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.filter { task in
            let name = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
            return matches(name.hasSuffix("\n") ? String(name.dropLast()) : name)
        }.count
    }
}
