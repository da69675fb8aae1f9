import Foundation
import Testing

/// The replay host is always the current code: in a copy of this package, `replay-cli diff` with no manual build
/// replays an edited reducer as edited, a reducer that no longer compiles as the compiler's error, and the restored
/// reducer as a match again; with nothing changed since, it skips the build, and builds again once a reducer is touched.
///
/// The copy builds in its own `.build` (this repository's is locked by `swift test`): one full build of the samples'
/// host there, and the later runs reuse it incrementally. Its `.replay.json` names the debug build, as this
/// repository's did before it named the release one: the same `swift build` rules, at half the cost of a first build.
@Suite struct CurrentHostEndToEndTests {
    /// A copy of the package (without `.build` and `.git`) in a temporary folder.
    private func copyOfThePackage() throws -> Scratch {
        let scratch = try Scratch()
        let entries = try FileManager.default.contentsOfDirectory(atPath: CLI.packageRoot.path)
        for entry in entries where entry == ".replay.json" || !entry.hasPrefix(".") {
            try FileManager.default.copyItem(
                at: CLI.packageRoot.appendingPathComponent(entry), to: scratch.url.appendingPathComponent(entry))
        }
        try scratch.write(
            ".replay.json",
            #"{"host": ".build/debug/sample-replay-host", "build": "swift build --product sample-replay-host"}"#)
        return scratch
    }

    @Test(.timeLimit(.minutes(20)))
    func diffReplaysThroughTheReducerAsItIsNowWithoutAManualBuild() async throws {
        let package = try copyOfThePackage()
        defer { package.remove() }
        let reducer = package.file("samples/Features/Todos.swift")
        let original = try String(contentsOfFile: reducer, encoding: .utf8)
        let toggle = "state.todos[index].isComplete.toggle()"
        #expect(original.contains(toggle))
        let session = "samples/sessions/todos-basic.jsonl"

        // Given the todo reducer edited so that it no longer toggles
        try original.replacingOccurrences(of: toggle, with: "_ = index").write(toFile: reducer, atomically: true, encoding: .utf8)

        // When diff runs in the copy, then it builds the host and finds the regression at its step
        let broken = try await CLI.run(["diff", session], directory: package.url)
        #expect(broken.status == 1, "\(broken.stdout)\(broken.stderr)")
        #expect(broken.stdout.contains("diverged at step 5 of 40"), "\(broken.stdout)")
        #expect(broken.stdout.contains("action  toggleCompleted"))
        #expect(
            broken.stdout.contains("replayed through \(package.path)/.build/debug/sample-replay-host (built "), "\(broken.stdout)")

        // Given a reducer that no longer compiles, then diff is trouble with the compiler's error, and replays nothing
        try original.replacingOccurrences(of: toggle, with: "_ = indexx").write(toFile: reducer, atomically: true, encoding: .utf8)
        let failing = try await CLI.run(["diff", session], directory: package.url)
        #expect(failing.status == 2)
        #expect(failing.stdout == "")
        #expect(failing.stderr.hasPrefix("Error: the replay host's build step 'swift build --product sample-replay-host'"))
        #expect(failing.stderr.contains("samples/Features/Todos.swift:"), "\(failing.stderr)")
        #expect(failing.stderr.contains(": error: cannot find 'indexx' in scope"), "\(failing.stderr)")
        #expect(failing.stderr.split(separator: "\n").count <= 70, "\(failing.stderr)")

        // Given the reducer restored, then the same session matches again
        try original.write(toFile: reducer, atomically: true, encoding: .utf8)
        let restored = try await CLI.run(["diff", session], directory: package.url)
        #expect(restored.status == 0, "\(restored.stdout)\(restored.stderr)")
        #expect(restored.stdout.contains("match: all 40 replayed states equal the recorded ones"))
        #expect(!restored.stdout.contains("up to date"), "\(restored.stdout)")

        // When diff runs again with nothing changed, then it skips the build and says so
        let again = try await CLI.run(["diff", session, "--json"], directory: package.url)
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        let host = (try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])?["host"] as? [String: Any]
        #expect(host?["build"] as? String == "swift build --product sample-replay-host")
        #expect(host?["buildSkipped"] as? Bool == true, "\(again.stdout)")

        // Given the reducer touched, then the build step runs again
        try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: reducer)
        let touched = try await CLI.run(["diff", session, "--json"], directory: package.url)
        #expect(touched.status == 0, "\(touched.stdout)\(touched.stderr)")
        let rebuilt = (try JSONSerialization.jsonObject(with: Data(touched.stdout.utf8)) as? [String: Any])?["host"] as? [String: Any]
        #expect(rebuilt?["buildSkipped"] as? Bool == false, "\(touched.stdout)")
    }
}
