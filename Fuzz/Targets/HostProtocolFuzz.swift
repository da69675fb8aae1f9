import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// The replay-host protocol's lines on arbitrary bytes: a message as the CLI reads it (with a check result's header,
/// report and drift), and a request as the host reads it.
///
/// Properties: nothing crashes or hangs; a message that reads writes back bytes that read as the same bytes; a
/// request that reads writes back to the same request.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHostProtocol(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let message = try? HostMessage(line: bytes) {
        let line = message.lineBytes()
        guard (try? HostMessage(line: Array(line.dropLast())))?.lineBytes() == line else {
            fatalError("a message does not round-trip")
        }
        if case .result(let result) = message, let header = try? result.sessionHeader() {
            _ = try? result.replayReport(header: header)
            _ = result.schemaDrift(header: header).explanation
        }
    }
    guard let json = try? JSONValue(parsing: bytes) else { return 0 }
    // A request with a bad `ignore` pattern is an error the host reports; here only a request that reads matters.
    if let request = try? ReplayHostRequest(json: json) {
        guard (try? ReplayHostRequest(json: request.jsonValue)) == request else { fatalError("a request does not round-trip") }
    }
    return 0
}
