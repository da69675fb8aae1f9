import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import StoreKitSystem

/// Checks each line a client sends before it is stored: one JSON object in valid UTF-8, a known `kind`, and the
/// fields that kind requires, by the same rules as the session reader.
///
/// Action lines with a full state, nearly all of the traffic, and the `call` and `effectEnd` lines of effects' inputs
/// take a fast path: one validating scan with no values built (with the memory of the client's line before, mostly
/// a comparison with it), which accepts only what it can prove the reader's parser accepts (distinct plain-ASCII keys
/// in every object). Any line the fast path is unsure of (a patch, a key with an escape or a non-ASCII byte, an odd
/// field) is parsed in full by the reader's own parser and event decoding, which either accepts it or names the
/// problem and its JSON path, so the fast path never rejects on its own. Whether a valid line may follow the
/// session's earlier ones is ``SessionLineOrder``'s to say.
package struct SessionLineValidator {
    /// What a valid line told the daemon.
    ///
    /// The rare kinds are boxed (`indirect`), so that the value the daemon passes for every action line is the
    /// size of an action's, not of a header's.
    package enum Checked {
        /// A session header.
        indirect case header(SessionHeader)
        /// An action.
        case action(Action)
        /// A gap.
        indirect case gap(GapEvent)
        /// An end.
        indirect case end(EndEvent)
        /// An effect run's `call` or `effectEnd` (format 2): what the order of a run's lines looks at.
        case effectRun(EffectLineOrder.RunLine)
        /// A `note` (format 3), which has no sequence number of its own.
        indirect case unnumbered(SessionEvent)
    }

    /// What an action line told the daemon.
    package struct Action {
        /// Its sequence number.
        package var sequence: Int
        /// Its time, in seconds since the session started.
        package var time: Time
        /// The state after it.
        package var snapshot: Snapshot
        /// Whether its `origin` is the app (the default), not an effect.
        package var isFromApp: Bool
        /// Whether it names the effect that sent it (`effect`, format 2).
        package var namesEffect: Bool
    }

    /// An action's time, in seconds since the session started.
    package enum Time {
        /// As the full check read it.
        case seconds(Double)
        /// The number's text in the line, as the fast path found it: valid only as long as the line's bytes are.
        /// Only the last action of a read needs reading, so the fast path leaves it as text.
        case text(UnsafeBufferPointer<UInt8>)

        /// The seconds it stands for.
        package var seconds: Double {
            switch self {
            case .seconds(let seconds): return seconds
            case .text(let text):
                // The scan took it for a JSON number, and `Double` reads every one (too large as infinity).
                return DecimalFastPath.double(plainDecimal: text) ?? Double(String(decoding: text, as: UTF8.self)) ?? 0
            }
        }
    }

    /// How an action line holds the state after it.
    package enum Snapshot {
        /// A full state, as its bytes in the line: valid only as long as the line's bytes are.
        case stateBytes(UnsafeBufferPointer<UInt8>)
        /// A full state, parsed.
        case state(JSONValue)
        /// A patch against the previous line's state.
        case patch(JSONPatch)
    }

    /// Why a line was rejected, in words for the client and the log.
    package struct Rejection: Error {
        var reason: String
    }

    var scanner = JSONLineScanner()
    /// The scanner of a `call`'s `result`, on the effect lines' fast path.
    var resultScanner = JSONLineScanner()

    /// Creates a validator; it keeps its scanner's buffers from one line to the next.
    package init() {}

    /// Checks one line (without its `\n`). `memory`, that of the stream the line comes from, spares checking again
    /// what the stream's last valid line held too.
    package mutating func check(_ line: UnsafeBufferPointer<UInt8>, memory: StreamMemory? = nil) -> Result<Checked, Rejection> {
        if scanner.scanObject(line, memory: memory?.lines) {
            // The memory now holds this line: what the action fast path read of it, or nothing.
            if let checked = fastAction(line, memory: memory) ?? fastEffectLine(line) { return .success(checked) }
        }
        return fullCheck(line)
    }

    private func fullCheck(_ line: UnsafeBufferPointer<UInt8>) -> Result<Checked, Rejection> {
        guard !line.isEmpty else { return .failure(Rejection(reason: "empty line")) }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: line)
        } catch {
            if let offset = Self.firstInvalidUTF8(line) {
                return .failure(Rejection(reason: "not valid UTF-8 (byte \(offset))"))
            }
            return .failure(Rejection(reason: "not JSON: \(error)"))
        }
        do {
            let event = try SessionEvent(jsonValue: value)
            switch event {
            case .header(let header): return .success(.header(header))
            case .action(let action):
                let snapshot = action.patch.map(Snapshot.patch) ?? .state(action.state)
                let isFromApp = if case .app = action.origin { true } else { false }
                return .success(
                    .action(
                        Action(
                            sequence: action.sequence, time: .seconds(action.time), snapshot: snapshot, isFromApp: isFromApp,
                            namesEffect: action.effect != nil)))
            case .gap(let gap): return .success(.gap(gap))
            case .end(let end): return .success(.end(end))
            case .call, .effectEnd, .note:
                return .success(EffectLineOrder.RunLine(event).map(Checked.effectRun) ?? .unnumbered(event))
            }
        } catch {
            return .failure(Rejection(reason: "\(error)"))
        }
    }

    /// The top-level keys the fast paths look at.
    enum Key {
        case kind, seq, time, action, state, patch, origin, cause, name, effect
        case index, result, outcome, calls, sent
        case other

        init(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
            // Each key compared in one step, as the number its bytes make (the first byte lowest).
            switch SessionLineValidator.packed(line, range) {
            case 0x71_65_73: self = .seq
            case 0x64_6E_69_6B: self = .kind
            case 0x65_6D_69_74: self = .time
            case 0x65_6D_61_6E: self = .name
            case 0x65_74_61_74_73: self = .state
            case 0x68_63_74_61_70: self = .patch
            case 0x65_73_75_61_63: self = .cause
            case 0x6E_6F_69_74_63_61: self = .action
            case 0x74_63_65_66_66_65: self = .effect
            case 0x6E_69_67_69_72_6F: self = .origin
            case 0x78_65_64_6E_69: self = .index
            case 0x74_6C_75_73_65_72: self = .result
            case 0x65_6D_6F_63_74_75_6F: self = .outcome
            case 0x73_6C_6C_61_63: self = .calls
            case 0x74_6E_65_73: self = .sent
            default: self = .other
            }
        }
    }

    /// The values of `kind` and `origin` the fast path takes, quotes included, as ``packed(_:_:)`` makes them:
    /// `"action"`, `"app"` and `"effect"`.
    static let actionKind: UInt64 = 0x22_6E_6F_69_74_63_61_22
    static let appOrigin: UInt64 = 0x22_70_70_61_22
    static let effectOrigin: UInt64 = 0x22_74_63_65_66_66_65_22

    /// The bytes of `line` in `range`, when there are 1 to 8, as one number: the first byte lowest, the rest zero;
    /// 0 for none or more than 8. Keys and values the fast path looks for have no zero byte, so equal numbers mean
    /// equal bytes.
    @inline(__always)
    static func packed(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> UInt64 {
        let count = range.upperBound &- range.lowerBound
        guard count &- 1 < 8, let base = line.baseAddress else { return 0 }
        guard range.lowerBound &+ 8 <= line.count else {
            return line[range].reversed().reduce(0) { word, byte in word << 8 | UInt64(byte) }
        }
        let word = UInt64(littleEndian: UnsafeRawPointer(base + range.lowerBound).loadUnaligned(as: UInt64.self))
        return word & (UInt64.max &>> (64 &- 8 &* count))
    }

    /// A plain decimal integer (no sign, fraction or exponent) that fits `Int`.
    static func integer(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        JSONLineScanner.plainInteger(UnsafeBufferPointer(rebasing: line[range])).map(Int.init)
    }

    /// The offset of the first byte that breaks UTF-8, or `nil` when the line is valid UTF-8.
    static func firstInvalidUTF8(_ line: UnsafeBufferPointer<UInt8>) -> Int? {
        var iterator = line.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }
}
