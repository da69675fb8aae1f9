import Foundation
import Testing

@testable import ReplayDaemon

@Suite struct SessionRetentionTests {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    private func file(_ name: String, bytes: UInt64 = 100, hoursOld: Double) -> SessionRetention.StoredFile {
        .init(name: name, bytes: bytes, modified: now.addingTimeInterval(-hoursOld * 3600))
    }

    @Test func ageAndSizeRemoveTheOldestFinishedSessionsAndNeverAnOpenOne() {
        let files = [
            file("new", bytes: 400, hoursOld: 1), file("old-open", bytes: 400, hoursOld: 50),
            file("old", bytes: 400, hoursOld: 49), file("mid", bytes: 400, hoursOld: 10), file("mid2", bytes: 400, hoursOld: 5),
        ]
        let retention = SessionRetention(maxAge: .seconds(48 * 3600), maxBytes: 1000)

        let removals = retention.removals(of: files, open: ["old-open"], now: now)

        // The 50-hour-old open one stays; the 49-hour-old one is too old; the open one's 400 bytes still count, so
        // of the rest (1,600 bytes) the two oldest go to get within 1,000
        #expect(removals.map(\.file.name) == ["old", "mid", "mid2"])
        #expect(removals.map(\.reason) == [.maxAge, .maxBytes, .maxBytes])
    }

    @Test func withoutLimitsNothingGoes() {
        let retention = SessionRetention()
        #expect(!retention.isEnabled)
        #expect(retention.removals(of: [file("ancient", hoursOld: 10_000)], open: [], now: now).isEmpty)
    }

    @Test func aShortAgeIsCheckedMoreOften() {
        #expect(SessionRetention(maxAge: .seconds(2)).checkInterval == .seconds(1))
        #expect(SessionRetention(maxAge: .seconds(120)).checkInterval == .seconds(30))
        #expect(SessionRetention(maxBytes: 10).checkInterval == .seconds(60))
    }
}
