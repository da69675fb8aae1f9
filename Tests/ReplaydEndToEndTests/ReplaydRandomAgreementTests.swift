import Foundation
import SampleSupport
import StoreKitReplay
import Testing

/// Sessions of random lines, valid and broken mixed (numbers that repeat, skip or go back, gaps whose `count` is
/// wrong, ends that count too many or too few actions, patches, duplicate keys, cut-off lines, effect runs whose
/// calls and ends come in or out of order), sent by raw clients:
/// whatever the real replayd stores of them, the session reader reads without an error. The daemon checks lines
/// as the reader does and fills what it refuses with gaps, so it never stores a file the reader refuses.
@Suite struct ReplaydRandomAgreementTests {
    @Test func whateverReplaydStoresOfRandomLinesTheReaderReadsWithoutAnError() async throws {
        // Given a daemon, and sixty sessions of random lines from a fixed seed
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // Sixty connections from this one process may be open at once while the daemon catches up: room for them.
        let daemon = try await DaemonProcess(folder: folder, arguments: ["--max-connections-per-peer", "1024"])
        var random = SeededRandom(seed: 0x5EED_CAFE)
        let sessions = (0..<60).map { RandomSessionLines.make(session: "r\($0)", using: &random) }

        // When each is sent on its own connection, which then closes
        for lines in sessions {
            let client = try RawClient(socket: folder.socket)
            try client.send(lines: lines)
            client.close()
        }
        await waitUntil("every session is closed") {
            daemon.count("session.ended") + daemon.count("session.disconnected") == sessions.count
        }

        // Then every stored file reads without an error; lines of every kind were stored, and some refused
        #expect(folder.sessionFiles().count == sessions.count)
        for name in folder.sessionFiles() {
            let result = SessionVerifier.verify(path: folder.sessions + "/" + name)
            #expect(result.isValid, "\(name): \(result.problems)\n\(folder.lines(of: name).joined(separator: "\n"))")
        }
        let stored = folder.sessionFiles().flatMap { folder.lines(of: $0) }
        for kind in ["action", "gap", "call", "effectEnd", "end"] {
            #expect(stored.contains { $0.contains(#""kind":"\#(kind)""#) }, "no stored line of kind \(kind)")
        }
        #expect(daemon.count("line.rejected") > 0)
        #expect(await daemon.stop() == 0)
    }
}

/// The lines of one random session of the counter store, of format 1 or 2 (with runs of the effect `tick`): its
/// header, then up to 30 lines of the kinds below, with numbers that mostly follow on, and an `end` half the time.
enum RandomSessionLines {
    /// What a line is, with how often it comes (in a session of format 1, only the first four).
    enum Kind: CaseIterable {
        case action, gap, broken, end, effectAction, call, effectEnd

        var weight: Int {
            switch self {
            case .action: 45
            case .gap: 12
            case .broken: 13
            case .end: 4
            case .effectAction: 11
            case .call: 15
            case .effectEnd: 8
            }
        }
    }

    static func make(session: String, using random: inout SeededRandom) -> [String] {
        let recordsEffects = Bool.random(using: &random)
        let kinds = recordsEffects ? Kind.allCases : [.action, .gap, .broken, .end]
        var lines = [SessionLines.header(session: session, effects: recordsEffects ? ["tick"] : [])]
        var sequence = 0
        for _ in 0..<Int.random(in: 1...30, using: &random) {
            let cause = max(1, sequence + Int.random(in: -1...1, using: &random))
            switch pick(kinds, using: &random) {
            case .action:
                sequence = max(1, sequence + [1, 1, 1, 1, 2, 0, -1, 3].randomElement(using: &random)!)
                let patch = #"[{"op":"replace","path":"/count","value":\#(sequence)}]"#
                lines.append(
                    Bool.random(using: &random)
                        ? SessionLines.action(sequence) : SessionLines.action(sequence, patch: patch))
            case .gap:
                let first = sequence + [1, 1, 2, 0].randomElement(using: &random)!
                let last = first + Int.random(in: -1...3, using: &random)
                let count = [last - first + 1, last - first + 1, 7].randomElement(using: &random)!
                lines.append(#"{"count":\#(count),"from":\#(first),"kind":"gap","reason":"bufferFull","to":\#(last)}"#)
                sequence = max(sequence, last)
            case .broken:
                let action = SessionLines.action(sequence + 1)
                let duplicateKey = action.replacingOccurrences(of: #""step":1"#, with: #""step":1,"step":2"#)
                lines.append([String(action.dropLast(3)), duplicateKey, "{}", "", "[1]"].randomElement(using: &random)!)
                if Bool.random(using: &random) { sequence += 1 }
            case .end:
                let actions = max(0, sequence + [0, 0, 1, 3, -1].randomElement(using: &random)!)
                lines.append(SessionLines.end(actions: actions))
            case .effectAction:
                sequence += 1
                lines.append(
                    #"{"action":{"increment":{}},"cause":\#(cause),"effect":"tick","kind":"action","name":"increment","#
                        + #""origin":"effect","seq":\#(sequence),"state":{"count":\#(sequence),"step":1},"time":0.5}"#)
            case .call:
                let index = [0, 0, 0, 1, 2].randomElement(using: &random)!
                lines.append(
                    #"{"cause":\#(cause),"effect":"tick","index":\#(index),"input":{},"kind":"call","#
                        + #""name":"clock.now","result":{"value":1},"time":0.5}"#)
            case .effectEnd:
                let calls = Int.random(in: 0...2, using: &random)
                lines.append(
                    #"{"calls":\#(calls),"cause":\#(cause),"effect":"tick","kind":"effectEnd","outcome":"finished","#
                        + #""sent":0,"time":0.6}"#)
            }
        }
        if Bool.random(using: &random) {
            lines.append(SessionLines.end(actions: max(0, sequence + [0, 0, 1].randomElement(using: &random)!)))
        }
        return lines
    }

    /// One of `kinds`, each as often as its weight.
    private static func pick(_ kinds: [Kind], using random: inout SeededRandom) -> Kind {
        var roll = Int.random(in: 0..<kinds.reduce(0) { $0 + $1.weight }, using: &random)
        for kind in kinds {
            if roll < kind.weight { return kind }
            roll -= kind.weight
        }
        return kinds[kinds.count - 1]
    }
}
