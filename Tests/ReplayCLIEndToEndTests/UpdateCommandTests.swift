import Foundation
import Testing

/// `update` changes only what it must: the states that changed, never the first backup, never the header, the
/// snapshot layout or the file's mode; and nothing at all when every state is still equal.
@Suite struct UpdateCommandTests {
    private let regression = ["SAMPLE_HOST_REGRESSION": "todos-toggle"]

    private func lines(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test func updatingTwiceKeepsTheFirstOriginal() async throws {
        // Given a golden updated once under the regression, so its original is kept as .orig
        let scratch = try Scratch()
        defer { scratch.remove() }
        let session = try scratch.copy("todos-basic.jsonl", as: "golden.jsonl")
        let original = try Data(contentsOf: URL(fileURLWithPath: session))
        let first = try await CLI.run(["update", session, "--no-build"], environment: regression)
        #expect(first.status == 0, "\(first.stderr)")

        // When the original reducer is accepted again, which changes the states back
        let second = try await CLI.run(["update", session, "--no-build"])

        // Then the first original is still in .orig, and the second backup is numbered and named
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("(the original is kept as \(session).orig.1)"), "\(second.stdout)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: session + ".orig")) == original)
        #expect(try Data(contentsOf: URL(fileURLWithPath: session)) == original)
    }

    @Test func onlyTheStatesThatChangedAreCountedAndNamed() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let session = try scratch.copy("todos-basic.jsonl", as: "golden.jsonl")
        let outcome = try await CLI.run(["update", session, "--no-build", "--json"], environment: regression)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        let steps = document?["changedSteps"] as? [Int] ?? []
        #expect(document?["changed"] as? Int == steps.count)
        #expect(document?["actions"] as? Int == 40)
        #expect(steps.first == 5 && steps.count < 40, "\(steps)")
        // Every step named changed, and no other did
        let before = try lines(CLI.session("todos-basic.jsonl")).dropFirst()
        let after = try lines(session).dropFirst()
        let differing = zip(before, after).enumerated().filter { $0.element.0 != $0.element.1 }.map { $0.offset + 1 }
        #expect(differing == steps)
    }

    @Test func anUpToDateSessionIsLeftUntouched() async throws {
        // Given a golden that the current reducers replay exactly, written a minute ago
        let scratch = try Scratch()
        defer { scratch.remove() }
        let session = try scratch.copy("todos-basic.jsonl", as: "golden.jsonl")
        let written = Date(timeIntervalSinceNow: -60)
        try FileManager.default.setAttributes([.modificationDate: written], ofItemAtPath: session)
        let before = try Data(contentsOf: URL(fileURLWithPath: session))

        // When it is updated
        let outcome = try await CLI.run(["update", session, "--no-build"])

        // Then it says so, and neither the bytes nor the time of the file changed, and no backup was made
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdout.hasPrefix(
                "\(session) is already up to date: all 40 recorded states equal the replayed ones; the file is left as it was\n"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: session)) == before)
        let modified = try FileManager.default.attributesOfItem(atPath: session)[.modificationDate] as? Date
        #expect(modified.map { abs($0.timeIntervalSince(written)) < 1 } == true)
        #expect(!FileManager.default.fileExists(atPath: session + ".orig"))
    }

    @Test func anEffectThatChangedIsNamedAndFailsTheUpdateInsteadOfPassingForAnAcceptedOne() async throws {
        // Given a golden with replayable effects, and a host whose post-score effect now words a failed post otherwise
        let scratch = try Scratch()
        defer { scratch.remove() }
        let session = try scratch.copy("scoreboard-match.jsonl", as: "golden.jsonl")
        let before = try Data(contentsOf: URL(fileURLWithPath: session))

        // When it is updated
        let outcome = try await CLI.run(["update", session, "--no-build"], environment: ["SAMPLE_HOST_REGRESSION": "score-post"])

        // Then its states are up to date, but update says the effect runs still diverge and exits 1, the file as it was
        #expect(outcome.status == 1, "\(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        let expected: String =
            "\(session): its recorded states are up to date (all 78 equal the replayed ones) and the file is left "
            + "as it was, but 7 effect runs still diverge from the recording, the first at step 10 effect 'post "
            + "score': sent postFailed with another payload, at postFailed.reason; update rewrites recorded states "
            + "only: record the session again to accept an effect's change"
        #expect(lines.first == expected)
        #expect(lines.count == 2 && lines.last?.hasPrefix("replayed through ") == true, "\(outcome.stdout)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: session)) == before)

        // And its JSON counts the runs and names the first
        let json = try await CLI.run(
            ["update", session, "--no-build", "--json"], environment: ["SAMPLE_HOST_REGRESSION": "score-post"])
        #expect(json.status == 1)
        let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(document?["effectsDiverging"] as? Int == 7)
        #expect(
            document?["firstEffectDivergence"] as? String
                == "step 10 effect 'post score': sent postFailed with another payload, at postFailed.reason")
    }

    @Test func theHeaderAndTheFileModeStay() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let session = try scratch.copy("todos-basic.jsonl", as: "golden.jsonl")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: session)
        let header = try lines(session)[0]

        let outcome = try await CLI.run(["update", session, "--no-build"], environment: regression)

        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(try FileManager.default.attributesOfItem(atPath: session)[.posixPermissions] as? Int == 0o600)
        #expect(try lines(session)[0] == header)
    }

    @Test func aDeltaSessionStaysADeltaSession() async throws {
        // Given the delta-snapshot sample: patches between keyframes
        let scratch = try Scratch()
        defer { scratch.remove() }
        let session = try scratch.copy("todos-delta.jsonl", as: "delta.jsonl")
        let before = try lines(session)
        let originalSize = try Data(contentsOf: URL(fileURLWithPath: session)).count

        // When it is updated under the regression, which changes most of its states
        let outcome = try await CLI.run(["update", session, "--no-build"], environment: regression)
        #expect(outcome.status == 0, "\(outcome.stderr)")

        // Then every patch line is still a patch line and every full state still a full state, the size stays
        // patch-sized, and the rewritten file replays as a match under the reducer it accepted
        let after = try lines(session)
        #expect(after.map { $0.contains(#""patch":"#) } == before.map { $0.contains(#""patch":"#) })
        let size = try Data(contentsOf: URL(fileURLWithPath: session)).count
        #expect(Double(size) < Double(originalSize) * 1.25, "\(originalSize) -> \(size) bytes")
        let replay = try await CLI.run(["diff", session, "--no-build"], environment: regression)
        #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
    }
}
