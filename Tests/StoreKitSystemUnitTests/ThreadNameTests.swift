import Foundation
import StoreKitSystem
import Testing

@Suite(.enabled(if: FileManager.default.fileExists(atPath: "/proc/thread-self/comm"), "reads names through /proc"))
struct ThreadNameTests {
    /// The name the system shows for the calling thread.
    private static func systemName() -> String {
        let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
        return name.hasSuffix("\n") ? String(name.dropLast()) : name
    }

    /// The name a new thread shows after naming itself `name`.
    private static func nameShownAfterNaming(_ name: String) throws -> String {
        let shown = Locked<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            do {
                try Syscall.nameCurrentThread(name)
            } catch {
                Issue.record("naming the thread: \(error)")
            }
            shown.withLock { $0 = systemName() }
            done.signal()
        }.start()
        #expect(done.wait(timeout: .now() + 60) == .success)
        return try #require(shown.withLock { $0 })
    }

    @Test func aThreadNamedFromInsideShowsItsName() throws {
        #expect(try Self.nameShownAfterNaming("replay effects") == "replay effects")
    }

    @Test func aLongNameIsCutToTheBytesTheSystemKeepsAtAWholeCharacter() throws {
        // Nine two-byte characters: Linux keeps 15 bytes, so seven whole characters (14 bytes) remain.
        #expect(try Self.nameShownAfterNaming("ééééééééé and more") == "ééééééé")
    }
}
