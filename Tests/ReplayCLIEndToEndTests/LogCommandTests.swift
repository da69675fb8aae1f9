import Foundation
import Testing

@Suite struct LogCommandTests {
    @Test func logPrintsLongCasePathNamesWholeWithTheColumnsAligned() async throws {
        // Given a session of a feature nested five deep: actions of 9 to 90 characters, one action from an effect
        let header = try String(contentsOfFile: CLI.session("counter-basic.jsonl"), encoding: .utf8)
            .split(separator: "\n")[0]
        func action(_ seq: Int, _ name: String, _ json: String, origin: String, count: Int) -> String {
            #"{"action":\#(json),"kind":"action","name":"\#(name)","origin":\#(origin),"seq":\#(seq),"state":{"count":\#(count),"step":1},"time":0.\#(seq)}"#
        }
        let confirmDeletion = #"{"path":{"_0":{"element":{"action":{"detail":{"_0":{"destination":{"_0":{"presented":{"_0":{"alert":{"_0":{"confirmDeletion":{}}}}}}}}}},"id":0}}}}"#
        let timerTick = #"{"path":{"_0":{"element":{"action":{"record":{"_0":{"timerTick":{}}}},"id":0}}}}"#
        let lines = [
            String(header),
            action(1, "path.element.detail.destination.presented.alert.confirmDeletion", confirmDeletion, origin: #""app""#, count: 1),
            action(2, "increment", #"{"increment":{}}"#, origin: #""app""#, count: 1),
            action(3, "path.element.record.timerTick", timerTick, origin: #""effect","cause":1"#, count: 2),
            #"{"actions":3,"dropped":0,"kind":"end","reason":"finished","time":0.5}"#,
        ]
        let path = "/tmp/skr-log-\(UUID().uuidString.prefix(8)).jsonl"
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }

        // When it is logged
        let outcome = try await CLI.run(["log", path])

        // Then every action is whole, last on its line, after columns of fixed width
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdout == """
                session 67abae19-bf92-42ab-8766-3ef5d45410a3, store "counter", SampleApp 1.0, started 2026-11-22T23:19:33.503Z
                     1     0.100s  app              1 change     path(.element(action: .detail(.destination(.presented(.alert(.confirmDeletion)))), id: 0))
                     2     0.200s  app              0 changes    increment
                     3     0.300s  effect of 1      1 change     path(.element(action: .record(.timerTick), id: 0))
                     - end: finished after 0.500 s, 3 actions, 0 dropped

                """)
    }
}
