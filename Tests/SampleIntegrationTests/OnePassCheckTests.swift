import Foundation
import SampleReplayStores
import StoreKitCore
import StoreKitReplay
import Testing

/// The replay host checks a session in one reading (``ReplayEngine/check(reader:contextActions:)``); what it finds
/// is what the drift check, the replay and the context read separately find.
@Suite struct OnePassCheckTests {
    static let storeSets: [(String, [ReplayableStore])] = [
        ("as recorded", SampleStores.all), ("todo toggle regression", SampleStores.withTodoToggleRegression),
        ("rehearsal advance regression", SampleStores.withRehearsalAdvanceRegression),
        ("no stores", []),
    ]

    @Test(arguments: SampleSessions.paths)
    func oneReadingFindsWhatThreeReadingsFind(path: String) throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        // The same session written with spaces, so that no line holds its state's canonical bytes
        let spaced = Array(
            String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\":", with: "\": ").utf8)
        for (name, stores) in Self.storeSets {
            for findAll in [false, true] {
                for context in [0, 2] {
                    for input in [bytes, spaced] {
                        let engine = ReplayEngine(stores: stores, options: ReplayEngine.Options(findAllDivergences: findAll))
                        let drift = try engine.checkDrift(reader: SessionReader(bytes: input, source: "s"))
                        var report = try engine.replay(reader: SessionReader(bytes: input, source: "s"))
                        try report.attachPrecedingActions(context, from: SessionReader(bytes: input, source: "s"))

                        let check = try engine.check(reader: SessionReader(bytes: input, source: "s"), contextActions: context)

                        #expect(check.drift == drift, "\(path), \(name), findAll \(findAll), context \(context)")
                        #expect(check.report == report, "\(path), \(name), findAll \(findAll), context \(context)")
                    }
                }
            }
        }
    }

    @Test func aChangedStateInALineIsADivergenceThoughTheRestOfTheLineIsAsRecorded() throws {
        // Given the counter session with the count after step 3 changed in its line
        let text = try String(contentsOfFile: SampleSessions.path("counter-basic.jsonl"), encoding: .utf8)
        var lines = text.split(separator: "\n").map(String.init)
        lines[3] = lines[3].replacingOccurrences(of: #""state":{"count":3,"#, with: #""state":{"count":4,"#)
        let session = Array((lines.joined(separator: "\n") + "\n").utf8)

        // When it is checked
        let check = try ReplayEngine(stores: SampleStores.all).check(reader: SessionReader(bytes: session, source: "s"), contextActions: 0)

        // Then the replay diverges at step 3
        guard case .diverged(let divergence) = check.report.verdict else {
            Issue.record("expected a divergence, got \(check.report.verdict)")
            return
        }
        #expect(divergence.step == 3)
    }
}
