import Foundation
import StoreKitSystem
import StoreKitTestFixtures
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
        let seen = try onANewThread { () -> (lowered: Int32, error: String?) in
            do {
                try Syscall.lowerCurrentThreadPriority(to: level)
                return (Self.niceValue(), nil)
            } catch {
                return (0, "\(error)")
            }
        }
        return try #require(seen)
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
        let seen = try onANewThread { () -> (start: Int32, end: Int32, error: SystemError?) in
            let start = Self.niceValue()
            do {
                let previous = try Syscall.lowerCurrentThreadPriority()
                do {
                    try Syscall.setCurrentThreadPriority(previous)
                    return (start, Self.niceValue(), nil)
                } catch {
                    return (start, Self.niceValue(), error as? SystemError)
                }
            } catch {
                return (start, start, error as? SystemError)
            }
        }
        let result = try #require(seen)
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
