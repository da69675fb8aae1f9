import Foundation
import StoreKitTestFixtures
import StoreKitCore
import StoreKitReplay
import Testing

@testable import ReplayCommands

/// `--determinism` also compares what the session's rerun effects did in the two replays: an effect whose sends
/// differ between two reruns from the same recorded inputs is nondeterministic, named with its step.
@Suite struct HostDeterminismTests {
    /// Two scores, each posted.
    private let session = ScorePosting.session(scores: [2, 3])

    /// The report a host rerunning `effect` sends for the session.
    private func report(_ effect: Effect<ScorePosting.State, ScorePosting.Action>) -> ReplayReport {
        ReplayEngine(stores: [ReplayableStore(id: "posting", reducer: ScorePosting.reducer, effects: [effect])]).replay(session)
    }

    /// Runs the determinism check through a fake host that answers `states` with the reducer's states and `check` with
    /// `fixed` under `SWIFT_DETERMINISTIC_HASHING=1` and `random` otherwise, as a host whose effect reads the clock
    /// outside its context would.
    private func determinism(fixed: ReplayReport, random: ReplayReport) throws -> HostDeterminism.Finding? {
        let folder = NSTemporaryDirectory() + "determinism-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func write(_ name: String, _ messages: [HostMessage]) throws {
            try Data(messages.flatMap { $0.lineBytes() }).write(to: URL(fileURLWithPath: "\(folder)/\(name)"))
        }
        let header = SessionEvent.header(session.header).jsonValue
        try write("hello.jsonl", [.hello(stores: ["posting"])])
        try write("states.jsonl", session.actions.map { .state(HostMessage.ReplayedState(seq: $0.sequence, name: $0.name, state: $0.state)) } + [.result(HostMessage.Result(replayed: session.actions.count))])
        try write("fixed.jsonl", [.result(HostMessage.Result(session: 0, header: header, report: fixed.jsonValue))])
        try write("random.jsonl", [.result(HostMessage.Result(session: 0, header: header, report: random.jsonValue))])
        try Data(session.ndjson).write(to: URL(fileURLWithPath: "\(folder)/s.jsonl"))
        let script = """
            cat "\(folder)/hello.jsonl"
            case "$2" in
              *'"command":"check"'*) if [ "$SWIFT_DETERMINISTIC_HASHING" = 1 ]; then cat "\(folder)/fixed.jsonl"; else cat "\(folder)/random.jsonl"; fi ;;
              *) cat "\(folder)/states.jsonl" ;;
            esac

            """
        try Data(script.utf8).write(to: URL(fileURLWithPath: "\(folder)/host.sh"))
        // The shell reads the script rather than the kernel executing it (a file just written can be busy).
        let host = HostCommand(command: "/bin/sh \(folder)/host.sh", directory: folder, build: nil, origin: .option("--host"))
        return try HostDeterminism(host: host, timeout: 30).check(SessionInput(file: "\(folder)/s.jsonl", displayName: "s.jsonl"))
    }

    @Test func anEffectThatSendsOtherwiseInTheSecondReplayIsNondeterministicAtItsStep() throws {
        // Given a host whose effect sent as recorded in one replay and another receipt in the other
        let finding = try #require(
            try determinism(fixed: report(ScorePosting.postScore()), random: report(ScorePosting.postScore(breakingOn: 3))))

        // Then the finding names the effect, the step of the receipt and the run's cause as Swift writes it
        #expect(finding.step == 4)
        #expect(finding.oneLine == #"step 4, effect "post score" of step 3 scored(3)"#)
        guard case .effect(let disagreement) = finding.difference else {
            Issue.record("expected an effect's disagreement, got \(finding.difference)")
            return
        }
        #expect(disagreement.first == nil)
        #expect(disagreement.second?.cause == 3)
        #expect(
            HostDeterminism.explanationLines(of: finding, source: "s.jsonl").map(\.text) == [
                #"s.jsonl: nondeterministic at step 4 of 4: effect "post score", started by step 3 scored(3)"#,
                "  two reruns of the effect from the same recorded inputs did not do the same, so a diff against the recording means nothing until this is fixed",
                "  the effect reads something besides its action, its state and its context: Date() instead of context.clock, UUID() instead of context.uuid(), a Set's or Dictionary's order",
                "",
                "  replay with SWIFT_DETERMINISTIC_HASHING=1: the effect did as recorded",
                "",
                "  replay with a random hash seed:",
                "    the effect sent another action (- recorded at step 4, + sent)",
                "    - posted(receipt: 1003)",
                "    + posted(receipt: 1004)",
                "      {",
                #"        "posted": {"#,
                #"    -     "receipt": 1003"#,
                #"    +     "receipt": 1004"#,
                "        }",
                "      }",
            ])
        #expect(finding.jsonValue["effect"]?["secondReplay"]?["kind"] == .string("actionDiffers"))
    }

    @Test func anEffectThatDivergesTheSameWayInBothReplaysIsARegressionNotNondeterminism() throws {
        let broken = report(ScorePosting.postScore(breakingOn: 3))
        #expect(try determinism(fixed: broken, random: broken) == nil)
    }
}
