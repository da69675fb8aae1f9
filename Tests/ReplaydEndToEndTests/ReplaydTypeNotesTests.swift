import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import Testing

/// A header with type notes, sent by a real recorder through the real daemon: accepted and stored as sent.
@Suite struct ReplaydTypeNotesTests {
    private struct Clock: Codable, Equatable, Sendable {
        var startedAt = Date(timeIntervalSince1970: 1_795_428_000)
        var elapsed: Duration = .seconds(180)
    }

    private enum ClockAction: Codable, Equatable, Sendable {
        case restart
    }

    @Test func aHeaderWithTypeNotesIsStoredAsTheRecorderSentItAndReadsBack() async throws {
        // Given a daemon, and an app whose state holds a Date and a Duration, recording through it
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let daemon = try await DaemonProcess(folder: folder)
        let store = Store(
            initialState: Clock(), reducer: Reducer<Clock, ClockAction> { state, _ in state.elapsed = .seconds(6) })
        let recorder = store.startRecording(
            .init(storeID: "clock", app: AppInfo(name: "Tests", version: "1"), sessionID: "noted"),
            to: UnixSocketTransport(path: folder.socket, timeout: 2, firstRetryDelay: 0.01))

        // When it dispatches an action and finishes
        store.dispatch(.restart)
        let statistics = try await onOwnThread { recorder.finish(timeout: .seconds(60)) }
        #expect(statistics.isFinished)
        #expect(await daemon.stop() == 0)

        // Then the stored header holds the notes, in format 1, nothing was rejected, and the reader reads them back
        let name = "clock-noted.jsonl"
        let header = try #require(folder.lines(of: name).first)
        #expect(header.contains(#""format":1,"#), "\(header)")
        #expect(header.contains(#""typeNotes":{"dates":[["startedAt"]],"durations":[["elapsed"]]}"#), "\(header)")
        #expect(daemon.count("line.rejected") == 0)
        let session = try Session(contentsOf: folder.sessions + "/" + name)
        #expect(
            session.header.typeNotes
                == EncodedTypeNotes([.dates: [[.member("startedAt")]], .durations: [[.member("elapsed")]]]))
        #expect(session.actions.count == 1)
    }
}
