import Foundation

/// Whether this test process runs under a sanitizer (`scripts/test-sanitized.sh`): its end-to-end tests then run
/// the sanitized daemon and tools too, whose memory holds the sanitizer's shadow of what they touched.
public enum Sanitizers {
    /// True when ThreadSanitizer's or AddressSanitizer's runtime is in the process.
    public static let areRunning: Bool = {
        // The program's own handle looks a name up in it and every library it loaded at start.
        let program = dlopen(nil, RTLD_NOW)
        return dlsym(program, "__tsan_init") != nil || dlsym(program, "__asan_init") != nil
    }()
}
