import Foundation

/// The names the system shows for a process's threads (`/proc/PID/task/TID/comm`, Linux).
public enum ThreadNames {
    /// Whether this system shows them there.
    public static var areReadable: Bool { FileManager.default.fileExists(atPath: "/proc/self/task") }

    /// How many threads of process `pid` (this one unless given) have a name that `matches`.
    public static func count(inProcess pid: Int32? = nil, where matches: (String) -> Bool) -> Int {
        let folder = "/proc/\(pid.map(String.init) ?? "self")/task"
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return tasks.filter { task in
            let name = (try? String(contentsOfFile: "\(folder)/\(task)/comm", encoding: .utf8)) ?? ""
            return matches(name.hasSuffix("\n") ? String(name.dropLast()) : name)
        }.count
    }
}
