/// The CPUs a thread may run on, as ``Syscall/currentThreadCPUs()`` found them, to give back with
/// ``Syscall/setCurrentThreadCPUs(_:)``.
package struct ThreadCPUs: Sendable {
    #if !canImport(Darwin)
    fileprivate let set: cpu_set_t
    #endif
    /// The CPUs by number, lowest first.
    package let numbers: [Int32]
}

extension Syscall {
    /// The CPU the calling thread runs on now, which may change at any moment; `nil` where the system does not say
    /// (Darwin).
    package static func currentCPU() -> Int32? {
        #if canImport(Darwin)
        return nil
        #else
        let cpu = systemSchedGetcpu()
        return cpu >= 0 ? cpu : nil
        #endif
    }

    /// The CPUs the calling thread may run on; `nil` where a thread cannot be kept on chosen CPUs: Darwin's affinity
    /// tags only hint that threads share a cache.
    package static func currentThreadCPUs() throws(SystemError) -> ThreadCPUs? {
        #if canImport(Darwin)
        return nil
        #else
        var set = cpu_set_t()
        try retrying("sched_getaffinity") { systemSchedGetaffinity(&set) }
        var numbers: [Int32] = []
        withCPUWords(of: &set) { words in
            for (index, word) in words.enumerated() where word != 0 {
                for bit in 0..<UInt.bitWidth where word & (1 << bit) != 0 {
                    numbers.append(Int32(index * UInt.bitWidth + bit))
                }
            }
        }
        return ThreadCPUs(set: set, numbers: numbers)
        #endif
    }

    /// Keeps the calling thread on CPU `cpu` alone, until ``setCurrentThreadCPUs(_:)`` gives it others; where a
    /// thread cannot be kept on a CPU (Darwin, see ``currentThreadCPUs()``), does nothing.
    package static func pinCurrentThread(toCPU cpu: Int32) throws(SystemError) {
        #if !canImport(Darwin)
        var set = cpu_set_t()
        withCPUWords(of: &set) { words in
            let index = Int(cpu) / UInt.bitWidth
            precondition(cpu >= 0 && index < words.count, "CPU \(cpu) is outside cpu_set_t")
            words[index] |= 1 << (Int(cpu) % UInt.bitWidth)
        }
        try retrying("sched_setaffinity", subject: "CPU \(cpu)") { systemSchedSetaffinity(&set) }
        #endif
    }

    /// Lets the calling thread run on `cpus` again, as ``currentThreadCPUs()`` found them.
    package static func setCurrentThreadCPUs(_ cpus: ThreadCPUs) throws(SystemError) {
        #if !canImport(Darwin)
        var set = cpus.set
        try retrying("sched_setaffinity") { systemSchedSetaffinity(&set) }
        #endif
    }

    #if !canImport(Darwin)
    /// The words of `set`, CPU `n` being bit `n % UInt.bitWidth` of word `n / UInt.bitWidth` (glibc's `__cpu_mask`).
    private static func withCPUWords(of set: inout cpu_set_t, _ body: (inout UnsafeMutableBufferPointer<UInt>) -> Void) {
        withUnsafeMutableBytes(of: &set) { bytes in
            var words = bytes.bindMemory(to: UInt.self)
            body(&words)
        }
    }
    #endif
}
