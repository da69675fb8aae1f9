import StoreKitJSON
import Testing

/// Arrays whose elements hold the same ids in the same order are matched by id only when those ids are distinct.
@Suite struct IdentifiedMatchingTests {
    @Test(arguments: [
        // Integers increasing, decreasing, repeated at the end and at the start, strings, and a repeat apart
        ("[1,2,3]", "items[id: 2].q"),
        ("[3,2,1]", "items[id: 2].q"),
        ("[1,2,2]", "items[1].q"),
        ("[2,2,3]", "items[1].q"),
        (#"["a","b","c"]"#, "items[id: b].q"),
        ("[1,2,1]", "items[1].q"),
    ])
    func theSameIDsInTheSameOrderMatchByIDOnlyWhenDistinct(ids: String, path: String) throws {
        // Given two arrays of elements with these ids, where the second element's q changed
        let ids = try #require(try JSONValue(parsing: ids).arrayValue)
        func items(changedAt changed: Int?) -> JSONValue {
            .object([
                "items": .array(
                    ids.enumerated().map { index, id in .object(["id": id, "q": .integer(index == changed ? 1 : 0)]) })
            ])
        }

        // When they are diffed
        let diff = StateDiff(from: items(changedAt: nil), to: items(changedAt: 1))

        // Then the change is named by id, or by position when the ids repeat
        #expect(diff.changes.map(\.path.description) == [path])
    }
}
