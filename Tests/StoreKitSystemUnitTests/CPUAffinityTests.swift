import Foundation
import StoreKitSystem
import Testing

@Suite struct CPUAffinityTests {
    #if os(Linux)
    /// Runs `body` on a thread of its own, so that what it does to its thread's CPUs touches no other test's.
    private static func onANewThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) throws -> T {
        let result = Locked<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            result.withLock { $0 = Result(catching: body) }
            done.signal()
        }.start()
        #expect(done.wait(timeout: .now() + 60) == .success)
        return try #require(result.withLock { $0 }).get()
    }

    @Test(.enabled(if: ProcessInfo.processInfo.activeProcessorCount > 1, "pinning needs two CPUs to show"))
    func aPinnedThreadRunsOnItsCPUAloneUntilItGetsItsCPUsBack() throws {
        let seen = try Self.onANewThread {
            let before = try #require(try Syscall.currentThreadCPUs())
            let cpu = try #require(before.numbers.last)
            try Syscall.pinCurrentThread(toCPU: cpu)
            let pinned = try Syscall.currentThreadCPUs()?.numbers
            let running = Syscall.currentCPU()
            try Syscall.setCurrentThreadCPUs(before)
            return (before.numbers, cpu, pinned, running, try Syscall.currentThreadCPUs()?.numbers)
        }
        #expect(seen.0.count > 1)
        #expect(seen.2 == [seen.1])
        #expect(seen.3 == seen.1)
        #expect(seen.4 == seen.0)
    }

    @Test func aCPUTheThreadMayNotUseIsRefusedNamingTheCall() throws {
        let error = try Self.onANewThread { () -> SystemError? in
            let beyond = Int32(ProcessInfo.processInfo.processorCount) + 64
            do {
                try Syscall.pinCurrentThread(toCPU: beyond)
                return nil
            } catch {
                return error as? SystemError
            }
        }
        #expect(error?.call == "sched_setaffinity")
        #expect(error?.errno == EINVAL)
    }
    #endif
}
