import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// The streaming session reader and the verifier on arbitrary bytes.
///
/// Properties: nothing crashes or hangs; a malformed input gives an error with a line number within the input;
/// every event read writes back to a line that reads as the same event (a patch line's state aside, which the
/// reader resolves from the lines before it); and verify passes <=> every reader reads it: the verifier finds no
/// error exactly when `SessionReader`, `Session` and `ReplayEngine` read the input to the end, and when they
/// refuse it, its first error is theirs, at their line, in their words.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSessionReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let maxLineBytes = 4096
    let reader = SessionReader(bytes: bytes, source: "fuzz", maxLineBytes: maxLineBytes)
    let lineCount = bytes.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
    var refusal: SessionReadError?
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
            refusal = error
            break
        }
    }
    checkVerifierAgrees(bytes, maxLineBytes: maxLineBytes, refusal: refusal)
    return 0
}

/// verify passes <=> every reader reads the input; a refusal is the verifier's first error.
private func checkVerifierAgrees(_ bytes: [UInt8], maxLineBytes: Int, refusal: SessionReadError?) {
    let result = SessionVerifier.verify(bytes: bytes, source: "fuzz", maxLineBytes: maxLineBytes)
    let firstError = result.problems.first { !$0.isWarning }
    if let refusal {
        guard firstError?.line == refusal.line, firstError?.message == refusal.reason else {
            fatalError("the reader refuses '\(refusal)' but verify's first error is \(firstError.map { "\($0)" } ?? "none")")
        }
    } else if let firstError {
        fatalError("the reader reads the input whole but verify says: \(firstError)")
    }
    let session: Session
    do {
        session = try Session(reader: SessionReader(bytes: bytes, source: "fuzz", maxLineBytes: maxLineBytes))
    } catch {
        guard error.description == refusal?.description else {
            fatalError("Session refuses '\(error)' where the reader says '\(refusal.map { "\($0)" } ?? "nothing")'")
        }
        return
    }
    if let refusal { fatalError("Session reads what the reader refuses: '\(refusal)'") }
    // The engine holds an in-memory session to the same rules, and traps when they disagree; with no store it
    // only walks the events.
    _ = ReplayEngine(stores: []).replay(session)
    do {
        _ = try ReplayEngine(stores: []).replay(
            reader: SessionReader(bytes: bytes, source: "fuzz", maxLineBytes: maxLineBytes))
    } catch {
        fatalError("the engine's reader refuses what SessionReader reads: '\(error)'")
    }
}
