import StoreKitCore
import StoreKitReplay

/// The streaming session reader on arbitrary bytes.
///
/// Properties: nothing crashes or hangs; a malformed input gives an error with a line number within the input;
/// every event read writes back to a line that reads as the same event (a patch line's state aside, which the
/// reader resolves from the lines before it).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSessionReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let reader = SessionReader(bytes: bytes, source: "fuzz", maxLineBytes: 4096)
    let lineCount = bytes.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
    while true {
        do {
            guard let event = try reader.next() else { break }
            let line = event.line
            let reread = try? SessionEvent(jsonValue: JSONValue(parsing: line.dropLast()))
            // A patch line's state is resolved by the reader from the lines before it, so only compare the rest.
            var resolved = event
            if case .action(var action) = event, action.patch != nil, case .action(let other)? = reread {
                action.state = other.state
                resolved = .action(action)
            }
            guard reread == resolved else {
                fatalError("an event does not read back from its own line: \(String(decoding: line, as: UTF8.self))")
            }
        } catch {
            guard error.line >= 0 && error.line <= lineCount else { fatalError("error names line \(error.line) of \(lineCount)") }
            break
        }
    }
    return 0
}
