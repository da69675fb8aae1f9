import Foundation
import StoreKitSystem
import StoreKitTestFixtures
import Testing

@Suite struct CPUAffinityTests {
    #if os(Linux)
    @Test(.enabled(if: ProcessInfo.processInfo.activeProcessorCount > 1, "pinning needs two CPUs to show"))
    func aPinnedThreadRunsOnItsCPUAloneUntilItGetsItsCPUsBack() throws {
        let result = try onANewThread {
            let before = try #require(try Syscall.currentThreadCPUs())
            let cpu = try #require(before.numbers.last)
            try Syscall.pinCurrentThread(toCPU: cpu)
            let pinned = try Syscall.currentThreadCPUs()?.numbers
            let running = Syscall.currentCPU()
            try Syscall.setCurrentThreadCPUs(before)
            return (before.numbers, cpu, pinned, running, try Syscall.currentThreadCPUs()?.numbers)
        }
        let seen = try #require(result)
        #expect(seen.0.count > 1)
        #expect(seen.2 == [seen.1])
        #expect(seen.3 == seen.1)
        #expect(seen.4 == seen.0)
    }

    @Test func aCPUTheThreadMayNotUseIsRefusedNamingTheCall() throws {
        let error = try #require(try onANewThread { () -> SystemError? in
            let beyond = Int32(ProcessInfo.processInfo.processorCount) + 64
            do {
                try Syscall.pinCurrentThread(toCPU: beyond)
                return nil
            } catch {
                return error as? SystemError
            }
        })
        #expect(error?.call == "sched_setaffinity")
        #expect(error?.errno == EINVAL)
    }
    #endif
}
