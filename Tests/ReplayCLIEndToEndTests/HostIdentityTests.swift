import Foundation
import Testing

/// Every replay says what it replayed through: the host's executable and its build time, and the commit (with a
/// dirty flag) when the host's directory is a git checkout; in text, in `--json`, and as JUnit properties.
@Suite struct HostIdentityTests {
    private let sampleHost = CLI.binaries.appendingPathComponent("sample-replay-host").path

    private var builtAt: String {
        get throws {
            let date = try FileManager.default.attributesOfItem(atPath: sampleHost)[.modificationDate] as? Date ?? .distantPast
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime]
            return formatter.string(from: date)
        }
    }

    @discardableResult
    private func git(_ arguments: [String], in scratch: Scratch) throws -> String {
        try VersionedRepository.git(arguments, in: scratch.url)
    }

    @Test func theTextReportEndsWithTheHostAndItsBuildTime() async throws {
        // Given a host outside any git checkout, with no build step
        let scratch = try Scratch()
        defer { scratch.remove() }
        let session = try scratch.copy("counter-basic.jsonl", as: "c.jsonl")

        let outcome = try await CLI.run(["diff", session, "--host", sampleHost], directory: scratch.url)

        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdout == """
                \(session): store "counter", 40 actions, recorded by SampleApp 1.0 (build 1) on 2026-11-22
                match: all 40 replayed states equal the recorded ones
                replayed through \(sampleHost) (built \(try builtAt), not rebuilt)

                """)
    }

    @Test func jsonNamesTheCommitAndWhetherTheCheckoutIsDirty() async throws {
        // Given a host whose directory is a git checkout with one commit
        let scratch = try Scratch()
        defer { scratch.remove() }
        let session = try scratch.copy("counter-basic.jsonl", as: "c.jsonl")
        try git(["init", "-q"], in: scratch)
        try git(["add", "c.jsonl"], in: scratch)
        try git(["commit", "-q", "-m", "golden"], in: scratch)
        let commit = try git(["rev-parse", "HEAD"], in: scratch)
        let build = ["--host", sampleHost, "--build", "true"]

        // When it is clean, then the report names the commit, not dirty, and the build step it ran
        let clean = try await CLI.run(["diff", session, "--json"] + build, directory: scratch.url)
        #expect(clean.status == 0, "\(clean.stderr)")
        let host = (try JSONSerialization.jsonObject(with: Data(clean.stdout.utf8)) as? [String: Any])?["host"] as? [String: Any]
        #expect(host?["executable"] as? String == sampleHost)
        #expect(host?["builtAt"] as? String == (try builtAt))
        #expect(host?["build"] as? String == "true")
        #expect(host?["commit"] as? String == commit)
        #expect(host?["dirty"] as? Bool == false)

        // And with an uncommitted change it is dirty, in JSON and in text
        try scratch.write("notes.txt", "work in progress")
        let dirty = try await CLI.run(["diff", session, "--json"] + build, directory: scratch.url)
        let dirtyHost = (try JSONSerialization.jsonObject(with: Data(dirty.stdout.utf8)) as? [String: Any])?["host"] as? [String: Any]
        #expect(dirtyHost?["dirty"] as? Bool == true)
        let text = try await CLI.run(["diff", session] + build, directory: scratch.url)
        #expect(
            text.stdout.hasSuffix(
                "\nreplayed through \(sampleHost) (built \(try builtAt), commit \(commit) with uncommitted changes)\n"),
            "\(text.stdout)")
    }

    @Test func checkWritesTheHostAsJUnitProperties() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let session = try scratch.copy("counter-basic.jsonl", as: "c.jsonl")
        try git(["init", "-q"], in: scratch)
        try git(["add", "c.jsonl"], in: scratch)
        try git(["commit", "-q", "-m", "golden"], in: scratch)
        let commit = try git(["rev-parse", "HEAD"], in: scratch)
        let junit = scratch.file("report.xml")

        let outcome = try await CLI.run(
            ["check", session, "--host", sampleHost, "--junit", junit, "--json"], directory: scratch.url)

        #expect(outcome.status == 0, "\(outcome.stderr)")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        // The junit file itself is untracked, but it is written after the replay looked at the checkout.
        #expect(
            xml.contains(
                """
                    <properties>
                      <property name="host.executable" value="\(sampleHost)"/>
                      <property name="host.builtAt" value="\(try builtAt)"/>
                      <property name="host.build" value="(not rebuilt)"/>
                      <property name="host.commit" value="\(commit)"/>
                      <property name="host.dirty" value="false"/>
                    </properties>

                """), "\(xml)")
        let document = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        #expect((document?["host"] as? [String: Any])?["commit"] as? String == commit)
    }

    @Test func replayKeepsTheStateAloneOnStandardOutputAndNamesTheHostOnStandardError() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let outcome = try await CLI.run(
            ["replay", CLI.session("counter-basic.jsonl"), "--step", "0", "--host", sampleHost], directory: scratch.url)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout == "{\n  \"count\": 0,\n  \"step\": 1\n}\n")
        #expect(outcome.stderr == "replayed through \(sampleHost) (built \(try builtAt), not rebuilt)\n")
    }
}
