import Foundation
import StoreKitCore
import StoreKitSystem
import StoreKitTestFixtures
import Testing

@testable import StoreKitReplay

/// An effect replay keeps its thread and the effects' thread on one CPU while it lasts (two threads that hand each
/// step back and forth wake each other far faster there), and gives its thread its CPUs back at the end.
@Suite struct EffectReplayCPUTests {
    #if os(Linux)
    /// The CPUs the calling thread may run on.
    private static func threadCPUs() -> [Int32] {
        (try? Syscall.currentThreadCPUs())?.numbers ?? []
    }

    /// A board store whose reducer and whose replayable effect note the CPUs their threads may run on.
    private static func probingStore(reducerSaw: Locked<[Int32]?>, effectSaw: Locked<[Int32]?>) -> ReplayableStore {
        let reducer = Reducer<Board.State, Board.Action> { state, action in
            reducerSaw.withLock { $0 = $0 ?? threadCPUs() }
            Board.reducer.reduce(&state, action)
        }
        let probe = Effect<Board.State, Board.Action>("post score", replay: .rerun) { _, _ in
            effectSaw.withLock { $0 = $0 ?? threadCPUs() }
        }
        return ReplayableStore(id: "board", reducer: reducer, effects: [probe])
    }

    @Test(.enabled(if: ProcessInfo.processInfo.activeProcessorCount > 1, "pinning needs two CPUs to show"))
    func theEffectsRunOnTheReplaysCPUAndTheReplayGivesItsThreadItsCPUsBack() throws {
        // Given a session of scores whose effect the replay reruns
        var builder = BoardSession()
        for _ in 0..<3 { builder.action(.scored(1)) }
        let session = builder.session
        let reducerSaw = Locked<[Int32]?>(nil)
        let effectSaw = Locked<[Int32]?>(nil)

        // When a thread replays it
        let cpus = try #require(try onANewThread {
            let before = Self.threadCPUs()
            _ = ReplayEngine(stores: [Self.probingStore(reducerSaw: reducerSaw, effectSaw: effectSaw)]).replay(session)
            return (before: before, after: Self.threadCPUs())
        })

        // Then the reducer and the effect ran on one and the same CPU, and the thread has its CPUs again
        #expect(cpus.before.count > 1)
        let reducerCPUs = try #require(reducerSaw.withLock { $0 })
        #expect(reducerCPUs.count == 1)
        #expect(effectSaw.withLock { $0 } == reducerCPUs)
        #expect(cpus.after == cpus.before)
    }
    #endif

    @Test func aNewReplayTakesTheCPUItRunsOnUnlessAnotherHoldsItThenTheOneFewestHold() {
        let cpus: [Int32] = [0, 1, 2, 3]
        #expect(EffectReplayCPU.choose(running: 2, allowed: cpus, holders: [:]) == 2)
        #expect(EffectReplayCPU.choose(running: 2, allowed: cpus, holders: [0: 1, 1: 1, 3: 1, 2: 0]) == 2)
        #expect(EffectReplayCPU.choose(running: 2, allowed: cpus, holders: [2: 1, 0: 1]) == 1)
        #expect(EffectReplayCPU.choose(running: 2, allowed: cpus, holders: [0: 2, 1: 1, 2: 1, 3: 1]) == 1)
        // A CPU the thread may not use, or none known, is never taken.
        #expect(EffectReplayCPU.choose(running: 7, allowed: cpus, holders: [0: 1]) == 1)
        #expect(EffectReplayCPU.choose(running: nil, allowed: cpus, holders: [0: 1, 1: 1]) == 2)
    }
}
