import Foundation
import ReplayDaemon
import StoreKitCore
import StoreKitJSON

/// The JSON parser, the canonical encoder and the daemon's line scanner on arbitrary bytes, against each other
/// and against Foundation's `JSONSerialization`.
///
/// Properties: nothing crashes or hangs; whatever parses re-encodes canonically to bytes that parse back to the
/// same value and the same bytes; whatever the scanner accepts the parser accepts, and every object the parser
/// accepts the scanner accepts too unless it met a key it cannot compare by bytes (an escape or a non-ASCII byte,
/// which it leaves to the parser); nothing Foundation rejects is accepted; what
/// both accept, Foundation reads the same from the input and from our canonical bytes; and the valid JSON
/// Foundation writes back from what it read is accepted (Foundation is lenient, with trailing commas for one, so
/// its accepting an input is no proof the input is valid). Split at its first newline, the second line scans the
/// same after the first, with the scanner's memory of it, as alone, and so does a third after both.
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
    let data = Data(input)
    let foundation = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    switch parsed {
    case .success(let value):
        guard let foundation = foundation as? NSObject else {
            fatalError("ours accepts what Foundation rejects: \(String(decoding: data, as: UTF8.self))")
        }
        let canonical = Data(value.canonicalBytes())
        let again = try? JSONSerialization.jsonObject(with: canonical, options: [.fragmentsAllowed]) as? NSObject
        guard let again, sameJSON(again, foundation) else {
            fatalError("Foundation reads our canonical bytes differently: \(String(decoding: canonical, as: UTF8.self))")
        }
    case .failure:
        // Foundation is lenient (trailing commas, for one), so its accepting the input says nothing; but what it
        // writes back is valid JSON, which ours must accept.
        if let foundation, let valid = try? JSONSerialization.data(withJSONObject: foundation, options: [.fragmentsAllowed]) {
            if case .failure(let error) = Result(catching: { () throws(JSONParseError) in try JSONValue(parsing: valid) }),
                !"\(error)".contains("too large")
            {
                fatalError("ours rejects valid JSON: \(error): \(String(decoding: valid, as: UTF8.self))")
            }
        }
    }
    var scanner = JSONLineScanner()
    let scanned = scanner.scanObject(input)
    switch parsed {
    case .success(.object):
        guard scanned || scanner.metUncomparableKey else { fatalError("the scanner rejects an object the parser accepts") }
    case .success:
        guard !scanned else { fatalError("the scanner accepts a non-object") }
    case .failure(let error):
        guard !scanned else { fatalError("the scanner accepts what the parser rejects: \(error)") }
    }
    if input.contains(0x0A) {
        // Up to three lines, each scanned after the ones before with the scanner's memory, and alone.
        let lines = input.split(separator: 0x0A, maxSplits: 2, omittingEmptySubsequences: false)
        let memory = JSONLineMemory()
        var remembering = JSONLineScanner()
        var alone = JSONLineScanner()
        for line in lines {
            let bytes = UnsafeBufferPointer(rebasing: line)
            let recalled = remembering.scanObject(bytes, memory: memory)
            guard recalled == alone.scanObject(bytes), !recalled || remembering.members == alone.members else {
                fatalError("the scanner's memory of the lines before changes its verdict on a line after")
            }
        }
    }
    return 0
}

/// Whether two values Foundation read are the same JSON: numbers compare by value within a relative 1e-9, as
/// Foundation reads some decimals imprecisely (as `NSDecimalNumber`, whose conversions round differently).
private func sameJSON(_ a: Any, _ b: Any) -> Bool {
    switch (a, b) {
    case let (x as String, y as String): return x == y
    case let (x as [Any], y as [Any]): return x.count == y.count && zip(x, y).allSatisfy(sameJSON)
    case let (x as [String: Any], y as [String: Any]):
        return x.count == y.count && x.allSatisfy { key, value in y[key].map { sameJSON(value, $0) } ?? false }
    case let (x as NSNumber, y as NSNumber):
        let (u, v) = (x.doubleValue, y.doubleValue)
        return u == v || abs(u - v) <= 1e-9 * max(abs(u), abs(v))
    case (is NSNull, is NSNull): return true
    default: return false
    }
}
