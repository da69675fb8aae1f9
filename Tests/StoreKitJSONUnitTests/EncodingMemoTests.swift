import Foundation
import Synchronization
import SampleSupport
import Testing

@testable import StoreKitJSON

/// A state shaped like an app's: nested structs and enums, arrays of them, a set, strings, doubles and a value that
/// is not `Equatable`, so every kind of part goes through the memo.
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

    struct Unequatable: Codable {
        var note: String
    }

    struct State: Codable {
        var items: [Item]
        var filters: Set<String>
        var meta: Unequatable
        var nested: [[Item]]
        var byName: [String: Item]
    }
}

/// A class, whose instances a part may share and change in place: what the memo is documented not to see.
private final class Counter: Codable {
    var count: Int
    init(count: Int) { self.count = count }
}

/// A struct of values whose encodings are counted (only one test encodes it, so the count is its own).
private struct Label: Encodable {
    static let encodings = Mutex(0)
    var text: String

    func encode(to encoder: any Encoder) throws {
        Self.encodings.withLock { $0 += 1 }
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

/// A class whose instances alive are counted (only one test makes them, so the count is its own).
private final class Tracked: Encodable {
    static let alive = Mutex(0)
    let id: Int

    init(id: Int) {
        self.id = id
        Self.alive.withLock { $0 += 1 }
    }

    deinit { Self.alive.withLock { $0 -= 1 } }
}

private struct Holder: Codable {
    var id: Int
    var counter: Counter
}

@Suite struct EncodingMemoTests {
    private let encoder = CanonicalJSONEncoder()

    @Test(arguments: [EncodingMemo.PartReuse.everyPart, .provenValueParts])
    func aSeriesOfChangingStatesEncodesToExactlyTheBytesOfEncodingEachAlone(reuse: EncodingMemo.PartReuse) throws {
        var random = SeededRandom(seed: 42)
        func item(_ id: Int) -> Shop.Item {
            Shop.Item(
                id: id, name: "item \(id)", tags: ["t\(id % 3)", "u\(id % 5)"], price: Double(id) + 0.5,
                stock: id % 4 == 0 ? .soldOut : .inStock(id))
        }
        var state = Shop.State(
            items: (0..<40).map(item), filters: ["a", "b"],
            meta: Shop.Unequatable(note: "n"), nested: [[item(1)], [item(2), item(3)]],
            byName: ["b": item(4), "a": item(5)])
        let memo = EncodingMemo(reuse: reuse)
        for step in 0..<400 {
            // One change per step, of every kind: in place, inserted, removed, nested, to -0.0, to an equal string.
            let index = Int(random.next() % UInt64(max(state.items.count, 1)))
            switch step % 10 {
            case 0: state.items[index].price += 1
            case 1: state.items.insert(item(1000 + step), at: 0)
            case 2: if !state.items.isEmpty { state.items.remove(at: index) }
            case 3: state.items[index].tags.append("new")
            case 4:
                // Equal by ==, yet written differently: bits tell them apart.
                state.items[index].price = state.items[index].price == 0 ? -0.0 : 0
                state.items[(index + 1) % state.items.count].name =
                    step % 2 == 0 ? "caf\u{E9}" : "cafe\u{301}"
            case 5:
                state.meta.note += "!"
                state.byName["k\(step % 7)"] = item(step)
            case 6: state.nested[step % 2].append(item(step))
            case 7: state.filters.insert("f\(step)")
            case 8:
                // Another enum case in a part's field, of a payload or of none.
                state.items[index].stock = state.items[index].stock == .soldOut ? .inStock(step) : .soldOut
            default: break  // no change at all
            }
            let reused = String(decoding: try encoder.encodeToBytes(state, reusing: memo), as: UTF8.self)
            let alone = String(decoding: try encoder.encodeToBytes(state), as: UTF8.self)
            #expect(reused == alone, "step \(step)")
            if reused != alone { return }
        }
    }

    @Test func unchangedPartsAreCopiedFromTheLastValueInsteadOfEncodedAgain() throws {
        // A class instance changed in place leaves the bits of the part holding it as they were, so the part is
        // copied from the last value: that shows the reuse, and is why the memo is for states of value types.
        let memo = EncodingMemo()
        let shared = Counter(count: 1)
        let holders = [Holder(id: 1, counter: shared), Holder(id: 2, counter: Counter(count: 5))]
        _ = try encoder.encodeToBytes(holders, reusing: memo)
        shared.count = 2
        var changed = holders
        changed[1].id = 3
        let reused = String(decoding: try encoder.encodeToBytes(changed, reusing: memo), as: UTF8.self)
        #expect(reused == #"[{"counter":{"count":1},"id":1},{"counter":{"count":5},"id":3}]"#)
        #expect(String(decoding: try encoder.encodeToBytes(changed), as: UTF8.self)
            == #"[{"counter":{"count":2},"id":1},{"counter":{"count":5},"id":3}]"#)
    }

    @Test func aMemoOfProvenPartsEncodesAgainAPartHoldingAClassSoItSeesAChangeInPlace() throws {
        // The same class changed in place as above: a part holding a class is not proven to hold values only
        let memo = EncodingMemo(reuse: .provenValueParts)
        let shared = Counter(count: 1)
        let holders = [Holder(id: 1, counter: shared), Holder(id: 2, counter: Counter(count: 5))]
        _ = try encoder.encodeToBytes(holders, reusing: memo)
        shared.count = 2
        #expect(String(decoding: try encoder.encodeToBytes(holders, reusing: memo), as: UTF8.self)
            == #"[{"counter":{"count":2},"id":1},{"counter":{"count":5},"id":2}]"#)
    }

    @Test func aMemoOfProvenPartsCopiesAnUnchangedPartOfValuesFromTheLastValue() throws {
        // Given an array of structs of a string, encoded once
        let memo = EncodingMemo(reuse: .provenValueParts)
        let labels = [Label(text: "one"), Label(text: "two")]
        _ = try encoder.encodeToBytes(labels, reusing: memo)
        // When it is encoded again, unchanged
        let again = try encoder.encodeToBytes(labels, reusing: memo)
        // Then its elements are copied, not encoded: each was encoded once
        #expect(Label.encodings.withLock { $0 } == 2)
        #expect(again == (try encoder.encodeToBytes([Label(text: "one"), Label(text: "two")])))
    }

    @Test func theCopiesOfAPartThatChangesAtEveryValueAreLetGoOfAsTheyGoStale() throws {
        // Given a memo and a series of values, each a new array holding a new instance counted while alive
        let memo = EncodingMemo(reuse: .everyPart)
        for step in 0..<300 {
            _ = try encoder.encodeToBytes([[Tracked(id: step)]], reusing: memo)
        }
        // Then the memo holds a few of the 300 arrays it copied, not hundreds
        #expect(Tracked.alive.withLock { $0 } <= 12)
    }

    @Test func aMemoThatKeepsOnlyItsWriterEncodesEveryValueInFull() throws {
        // The same class changed in place as above: a memo that does not reuse parts sees the change.
        let memo = EncodingMemo(reuse: .never)
        let shared = Counter(count: 1)
        let holders = [Holder(id: 1, counter: shared)]
        _ = try encoder.encodeToBytes(holders, reusing: memo)
        shared.count = 2
        #expect(String(decoding: try encoder.encodeToBytes(holders, reusing: memo), as: UTF8.self)
            == #"[{"counter":{"count":2},"id":1}]"#)
        // Objects whose keys come in another order or number reuse the writer's key orders correctly.
        let dictionaries: [[String: Int]] = [["b": 1, "a": 2], ["a": 1], ["c": 3, "a": 0, "b": 2], [:]]
        for value in dictionaries {
            #expect(try encoder.encodeToBytes(value, reusing: memo) == encoder.encodeToBytes(value))
        }
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

    @Test func aPartWhoseCopyDiffersOnlyInItsPaddingIsCopiedFromTheLastValue() throws {
        // Given two arrays of the same elements whose bytes differ only in the padding after each `flag`
        let first = [Padded.made(flag: true, number: 1, padding: 0x00), Padded.made(flag: false, number: 2, padding: 0x00)]
        let second = [Padded.made(flag: true, number: 1, padding: 0xAB), Padded.made(flag: false, number: 2, padding: 0xAB)]
        #expect(first.withUnsafeBytes { Array($0) } != second.withUnsafeBytes { Array($0) })

        // When the second is encoded after the first with a memo
        let memo = EncodingMemo()
        _ = try encoder.encodeToBytes(first, reusing: memo)
        Padded.encodings.withLock { $0 = 0 }
        let reused = try encoder.encodeToBytes(second, reusing: memo)

        // Then each element is copied from the first, not encoded again, and the bytes are those of encoding it alone
        #expect(Padded.encodings.withLock { $0 } == 0)
        #expect(reused == (try encoder.encodeToBytes(second)))
        // And a real change inside is still seen
        let changed = [Padded.made(flag: true, number: 1, padding: 0x11), Padded.made(flag: true, number: 2, padding: 0x11)]
        #expect(try encoder.encodeToBytes(changed, reusing: memo) == encoder.encodeToBytes(changed))
    }

    @Test(arguments: [EncodingMemo.PartReuse.everyPart, .provenValueParts])
    func anArrayWhoseElementNestsDeeperThanTheWritersStackKeepsItsOtherElementsRight(
        reuse: EncodingMemo.PartReuse
    ) throws {
        // Given an array between two elements nested 40 levels deep (80 open frames: the writer's stack grows and
        // moves while the array is being written), encoded with a new memo and then changed deep inside
        func nested(_ depth: Int, label: String) -> Node {
            depth == 0 ? Node(label: label, children: []) : Node(label: "level \(depth)", children: [nested(depth - 1, label: label)])
        }
        var nodes = [nested(40, label: "first"), Node(label: "flat", children: []), nested(40, label: "last")]
        let memo = EncodingMemo(reuse: reuse)
        #expect(try encoder.encodeToBytes(nodes, reusing: memo) == encoder.encodeToBytes(nodes))

        // When the first element changes at its deepest level and the array is encoded again
        nodes[0] = nested(40, label: "changed")
        let reused = try encoder.encodeToBytes(nodes, reusing: memo)

        // Then the bytes are those of encoding it alone: the unchanged elements copied after it, with their commas
        #expect(String(decoding: reused, as: UTF8.self) == String(decoding: try encoder.encodeToBytes(nodes), as: UTF8.self))
    }

    @Test func theDataBytesOfAStructLeaveOutItsPaddingAndCountEnumsAndReferencesWhole() {
        // A Bool, seven bytes of padding, an Int
        #expect(DataBytes.mask(of: Padded.self) == [0xFF] + Array(repeating: 0, count: 7) + Array(repeating: 0xFF, count: 8))
        // A struct inside a struct is followed into; an optional counts whole
        #expect(DataBytes.mask(of: Wrapping.self)
            == [0xFF] + Array(repeating: 0, count: 7) + Array(repeating: 0xFF, count: 8) + Array(repeating: 0xFF, count: 9))
        // An enum, a class and a tuple count whole
        #expect(DataBytes.mask(of: Shop.Stock.self) == Array(repeating: 0xFF, count: MemoryLayout<Shop.Stock>.size))
        #expect(DataBytes.mask(of: Counter.self) == Array(repeating: 0xFF, count: 8))
    }
}

/// A struct with padding: a `Bool`, then an `Int` on its 8-byte boundary. Its encodings are counted.
private struct Padded: Encodable {
    var flag: Bool
    var number: Int

    static let encodings = Mutex(0)

    func encode(to encoder: any Encoder) throws {
        Self.encodings.withLock { $0 += 1 }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(flag, forKey: .flag)
        try container.encode(number, forKey: .number)
    }

    private enum CodingKeys: String, CodingKey {
        case flag, number
    }

    /// One made in memory filled with `padding` first, so that its padding bytes hold it.
    static func made(flag: Bool, number: Int, padding: UInt8) -> Padded {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<Padded>.size, alignment: 8)
        defer { memory.deallocate() }
        memory.initializeMemory(as: UInt8.self, repeating: padding, count: MemoryLayout<Padded>.size)
        memory.storeBytes(of: flag, toByteOffset: MemoryLayout<Padded>.offset(of: \.flag)!, as: Bool.self)
        memory.storeBytes(of: number, toByteOffset: MemoryLayout<Padded>.offset(of: \.number)!, as: Int.self)
        return memory.load(as: Padded.self)
    }
}

/// A tree of values: an array of nodes in each node.
private struct Node: Codable {
    var label: String
    var children: [Node]
}

private struct Wrapping {
    var inner: Padded
    var maybe: Int?
}
