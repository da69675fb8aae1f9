import Foundation
import Testing

@testable import StoreKitJSON

/// Types whose values a state may hold, proven or not to hold values only.
private enum Shapes {
    enum Filter { case all, open, done }
    enum Load { case idle, loaded([Int]) }
    final class Box { var count = 0 }

    struct Todo {
        var id: UUID
        var title: String
        var tags: [String]
        var due: Date?
        var filter: Filter
        var notes: [String: [Int]]
        var seen: Set<Int>
        var attachment: Data
        var link: URL?
        var position: (x: Double, y: Double)
    }

    /// A tree: a node holds an array of nodes.
    struct Node {
        var name: String
        var children: [Node]
    }

    struct HoldingABox { var box: Box }
    struct HoldingALoad { var load: Load }
    struct HoldingAPointer { var pointer: UnsafeMutablePointer<Int> }
    struct HoldingAnExistential { var value: any Codable }
    struct HoldingAClosure { var make: () -> Int }
    struct HoldingBoxesDeepDown { var todos: [[String: [Box]]] }
}

@Suite struct ValueOnlyTypesTests {
    @Test func structsOfScalarsStringsCollectionsAndPlainEnumsAreProvenToHoldValuesOnly() {
        #expect(ValueOnlyTypes.contains(Int.self))
        #expect(ValueOnlyTypes.contains(String.self))
        #expect(ValueOnlyTypes.contains([String?].self))
        #expect(ValueOnlyTypes.contains(Shapes.Filter.self))
        #expect(ValueOnlyTypes.contains(Shapes.Todo.self))
        #expect(ValueOnlyTypes.contains([Shapes.Todo].self))
        #expect(ValueOnlyTypes.contains(Shapes.Node.self))
        #expect(ValueOnlyTypes.contains((Int, Substring, Character).self))
    }

    @Test func anythingThatMayHoldAReferenceIsNotProven() {
        // A class, and any value that holds one however deep
        #expect(!ValueOnlyTypes.contains(Shapes.Box.self))
        #expect(!ValueOnlyTypes.contains(Shapes.HoldingABox.self))
        #expect(!ValueOnlyTypes.contains(Shapes.HoldingBoxesDeepDown.self))
        #expect(!ValueOnlyTypes.contains(Shapes.Box?.self))
        // An enum whose payload holds a reference: the runtime does not list its payload types
        #expect(!ValueOnlyTypes.contains(Shapes.Load.self))
        #expect(!ValueOnlyTypes.contains(Shapes.HoldingALoad.self))
        // A pointer, an existential, a closure
        #expect(!ValueOnlyTypes.contains(Shapes.HoldingAPointer.self))
        #expect(!ValueOnlyTypes.contains(UnsafeRawPointer.self))
        #expect(!ValueOnlyTypes.contains(Shapes.HoldingAnExistential.self))
        #expect(!ValueOnlyTypes.contains(Shapes.HoldingAClosure.self))
    }
}
