import Foundation
import StoreKitJSON
import Testing

/// Objects whose members the canonical writer reorders, where the members that move outweigh the rest of what it
/// has written (a state whose large list comes first among keys that sort after it) and where they do not.
private enum Reordered {
    struct Row: Codable {
        var zeta: String
        var alpha: Int
    }

    /// A large member that moves behind a small one, between a member that stays first and one that stays last.
    struct Middle: Codable {
        var aFirst: Int
        var rows: [Row]
        var note: String
        var zLast: [Int]
    }

    /// The root's large member moves behind the next two, and its last member stays last; inside it, objects
    /// whose members move too.
    struct Root: Codable {
        var rows: [Row]
        var middle: Middle
        var count: Int
        var zLast: Bool
    }

    static func root(rows: Int) -> Root {
        let list = (0..<rows).map { Row(zeta: "row \($0) \u{E9}", alpha: $0) }
        return Root(
            rows: list, middle: Middle(aFirst: 1, rows: Array(list.prefix(rows / 2)), note: "n", zLast: [1, 2]),
            count: rows, zLast: true)
    }
}

@Suite struct CanonicalReorderTests {
    /// The canonical bytes of `value` as `JSONValue` writes them, from Foundation's encoding: an oracle that shares
    /// nothing with the canonical writer's reordering.
    private func oracle(_ value: some Encodable) throws -> String {
        var bytes: [UInt8] = []
        try JSONValue(parsing: Array(JSONEncoder().encode(value))).writeCanonical(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test(arguments: [0, 1, 3, 200])
    func membersThatMoveAreWrittenInKeyOrderWhateverTheirShareOfTheBytes(rows: Int) throws {
        let value = Reordered.root(rows: rows)
        let written = String(decoding: try CanonicalJSONEncoder().encodeToBytes(value), as: UTF8.self)
        #expect(written == (try oracle(value)))
        #expect(written.hasPrefix(#"{"count":\#(rows),"middle":{"aFirst":1,"note":"n","rows":["#))
        #expect(written.hasSuffix(#","zLast":true}"#))
    }

    @Test func aWriterUsedAgainWritesTheSameBytesAfterAReorderThatTradedItsBuffers() throws {
        let encoder = CanonicalJSONEncoder()
        var value = Reordered.root(rows: 50)
        for step in 0..<5 {
            value.rows.append(Reordered.Row(zeta: "added \(step)", alpha: -step))
            let written = String(decoding: try encoder.encodeToBytes(value), as: UTF8.self)
            #expect(written == (try oracle(value)), "step \(step)")
        }
    }
}
