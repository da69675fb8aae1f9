import Foundation
import StoreKitSystem
import Testing

@testable import StoreKitCore

@Suite struct ThreadPriorityTests {
    #if os(Linux)
    /// The nice value of the calling thread (Linux keeps one per thread).
    private static func niceValue() -> Int32 {
        getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
    }

    /// The nice value a new thread ends with after lowering its priority to `level`, or the error it met.
    private static func niceValueOfAThreadLowered(
        to level: BackgroundPriority
    ) throws -> (lowered: Int32, error: String?) {
        let seen = Locked<(lowered: Int32, error: String?)?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            do {
                try Syscall.lowerCurrentThreadPriority(to: level)
                seen.withLock { $0 = (Self.niceValue(), nil) }
            } catch {
                seen.withLock { $0 = (0, "\(error)") }
            }
            done.signal()
        }
        thread.start()
        #expect(done.wait(timeout: .now() + 60) == .success)
        return try #require(seen.withLock { $0 })
    }

    @Test func loweringAThreadsPriorityLeavesTheOtherThreadsAlone() async throws {
        let before = Self.niceValue()
        let result = try Self.niceValueOfAThreadLowered(to: .utility)
        #expect(result.error == nil)
        // Raised by 10, or up to the ceiling of 19 when the test runner already runs niced.
        #expect(result.lowered == min(before + 10, 19))
        #expect(Self.niceValue() == before)
    }

    @Test func backgroundWorkGetsTheLowestPriority() async throws {
        let before = Self.niceValue()
        let result = try Self.niceValueOfAThreadLowered(to: .background)
        #expect(result.error == nil)
        #expect(result.lowered == 19)
        #expect(Self.niceValue() == before)
    }

    @Test func aThreadGoesBackToThePriorityItHadWhereTheSystemAllowsIt() async throws {
        let seen = Locked<(start: Int32, end: Int32, error: SystemError?)?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let start = Self.niceValue()
            do {
                let previous = try Syscall.lowerCurrentThreadPriority()
                do {
                    try Syscall.setCurrentThreadPriority(previous)
                    seen.withLock { $0 = (start, Self.niceValue(), nil) }
                } catch {
                    seen.withLock { $0 = (start, Self.niceValue(), error as? SystemError) }
                }
            } catch {
                seen.withLock { $0 = (start, start, error as? SystemError) }
            }
            done.signal()
        }
        thread.start()
        #expect(done.wait(timeout: .now() + 60) == .success)
        let result = try #require(seen.withLock { $0 })
        if let error = result.error {
            // Without CAP_SYS_NICE or RLIMIT_NICE, Linux refuses, naming the call, and the thread stays lowered.
            #expect(error.call == "setpriority")
            #expect(error.errno == EACCES || error.errno == EPERM)
            #expect(result.end == min(result.start + 10, 19))
        } else {
            #expect(result.end == result.start)
        }
    }
    #endif
}
