import StoreKitTestFixtures
import Testing

/// Hand-written sessions that break one rule each, shared by the reader's, the decoder's and the verifier's tests.
struct BrokenSession: CustomTestStringConvertible, Sendable {
    let name: String
    let lines: [String]
    /// The line the reader refuses.
    let line: Int
    /// The reader's whole reason, when the test pins it (patch messages belong to JSON Patch's own tests).
    let reason: String?
    var testDescription: String { name }

    /// The session as NDJSON, every line `\n`-terminated.
    var text: String { lines.map { $0 + "\n" }.joined() }
}

/// An action line of the tally store whose state is the initial one.
func tallyAction(_ seq: Int, extra: String = "") -> String {
    #"{"action":"clear","kind":"action","seq":\#(seq),"state":{"items":[],"labels":[],"ratio":1.0,"total":0},"time":0.5\#(extra)}"#
}

/// A gap line covering `first...last`.
func gapLine(_ first: Int, _ last: Int) -> String {
    #"{"count":\#(last - first + 1),"from":\#(first),"kind":"gap","reason":"bufferFull","to":\#(last)}"#
}

/// An action line stored as a patch.
func patchAction(_ seq: Int, _ patch: String) -> String {
    #"{"action":"clear","kind":"action","patch":\#(patch),"seq":\#(seq),"time":0.5}"#
}

let endLine = #"{"actions":3,"dropped":0,"kind":"end","reason":"finished","time":1.5}"#

let brokenSessions: [BrokenSession] = [
    BrokenSession(
        name: "a repeated sequence number (a duplicated line)",
        lines: [headerLine, tallyAction(1), tallyAction(2), tallyAction(2), tallyAction(3), endLine], line: 4,
        reason: "seq 2 repeats or goes backwards: the lines before it cover sequence numbers up to 2"),
    BrokenSession(
        name: "a sequence number that goes backwards",
        lines: [headerLine, tallyAction(1), tallyAction(2), tallyAction(1), endLine], line: 4,
        reason: "seq 1 repeats or goes backwards: the lines before it cover sequence numbers up to 2"),
    BrokenSession(
        name: "lines out of order",
        lines: [headerLine, tallyAction(1), tallyAction(3), tallyAction(2), endLine], line: 3,
        reason: "seq 3 skips 2 with no 'gap' line for them (the lines before it cover up to 1)"),
    BrokenSession(
        name: "a skip with no gap line",
        lines: [headerLine, tallyAction(1), tallyAction(5), endLine], line: 3,
        reason: "seq 5 skips 2...4 with no 'gap' line for them (the lines before it cover up to 1)"),
    BrokenSession(
        name: "an end that counts an action no line holds",
        lines: [headerLine, tallyAction(1), tallyAction(2), endLine], line: 4,
        reason: "field 'actions' is 3, but the lines before it cover sequence numbers up to 2: 3 has no action or 'gap' line"),
    BrokenSession(
        name: "an end that counts actions after a gap with no line for them",
        lines: [headerLine, gapLine(1, 1), endLine.replacingOccurrences(of: #""actions":3"#, with: #""actions":4"#)],
        line: 3,
        reason: "field 'actions' is 4, but the lines before it cover sequence numbers up to 1: 2...4 have no action or "
            + "'gap' line"),
    BrokenSession(
        name: "an end whose count of actions is negative",
        lines: [headerLine, endLine.replacingOccurrences(of: #""actions":3"#, with: #""actions":-1"#)], line: 2,
        reason: "field 'actions' is -1; a count of actions runs from 0 to 9007199254740991, the largest sequence number"),
    BrokenSession(
        name: "a gap whose count disagrees with its range",
        lines: [
            headerLine, tallyAction(1), gapLine(2, 3).replacingOccurrences(of: #""count":2"#, with: #""count":5"#),
            endLine,
        ],
        line: 3, reason: "field 'count' is 5, but the gap from 2 to 3 holds 2"),
    BrokenSession(
        name: "a gap that overlaps what is covered",
        lines: [headerLine, tallyAction(1), tallyAction(2), gapLine(2, 3), tallyAction(4), endLine], line: 4,
        reason: "gap 2...3 does not start right after the sequence numbers already covered (up to 2); it must start at 3"),
    BrokenSession(
        name: "a gap that leaves a hole before it",
        lines: [headerLine, tallyAction(1), gapLine(3, 3), tallyAction(4), endLine], line: 3,
        reason: "gap 3 does not start right after the sequence numbers already covered (up to 1); it must start at 2"),
    BrokenSession(
        name: "a skip after a gap",
        lines: [headerLine, tallyAction(1), gapLine(2, 3), tallyAction(5), endLine], line: 4,
        reason: "seq 5 skips 4 with no 'gap' line for them (the lines before it cover up to 3)"),
    BrokenSession(
        name: "a gap that runs to the largest integer",
        lines: [headerLine, tallyAction(1), gapLine(2, Int.max), gapLine(5, 6), endLine], line: 3,
        reason: "field 'to' is 9223372036854775807; sequence numbers go up to 9007199254740991 (2^53 - 1, the largest "
            + "integer every JSON reader reads exactly)"),
    BrokenSession(
        name: "a sequence number past 2^53 - 1",
        lines: [headerLine, tallyAction(1), gapLine(2, 9_007_199_254_740_991), tallyAction(9_007_199_254_740_992), endLine],
        line: 4,
        reason: "field 'seq' is 9007199254740992; sequence numbers go up to 9007199254740991 (2^53 - 1, the largest "
            + "integer every JSON reader reads exactly)"),
    BrokenSession(
        name: "format written as 1.0",
        lines: [headerLine.replacingOccurrences(of: #""format":1"#, with: #""format":1.0"#), tallyAction(1), endLine],
        line: 1, reason: "field 'format' expected an integer, found number"),
    BrokenSession(
        name: "pid written as 1.0",
        lines: [headerLine.replacingOccurrences(of: #""kind":"session""#, with: #""kind":"session","pid":4.0"#), endLine],
        line: 1, reason: "field 'pid' expected an integer, found number"),
    BrokenSession(
        name: "cause written as 1.0",
        lines: [headerLine, tallyAction(1), tallyAction(2, extra: #","origin":"effect","cause":1.0"#), endLine],
        line: 3, reason: "field 'cause' expected an integer, found number"),
    BrokenSession(
        name: "an end line's actions written as 1.0",
        lines: [headerLine, tallyAction(1), endLine.replacingOccurrences(of: #""actions":3"#, with: #""actions":3.0"#)],
        line: 3, reason: "field 'actions' expected an integer, found number"),
    BrokenSession(
        name: "a patch operation missing its value",
        lines: [headerLine, patchAction(1, #"[{"op":"replace","path":"/total"}]"#), endLine], line: 2,
        reason: "field 'patch[0].value' is missing"),
    BrokenSession(
        name: "a patch right after a gap",
        lines: [headerLine, tallyAction(1), gapLine(2, 2), patchAction(3, #"[{"op":"replace","path":"/total","value":1}]"#), endLine],
        line: 4,
        reason: "field 'patch' has no state to apply to: a gap came before it (after a gap a line holds a full 'state')"),
    BrokenSession(
        name: "a patch aimed at a member that does not exist",
        lines: [headerLine, patchAction(1, #"[{"op":"remove","path":"/nothing"}]"#), endLine], line: 2,
        reason: "field 'patch[0]' (remove '/nothing') does not apply to the state before it: '/nothing' does not exist"),
    BrokenSession(
        name: "a second header",
        lines: [headerLine, tallyAction(1), headerLine, tallyAction(2), endLine], line: 3,
        reason: "a second 'session' header line; a session has exactly one, on its first line"),
    BrokenSession(
        name: "no header",
        lines: [tallyAction(1), endLine], line: 1,
        reason: "the first line has kind 'action'; a session must start with a 'session' header line"),
    BrokenSession(
        name: "an empty line", lines: [headerLine, tallyAction(1), "", tallyAction(2), endLine], line: 3,
        reason: "line is empty (every line must hold one JSON object)"),
]
