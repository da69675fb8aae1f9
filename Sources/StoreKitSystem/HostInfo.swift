/// Facts about this process and machine that a session header records.
package enum HostInfo {
    /// The machine's host name, or an empty string when it cannot be read.
    package static var hostName: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// This process's id.
    package static var processID: Int { Int(getpid()) }
}
