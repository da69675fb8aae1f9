import Foundation
import Testing

@testable import StoreKitCore

/// A state shaped like an app's: nested structs and enums, arrays of them, a set, a class and a value that is not
/// `Equatable`, so every kind of part goes through the memo.
private enum Shop {
    struct Item: Codable, Equatable {
        var id: Int
        var name: String
        var tags: [String]
        var price: Double
        var stock: Stock
    }

    enum Stock: Codable, Equatable {
        case inStock(Int)
        case soldOut
    }

    final class Cache: Codable {
        var hits: Int
        init(hits: Int) { self.hits = hits }
    }

    struct Unequatable: Codable {
        var note: String
    }

    struct State: Codable {
        var items: [Item]
        var filters: Set<String>
        var cache: Cache
        var meta: Unequatable
        var nested: [[Item]]
    }
}

/// A type whose `==` ignores a stored property, which the memo is documented to trust.
private struct IgnoresNote: Codable, Equatable {
    var id: Int
    var note: String
    static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id }
}

@Suite struct EncodingMemoTests {
    private let encoder = CanonicalJSONEncoder()

    @Test func aSeriesOfChangingStatesEncodesToExactlyTheBytesOfEncodingEachAlone() throws {
        var random = SeededRandom(seed: 42)
        func item(_ id: Int) -> Shop.Item {
            Shop.Item(
                id: id, name: "item \(id)", tags: ["t\(id % 3)", "u\(id % 5)"], price: Double(id) + 0.5,
                stock: id % 4 == 0 ? .soldOut : .inStock(id))
        }
        var state = Shop.State(
            items: (0..<40).map(item), filters: ["a", "b"], cache: Shop.Cache(hits: 0),
            meta: Shop.Unequatable(note: "n"), nested: [[item(1)], [item(2), item(3)]])
        let memo = EncodingMemo()
        for step in 0..<400 {
            // One change per step, of every kind: in place, inserted, removed, moved, nested, in a class.
            let index = Int(random.next() % UInt64(max(state.items.count, 1)))
            switch step % 9 {
            case 0: state.items[index].price += 1
            case 1: state.items.insert(item(1000 + step), at: 0)
            case 2: if !state.items.isEmpty { state.items.remove(at: index) }
            case 3: state.items[index].tags.append("new")
            case 4: state.cache.hits += 1  // a class changed in place: never taken from the memo
            case 5: state.meta.note += "!"
            case 6: state.nested[step % 2].append(item(step))
            case 7: state.filters.insert("f\(step)")
            default: break  // no change at all
            }
            let reused = String(decoding: try encoder.encodeToBytes(state, reusing: memo), as: UTF8.self)
            let alone = String(decoding: try encoder.encodeToBytes(state), as: UTF8.self)
            #expect(reused == alone, "step \(step)")
            if reused != alone { return }
        }
    }

    @Test func equalPartsAreCopiedFromTheLastValueInsteadOfEncodedAgain() throws {
        // A type whose == ignores `note` shows that the memo took its bytes from the last value: that is why
        // reusing is off by default and documented to trust ==.
        let memo = EncodingMemo()
        let first = [IgnoresNote(id: 1, note: "old"), IgnoresNote(id: 2, note: "old")]
        _ = try encoder.encodeToBytes(first, reusing: memo)
        let second = [IgnoresNote(id: 1, note: "new"), IgnoresNote(id: 3, note: "new")]
        let reused = String(decoding: try encoder.encodeToBytes(second, reusing: memo), as: UTF8.self)
        #expect(reused == #"[{"id":1,"note":"old"},{"id":3,"note":"new"}]"#)
        #expect(String(decoding: try encoder.encodeToBytes(second), as: UTF8.self)
            == #"[{"id":1,"note":"new"},{"id":3,"note":"new"}]"#)
    }

    @Test func anEncodingThatFallsBackLeavesTheMemoEmptyAndLaterEncodingsRight() throws {
        let memo = EncodingMemo()
        let good = [[1.0, 2.0], [3.0]]
        _ = try encoder.encodeToBytes(good, reusing: memo)
        // NaN cannot be written: the encoding throws, and the memo forgets what it held.
        #expect(throws: EncodingError.self) { try encoder.encodeToBytes([[1.0, 2.0], [Double.nan]], reusing: memo) }
        let after = [[1.0, 2.0], [4.0]]
        #expect(try encoder.encodeToBytes(after, reusing: memo) == encoder.encodeToBytes(after))
    }

    @Test func aRecorderReusingEqualPartsWritesTheSameStatesAsOneEncodingEverything() throws {
        func record(reusing: Bool) throws -> [JSONValue?] {
            var initial = Tally.State()
            initial.items = Array(0..<300)
            let transport = MemoryTransport()
            let store = Store(initialState: initial, reducer: Tally.reducer)
            let recorder = store.startRecording(
                .init(storeID: "tally", app: AppInfo(name: "T"), reusesEncodingOfEqualParts: reusing), to: transport)
            for value in 1...50 { store.dispatch(value % 7 == 0 ? .label("l\(value)") : .add(value)) }
            recorder.finish()
            return try transport.session().actions.map(\.state)
        }
        let reused = try record(reusing: true)
        #expect(reused.count == 50)
        #expect(reused == (try record(reusing: false)))
    }
}
