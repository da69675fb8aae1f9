import StoreKitCore
import StoreKitReplay

/// The replay-host protocol's messages on arbitrary bytes: a request as the host reads it, and a result as the
/// CLI reads it (a report or a drift).
///
/// Properties: nothing crashes or hangs; a request that reads writes back to the same request.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHostProtocol(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let message = try? JSONValue(parsing: UnsafeBufferPointer(start: data, count: size)) else { return 0 }
    // A request with a bad `ignore` pattern is an error the host reports; here only a request that reads matters.
    if let request = try? ReplayHostRequest(jsonValue: message) {
        guard (try? ReplayHostRequest(jsonValue: request.jsonValue)) == request else { fatalError("a request does not round-trip") }
    }
    let header = SessionHeader(
        sessionID: "s", storeID: "store", app: AppInfo(name: "fuzz"), startedAt: "2026-01-01T00:00:00.000Z",
        host: "h", pid: 1, initialState: .object([:]))
    if let headerValue = message["header"], case .header(let sent)? = try? SessionEvent(jsonValue: headerValue) {
        _ = sent.storeID
    }
    if let report = message["report"] {
        _ = try? ReplayReport(jsonValue: report, header: header)
    }
    if let drift = message["drift"] {
        _ = SchemaDrift(jsonValue: drift, header: header).explanation
    }
    return 0
}
