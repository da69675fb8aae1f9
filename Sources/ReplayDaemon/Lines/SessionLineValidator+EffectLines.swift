import StoreKitCore
import StoreKitJSON
import StoreKitReplay

extension SessionLineValidator {
    /// Accepts a `call` or `effectEnd` line (the lines of an effect's recorded inputs) whose fields are plainly
    /// right by the session reader's rules, from what the scan found, without building its values; `nil` sends it to
    /// the full check, which alone may reject it.
    ///
    /// Plainly right: the kind and the run (`cause`, a sequence number; `effect`, a non-empty string without
    /// escapes); for a call, a plain `index`, a string `name` that is one of the built-in inputs when it starts
    /// with `$` (and has no escapes), a number `time`, and a `result` with the one member `value`, or `cancelled`
    /// that is `true`; for an end, an `outcome` the reader knows, plain `calls` and `sent`, and a number `time`.
    /// Members the reader does not read are let be, as it lets them be.
    mutating func fastEffectLine(_ line: UnsafeBufferPointer<UInt8>) -> Checked? {
        var found = EffectLineMembers()
        for member in scanner.members {
            switch Key(line, member.key) {
            case .kind: found.kind = member.value
            case .cause: found.cause = member.value
            case .effect: found.effect = member.value
            case .index: found.index = member.value
            case .name: found.name = (member.value, member.type)
            case .time: found.time = member.type
            case .result: found.result = (member.value, member.type)
            case .outcome: found.outcome = member.value
            case .calls: found.calls = member.value
            case .sent: found.sent = member.value
            case .seq, .action, .state, .patch, .origin, .other: continue
            }
        }
        guard let kind = found.kind, let cause = found.cause.flatMap({ Self.integer(line, $0) }),
            SessionFormat.sequenceNumbers.contains(cause), let effectRange = found.effect,
            let effect = Self.plainString(line, effectRange), !effect.isEmpty, case .number = found.time
        else { return nil }
        let kindBytes = UnsafeBufferPointer(rebasing: line[kind])
        if kindBytes.elementsEqual(#""call""#.utf8) {
            guard let index = found.index.flatMap({ Self.integer(line, $0) }), let (name, nameType) = found.name,
                case .string = nameType, Self.isPlainCallName(line, name), let (result, resultType) = found.result,
                case .object = resultType, resultIsPlain(UnsafeBufferPointer(rebasing: line[result]))
            else { return nil }
            return .effectRun(.call(cause: cause, effect: effect, index: index))
        }
        if kindBytes.elementsEqual(#""effectEnd""#.utf8) {
            guard let outcome = found.outcome, Self.isKnownOutcome(UnsafeBufferPointer(rebasing: line[outcome])),
                let calls = found.calls.flatMap({ Self.integer(line, $0) }),
                found.sent.flatMap({ Self.integer(line, $0) }) != nil
            else { return nil }
            return .effectRun(.end(cause: cause, effect: effect, calls: calls))
        }
        return nil
    }

    /// Where the members of an effect line that the fast path reads lie in the line.
    private struct EffectLineMembers {
        var kind: Range<Int>?
        var cause: Range<Int>?
        var effect: Range<Int>?
        var index: Range<Int>?
        var name: (Range<Int>, JSONLineScanner.ValueType)?
        var time: JSONLineScanner.ValueType?
        var result: (Range<Int>, JSONLineScanner.ValueType)?
        var outcome: Range<Int>?
        var calls: Range<Int>?
        var sent: Range<Int>?
    }

    /// The content of the string value at `range` when it has no escape (so its bytes are the string's own,
    /// UTF-8 the scan checked); else `nil`, as for anything but a string.
    private static func plainString(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String? {
        guard range.count >= 2, line[range.lowerBound] == UInt8(ascii: "\"") else { return nil }
        let content = UnsafeBufferPointer(rebasing: line[(range.lowerBound + 1)..<(range.upperBound - 1)])
        guard !content.contains(UInt8(ascii: "\\")) else { return nil }
        return String(decoding: content, as: UTF8.self)
    }

    /// Whether the call name at `range` (a string) has no escape and, when it starts with `$`, is a built-in input.
    private static func isPlainCallName(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        let content = UnsafeBufferPointer(rebasing: line[(range.lowerBound + 1)..<(range.upperBound - 1)])
        guard !content.contains(UInt8(ascii: "\\")) else { return false }
        guard content.first == UInt8(ascii: "$") else { return true }
        return EffectCallEvent.BuiltIn.allCases.contains { $0.rawValue.utf8.elementsEqual(content) }
    }

    /// Whether `bytes` are an `effectEnd`'s outcome the reader knows, quoted.
    private static func isKnownOutcome(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        EffectEndEvent.Outcome.allCases.contains { bytes.elementsEqual("\"\($0.rawValue)\"".utf8) }
    }

    /// Whether a call's `result` object, which the scan found valid, has the one member `value`, or `cancelled`
    /// that is `true`; an `error` (or anything else) is left to the full check.
    private mutating func resultIsPlain(_ result: UnsafeBufferPointer<UInt8>) -> Bool {
        guard resultScanner.scanObject(result), resultScanner.members.count == 1 else { return false }
        let member = resultScanner.members[0]
        switch Self.packed(result, member.key) {
        case 0x65_75_6C_61_76: return true  // "value"
        default:
            let key = UnsafeBufferPointer(rebasing: result[member.key])
            let value = UnsafeBufferPointer(rebasing: result[member.value])
            return key.elementsEqual("cancelled".utf8) && value.elementsEqual("true".utf8)
        }
    }
}
