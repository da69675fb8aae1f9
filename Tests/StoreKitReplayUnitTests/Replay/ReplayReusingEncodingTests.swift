import Foundation
import StoreKitCore
import StoreKitReplay
import Testing

/// A shelf of books, each action changing one: most of each replayed state is unchanged since the step before.
private enum Shelf {
    /// A count kept in a class and changed in place: what bits cannot show changed.
    final class Tally: Codable, Equatable, @unchecked Sendable {
        var count = 0
        static func == (lhs: Tally, rhs: Tally) -> Bool { lhs.count == rhs.count }
    }

    struct Book: Codable, Equatable, Sendable {
        var title: String
        var tags: Set<String> = []
        var readOn: Date?
    }

    struct State: Codable, Equatable, Sendable {
        var books: [Book] = (0..<40).map { Book(title: "Book \($0)") }
        var reads = 0
        var tally: Part = Part()
    }

    /// A value-type part that holds the class, as a struct wrapping shared storage would.
    struct Part: Codable, Equatable, Sendable {
        var tally = Tally()
    }

    enum Action: Codable, Equatable, Sendable {
        case read(Int)
        case tag(Int, String)
        case count
    }

    static let recorded = Reducer<State, Action> { state, action in
        switch action {
        case .read(let index):
            state.books[index].readOn = Date(timeIntervalSince1970: Double(index) * 86_400)
            state.reads += 1
        case .tag(let index, let tag):
            state.books[index].tags.insert(tag)
        case .count:
            state.reads += 1
        }
    }

    /// The reducer after a change: tagging the tenth book or later does nothing.
    static let broken = Reducer<State, Action> { state, action in
        if case .tag(let index, _) = action, index >= 10 { return }
        recorded.reduce(&state, action)
    }

    /// The reducer after a change that counts in the class, in place, leaving every bit of the state as it was.
    static let countingInPlace = Reducer<State, Action> { state, action in
        recorded.reduce(&state, action)
        if case .count = action { state.tally.tally.count += 1 }
    }

    static let actions: [Action] = [.read(3), .tag(3, "sci-fi"), .read(7), .tag(12, "poetry"), .count, .tag(20, "x")]

    /// The session the recorded reducer makes of ``actions``, as the lines of a file.
    static func recordedLines() -> [UInt8] {
        let transport = MemoryTransport()
        let store = Store(initialState: State(), reducer: recorded)
        let recorder = store.startRecording(.init(storeID: "shelf", app: AppInfo(name: "Shelf")), to: transport)
        for action in actions { store.dispatch(action) }
        recorder.finishWaitingGenerously()
        return transport.data
    }

    static func replay(_ reducer: Reducer<State, Action>, reusing: Bool) throws -> ReplayReport {
        let store = ReplayableStore(id: "shelf", reducer: reducer, reusesEncodingOfUnchangedParts: reusing)
        let reader = SessionReader(bytes: recordedLines(), source: "shelf.jsonl")
        return try ReplayEngine(stores: [store], options: .init(findAllDivergences: true)).replay(reader: reader)
    }
}

@Suite struct ReplayReusingEncodingTests {
    @Test func reusingUnchangedPartsGivesTheSameVerdictsAsEncodingEachStateInFull() throws {
        for reusing in [false, true] {
            // Given a session of a state of value types, replayed through the reducer that recorded it
            let same = try Shelf.replay(Shelf.recorded, reusing: reusing)
            // Then every step matches
            #expect(same.verdict == .match, "reusing: \(reusing)")

            // When it is replayed through a reducer that no longer tags later books
            let broken = try Shelf.replay(Shelf.broken, reusing: reusing)
            // Then both steps that tag a later book diverge, and the diff still knows the book's tags for a set,
            // though with reuse that book's bytes were copied from the step before
            #expect(broken.divergences.map(\.step) == [4, 6], "reusing: \(reusing)")
            #expect(
                broken.divergences.first?.diff.changes.map(\.path.description) == [#"books[12].tags[member: "poetry"]"#],
                "reusing: \(reusing)")
        }
    }

    @Test func byDefaultAPartHoldingAClassIsEncodedAgainSoAClassChangedInPlaceIsSeen() throws {
        // Given a reducer that changes a count held in a class, in place: the state's bits stay as they were
        // When it is replayed with the default
        let report = try Shelf.replay(Shelf.countingInPlace, reusing: false)
        // Then the step that counted diverges, as the encoded state shows the new count
        #expect(report.divergences.map(\.step) == [5])

        // With every unchanged part reused, the part holding the class is taken as unchanged: why that option is
        // off by default and for states made of value types.
        #expect(try Shelf.replay(Shelf.countingInPlace, reusing: true).divergences.isEmpty)
    }
}
