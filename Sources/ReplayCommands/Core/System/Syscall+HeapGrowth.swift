// A call only this tool makes, wrapped here rather than in StoreKitSystem so that apps do not link it; the C
// library comes through StoreKitSystem's Platform.swift.
import StoreKitSystem

extension Syscall {
    /// Asks the C library's allocator to grow its heaps at least `bytes` at a time, for a short-lived process that
    /// builds large trees of small allocations (a command reading states or sessions of many megabytes): far fewer
    /// `brk` and `mprotect` calls as the heap grows (docs/performance.md). Memory requested and never touched
    /// costs nothing. Only glibc has the setting; elsewhere this does nothing.
    package static func padHeapGrowth(bytes: Int) {
        // Only a speed-up: a C library without the setting runs the same, so its answer is not worth a report.
        _ = systemPadHeapGrowth(Int32(clamping: bytes))
    }
}

/// `mallopt(M_TOP_PAD, bytes)` where the C library has it: glibc, whose `<malloc.h>` is not in the Swift module, so
/// the function is looked up at run time. Returns whether the setting took.
func systemPadHeapGrowth(_ bytes: Int32) -> Bool {
    #if canImport(Glibc)
    // A null handle is RTLD_DEFAULT in glibc; M_TOP_PAD is -2 in <malloc.h>.
    guard let symbol = dlsym(nil, "mallopt") else { return false }
    typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
    return unsafeBitCast(symbol, to: Mallopt.self)(-2, bytes) == 1
    #else
    return false
    #endif
}
