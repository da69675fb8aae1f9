import StoreKitJSON

/// Turns a held `action` line into a `gap` line that keeps its action without its state, for a journal near its
/// bound: tens of bytes where the line took kilobytes, so an outage that would have filled the journal with states
/// loses no action.
enum KeptActionLine {
    /// The entry of a one-action `gap` of `reason` (with `message`) that keeps the action of the action line
    /// `entry`; `nil` when the entry is not one action line, or its bytes do not read as one.
    ///
    /// The line's other members are copied as they are, found by the daemon's validating scan without parsing the
    /// state they leave out; a line that scan cannot take (a key with an escape or a byte above 0x7F) is parsed.
    static func entry(
        keeping entry: UnconfirmedLines.Entry, reason: GapEvent.Reason, message: String
    ) -> UnconfirmedLines.Entry? {
        guard case .state = entry.content, entry.sequences.count == 1 else { return nil }
        let sequence = entry.sequences.lowerBound
        let keptAction = entry.bytes.withUnsafeBufferPointer { bytes in
            actionMembers(ofLine: UnsafeBufferPointer(rebasing: bytes.dropLast()))
        }
        guard let keptAction else { return nil }
        // The gap's members in canonical (sorted) order, the kept action first.
        var bytes = Array(#"{"actions":["#.utf8) + keptAction
        bytes += Array(#"],"count":1,"from":\#(sequence),"kind":"gap","message":"#.utf8)
        bytes += JSONValue.string(message).canonicalBytes()
        bytes += Array(#","reason":"\#(reason.rawValue)","to":\#(sequence)}"#.utf8)
        bytes.append(0x0A)
        return UnconfirmedLines.Entry(sequences: entry.sequences, bytes: bytes, content: .keptActions)
    }

    /// The members of the action line `line` but `kind`, `state` and `patch`, as one JSON object; `nil` when it is
    /// not an action line.
    private static func actionMembers(ofLine line: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var scanner = JSONLineScanner()
        guard scanner.scanObject(line) else {
            return scanner.metUncomparableKey ? parsedActionMembers(ofLine: line) : nil
        }
        func text(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: line[range]) }
        var object: [UInt8] = [UInt8(ascii: "{")]
        var isAction = false
        for member in scanner.members {
            switch String(decoding: text(member.key), as: UTF8.self) {
            case "kind":
                isAction = text(member.value).elementsEqual(#""action""#.utf8)
            case "state", "patch":
                continue
            default:
                if object.count > 1 { object.append(UInt8(ascii: ",")) }
                // The key with its quotes, through the end of its value.
                object += text((member.key.lowerBound - 1)..<member.value.upperBound)
            }
        }
        object.append(UInt8(ascii: "}"))
        return isAction ? object : nil
    }

    /// ``actionMembers(ofLine:)`` by parsing the whole line.
    private static func parsedActionMembers(ofLine line: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard let value = try? JSONValue(parsing: line), case .object(var members) = value,
            members["kind"] == .string(SessionEvent.Kind.action.rawValue)
        else { return nil }
        members["kind"] = nil
        members["state"] = nil
        members["patch"] = nil
        return JSONValue.object(members).canonicalBytes()
    }
}
