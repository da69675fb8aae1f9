import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import StoreKitSystem

/// Checks each line a client sends before it is stored: one JSON object in valid UTF-8, a known `kind`, and the
/// fields that kind requires, by the same rules as the session reader.
///
/// Action lines with a full state, nearly all of the traffic, take a fast path: one validating scan with no values
/// built, which accepts only what it can prove the reader's parser accepts (distinct plain-ASCII keys in every
/// object). Any line the fast path is unsure of (a patch, a key with an escape or a non-ASCII byte, an odd field) is
/// parsed in full by the reader's own parser and event decoding, which either accepts it or names the problem and
/// its JSON path, so the fast path never rejects on its own. Whether a valid line may follow the session's earlier
/// ones is ``SessionLineOrder``'s to say.
package struct SessionLineValidator {
    /// What a valid line told the daemon.
    package enum Checked {
        /// A session header.
        case header(SessionHeader)
        /// An action.
        case action(Action)
        /// A gap.
        case gap(GapEvent)
        /// An end.
        case end(EndEvent)
        /// A line without a sequence number of its own: an effect run's `call` or `effectEnd` (format 2), or a
        /// `note` (format 3).
        case unnumbered(SessionEvent)
    }

    /// What an action line told the daemon.
    package struct Action {
        /// Its sequence number.
        package var sequence: Int
        /// Its time, in seconds since the session started.
        package var time: Double
        /// The state after it.
        package var snapshot: Snapshot
        /// Whether its `origin` is the app (the default), not an effect.
        package var isFromApp: Bool
        /// Whether it names the effect that sent it (`effect`, format 2).
        package var namesEffect: Bool
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

    private var scanner = JSONLineScanner()

    /// Creates a validator; it keeps its scanner's buffers from one line to the next.
    package init() {}

    /// Checks one line (without its `\n`). `memory`, that of the stream the line comes from, spares checking again
    /// what the stream's last valid line held too.
    package mutating func check(_ line: UnsafeBufferPointer<UInt8>, memory: JSONLineMemory? = nil) -> Result<Checked, Rejection> {
        if scanner.scanObject(line, memory: memory), let action = fastAction(line) { return .success(action) }
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
                            sequence: action.sequence, time: action.time, snapshot: snapshot, isFromApp: isFromApp,
                            namesEffect: action.effect != nil)))
            case .gap(let gap): return .success(.gap(gap))
            case .end(let end): return .success(.end(end))
            case .call, .effectEnd, .note: return .success(.unnumbered(event))
            }
        } catch {
            return .failure(Rejection(reason: "\(error)"))
        }
    }

    /// Accepts an action line whose fields are plainly right; `nil` sends it to the full check.
    private func fastAction(_ line: UnsafeBufferPointer<UInt8>) -> Checked? {
        var sequence: Int?
        var time: Double?
        var isAction = false
        var hasAction = false
        var state: Range<Int>?
        var isFromApp = true
        var namesEffect = false
        for member in scanner.members {
            switch Key(line, member.key) {
            case .kind:
                guard matches(line, member.value, #""action""#) else { return nil }
                isAction = true
            case .seq:
                guard let value = Self.integer(line, member.value), SessionFormat.sequenceNumbers.contains(value)
                else { return nil }
                sequence = value
            case .time:
                guard member.type == .number else { return nil }
                time = Self.double(line, member.value)
            case .action:
                hasAction = true
            case .state:
                state = member.value
            case .origin:
                if matches(line, member.value, #""effect""#) {
                    isFromApp = false
                } else if !matches(line, member.value, #""app""#) {
                    return nil
                }
            case .cause:
                // Read only for an effect's action, as an integer; a plain one is one.
                guard Self.integer(line, member.value) != nil else { return nil }
            case .name:
                guard member.type == .string else { return nil }
            case .effect:
                guard member.type == .string else { return nil }
                namesEffect = true
            case .patch:
                return nil
            case .other:
                continue
            }
        }
        guard isAction, hasAction, let state, let sequence, let time else { return nil }
        return .action(
            Action(
                sequence: sequence, time: time, snapshot: .stateBytes(UnsafeBufferPointer(rebasing: line[state])),
                isFromApp: isFromApp, namesEffect: namesEffect))
    }

    /// The top-level keys the fast path looks at.
    private enum Key {
        case kind, seq, time, action, state, patch, origin, cause, name, effect, other

        init(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
            let bytes = UnsafeBufferPointer(rebasing: line[range])
            func named(_ name: StaticString) -> Bool { SessionLineValidator.equal(bytes, name) }
            switch bytes.count {
            case 3 where named("seq"): self = .seq
            case 4 where named("kind"): self = .kind
            case 4 where named("time"): self = .time
            case 4 where named("name"): self = .name
            case 5 where named("state"): self = .state
            case 5 where named("patch"): self = .patch
            case 5 where named("cause"): self = .cause
            case 6 where named("action"): self = .action
            case 6 where named("effect"): self = .effect
            case 6 where named("origin"): self = .origin
            default: self = .other
            }
        }
    }

    private func matches(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ literal: StaticString) -> Bool {
        Self.equal(UnsafeBufferPointer(rebasing: line[range]), literal)
    }

    /// Whether `bytes` are exactly `literal`'s.
    private static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        guard bytes.count == literal.utf8CodeUnitCount else { return false }
        guard let base = bytes.baseAddress else { return true }
        return memcmp(base, literal.utf8Start, bytes.count) == 0
    }

    /// A plain decimal integer (no sign, fraction or exponent) that fits `Int`.
    private static func integer(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        JSONLineScanner.plainInteger(UnsafeBufferPointer(rebasing: line[range])).map(Int.init)
    }

    private static func double(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double? {
        let text = UnsafeBufferPointer(rebasing: line[range])
        return DecimalFastPath.double(plainDecimal: text) ?? Double(String(decoding: text, as: UTF8.self))
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
