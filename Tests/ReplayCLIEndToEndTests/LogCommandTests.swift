import Foundation
import Testing

@Suite struct LogCommandTests {
    @Test func logPrintsLongCasePathNamesWholeWithTheColumnsAligned() async throws {
        // Given a session of a feature nested five deep: names of 9 to 63 characters, one action from an effect
        let header = try String(contentsOfFile: CLI.session("counter-basic.jsonl"), encoding: .utf8)
            .split(separator: "\n")[0]
        func action(_ seq: Int, _ name: String, origin: String, count: Int) -> String {
            #"{"action":{"increment":{}},"kind":"action","name":"\#(name)","origin":\#(origin),"seq":\#(seq),"state":{"count":\#(count),"step":1},"time":0.\#(seq)}"#
        }
        let lines = [
            String(header),
            action(1, "path.element.detail.destination.presented.alert.confirmDeletion", origin: #""app""#, count: 1),
            action(2, "increment", origin: #""app""#, count: 1),
            action(3, "path.element.record.timerTick", origin: #""effect","cause":1"#, count: 2),
            #"{"actions":3,"dropped":0,"kind":"end","reason":"finished","time":0.5}"#,
        ]
        let path = "/tmp/skr-log-\(UUID().uuidString.prefix(8)).jsonl"
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }

        // When it is logged
        let outcome = try await CLI.run(["log", path])

        // Then every name is whole, last on its line, after columns of fixed width
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdout == """
                session 67abae19-bf92-42ab-8766-3ef5d45410a3, store "counter", SampleApp 1.0, started 2026-11-22T23:19:33.503Z
                     1     0.100s  app              1 change     path.element.detail.destination.presented.alert.confirmDeletion
                     2     0.200s  app              0 changes    increment
                     3     0.300s  effect of 1      1 change     path.element.record.timerTick
                     - end: finished after 0.500 s, 3 actions, 0 dropped

                """)
    }
}
