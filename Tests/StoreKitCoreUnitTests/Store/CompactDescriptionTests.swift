import Foundation
import StoreKitCore
import Testing

/// Nested features, as a real app nests them.
enum DescribedRehearse {
    enum Action { case saveTapped, rename(name: String), scheduled(at: Int?) }
}

enum DescribedPath {
    enum Action { case element(id: Int, action: DescribedRehearse.Action), popFrom(id: Int) }
}

enum DescribedApp {
    struct Tag: Hashable { var name: String }
    enum Action {
        case path(DescribedPath.Action)
        case tagged(Tag, [String], Set<Int>, [String: Int])
        case opened(UUID)
        case reset
    }
}

@Suite struct CompactDescriptionTests {
    @Test(arguments: [
        (DescribedApp.Action.path(.element(id: 1, action: .saveTapped)), "path(.element(id: 1, action: .saveTapped))"),
        (
            DescribedApp.Action.path(.element(id: 2, action: .rename(name: "Ada"))),
            #"path(.element(id: 2, action: .rename(name: "Ada")))"#
        ),
        (
            DescribedApp.Action.path(.element(id: 3, action: .scheduled(at: nil))),
            "path(.element(id: 3, action: .scheduled(at: nil)))"
        ),
        (
            DescribedApp.Action.path(.element(id: 3, action: .scheduled(at: 9))),
            "path(.element(id: 3, action: .scheduled(at: 9)))"
        ),
        (DescribedApp.Action.path(.popFrom(id: 4)), "path(.popFrom(id: 4))"),
        (
            DescribedApp.Action.tagged(.init(name: "x"), ["a"], [2, 1], ["b": 2, "a": 1]),
            #"tagged(Tag(name: "x"), ["a"], [1, 2], ["a": 1, "b": 2])"#
        ),
        (
            DescribedApp.Action.opened(UUID(uuidString: "00000000-0000-0000-0000-000000000001")!),
            "opened(00000000-0000-0000-0000-000000000001)"
        ),
        (DescribedApp.Action.reset, "reset"),
    ])
    func describesAnActionAsSwiftSourceWritesIt(action: DescribedApp.Action, expected: String) {
        #expect(CompactDescription(action).description == expected)
    }
}
