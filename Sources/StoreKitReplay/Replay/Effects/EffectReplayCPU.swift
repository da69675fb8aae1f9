import StoreKitSystem

/// The one CPU an effect replay's two threads share while it lasts: the replay's thread and the effects' thread
/// (``ReplayExecutor``) hand every step back and forth and never run at once, and waking a thread that sleeps on
/// another, idle CPU costs far more than switching threads on one (docs/performance.md, history).
///
/// The replay's thread is kept on the CPU it runs on, unless another effect replay of this process holds that CPU;
/// then on the CPU fewest hold. Where a thread cannot be kept on a CPU (Darwin), or may run on one CPU only anyway,
/// there is no shared CPU and the threads run where the system puts them: replay is the same, only slower.
///
/// Unchecked `Sendable`: the effects' thread only reads ``number``; ``release()`` is called by the replay's owner,
/// one call at a time.
final class EffectReplayCPU: @unchecked Sendable {
    /// The CPU the two threads share.
    let number: Int32
    private let replayThread = pthread_self()
    /// The CPUs the replay's thread had, given back by ``release()``.
    private let replayThreadCPUs: ThreadCPUs
    private var isReleased = false

    /// How many effect replays of this process hold each CPU.
    private static let holders = Locked<[Int32: Int]>([:])

    private init(number: Int32, replayThreadCPUs: ThreadCPUs) {
        self.number = number
        self.replayThreadCPUs = replayThreadCPUs
    }

    /// Keeps the calling thread, the replay's, on one CPU until ``release()``; `nil` where it cannot or need not be.
    static func holdForCallingThread() -> EffectReplayCPU? {
        guard let allowed = try? Syscall.currentThreadCPUs(), allowed.numbers.count > 1 else { return nil }
        let current = Syscall.currentCPU()
        let number = holders.withLock { holders -> Int32 in
            let chosen = choose(running: current, allowed: allowed.numbers, holders: holders)
            holders[chosen, default: 0] += 1
            return chosen
        }
        do {
            try Syscall.pinCurrentThread(toCPU: number)
        } catch {
            letGo(number)
            return nil
        }
        return EffectReplayCPU(number: number, replayThreadCPUs: allowed)
    }

    /// The CPU for a new effect replay whose thread runs on `running` and may run on `allowed` (not empty), where
    /// `holders` counts the effect replays holding each CPU: the one it runs on, unless another replay holds it;
    /// else the one fewest hold, the lowest of those.
    static func choose(running: Int32?, allowed: [Int32], holders: [Int32: Int]) -> Int32 {
        if let running, allowed.contains(running), holders[running, default: 0] == 0 { return running }
        return allowed.min { (holders[$0, default: 0], $0) < (holders[$1, default: 0], $1) } ?? allowed[0]
    }

    /// Counts one replay fewer holding CPU `number`.
    private static func letGo(_ number: Int32) {
        holders.withLock { $0[number, default: 1] -= 1 }
    }

    /// Keeps the calling thread, the effects', on the shared CPU for as long as it lives; where that fails, it runs
    /// where the system puts it.
    func holdForEffectsThread() {
        try? Syscall.pinCurrentThread(toCPU: number)
    }

    /// Gives the replay's thread its CPUs back; once, and only on the replay's thread (a thread can only give back
    /// its own), so a call from any other thread only lets the CPU go for other replays.
    func release() {
        guard !isReleased else { return }
        isReleased = true
        Self.letGo(number)
        guard pthread_equal(pthread_self(), replayThread) != 0 else { return }
        try? Syscall.setCurrentThreadCPUs(replayThreadCPUs)
    }
}
