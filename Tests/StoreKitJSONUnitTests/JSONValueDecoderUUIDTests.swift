import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import Testing

/// The decoder reads a UUID in its usual form itself, and anything else as `UUID(from:)` does.
@Suite struct JSONValueDecoderUUIDTests {
    struct Holder: Codable, Equatable {
        var id: UUID
    }

    @Test(arguments: [
        "0BB980A5-75A8-4661-BEC0-8AA83B63F1EE", "0bb980a5-75a8-4661-bec0-8aa83b63f1ee", "0Bb980A5-75a8-4661-BEC0-8aa83b63F1eE",
        "00000000-0000-0000-0000-000000000000", "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF",
    ])
    func aUUIDInItsUsualFormReadsAsFoundationReadsIt(text: String) throws {
        let decoded = try JSONValueDecoder().decode(Holder.self, from: .object(["id": .string(text)]))
        #expect(decoded.id == UUID(uuidString: text))
    }

    @Test(arguments: [
        "0BB980A5-75A8-4661-BEC0-8AA83B63F1E", "0BB980A5-75A8-4661-BEC0-8AA83B63F1EEE", "0BB980A575A84661BEC08AA83B63F1EE",
        "0BB980A5_75A8-4661-BEC0-8AA83B63F1EE", "0BB980G5-75A8-4661-BEC0-8AA83B63F1EE", "",
    ])
    func otherTextIsRefusedAsFoundationRefusesIt(text: String) {
        let foundation = try? JSONDecoder().decode(Holder.self, from: Data(#"{"id":"\#(text)"}"#.utf8))
        let decoded = try? JSONValueDecoder().decode(Holder.self, from: .object(["id": .string(text)]))
        #expect(decoded == foundation)
    }
}
