import Foundation
import StoreKitCore
import StoreKitReplay
import StoreKitTestFixtures
import Testing

/// A recorder reusing the encoding of unchanged parts (`reusesEncodingOfUnchangedParts`) writes what one encoding
/// everything writes.
@Suite struct RecorderEncodingReuseTests {
    @Test func aRecorderReusingUnchangedPartsWritesTheSameStatesAsOneEncodingEverything() throws {
        func record(reusing: Bool) throws -> [JSONValue?] {
            var initial = Tally.State()
            initial.items = Array(0..<300)
            let transport = MemoryTransport()
            let store = Store(initialState: initial, reducer: Tally.reducer)
            let recorder = store.startRecording(
                .init(storeID: "tally", app: AppInfo(name: "T"), reusesEncodingOfUnchangedParts: reusing), to: transport)
            for value in 1...50 { store.dispatch(value % 7 == 0 ? .label("l\(value)") : .add(value)) }
            recorder.finishWaitingGenerously()
            return try transport.session().actions.map(\.state)
        }
        let reused = try record(reusing: true)
        #expect(reused.count == 50)
        #expect(reused == (try record(reusing: false)))
    }
}
