import StoreKitCore

/// The JSON parser and the daemon's line scanner on arbitrary bytes.
///
/// Properties: nothing crashes or hangs; whatever parses re-encodes canonically to bytes that parse back to the
/// same value and the same bytes; the scanner and the parser agree on which objects are valid, except that the
/// scanner does not look for duplicate keys below the top level.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONParser(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    let parsed = Result { () throws(JSONParseError) in try JSONValue(parsing: input) }
    if case .success(let value) = parsed {
        let canonical = value.canonicalBytes()
        guard let again = try? JSONValue(parsing: canonical) else {
            fatalError("canonical bytes do not parse: \(String(decoding: canonical, as: UTF8.self))")
        }
        guard again.canonicalBytes() == canonical else { fatalError("canonical bytes are not stable") }
    }
    var scanner = JSONLineScanner()
    let scanned = scanner.scanObject(input)
    switch parsed {
    case .success(.object):
        guard scanned else { fatalError("the scanner rejects an object the parser accepts") }
    case .success:
        guard !scanned else { fatalError("the scanner accepts a non-object") }
    case .failure(let error):
        guard !scanned || "\(error)".contains("duplicate") else {
            fatalError("the scanner accepts what the parser rejects: \(error)")
        }
    }
    return 0
}
