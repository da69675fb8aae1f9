import Foundation
import StoreKitReplay
import Testing

/// Sessions of random lines, valid and broken mixed (numbers that repeat, skip or go back, gaps whose `count` is
/// wrong, ends that count too many or too few actions, patches, duplicate keys, cut-off lines), sent by raw clients:
/// whatever the real replayd stores of them, the session reader reads without an error. The daemon checks lines
/// as the reader does and fills what it refuses with gaps, so it never stores a file the reader refuses.
@Suite struct ReplaydRandomAgreementTests {
    @Test func whateverReplaydStoresOfRandomLinesTheReaderReadsWithoutAnError() async throws {
        // Given a daemon, and sixty sessions of random lines from a fixed seed
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let daemon = try await DaemonProcess(folder: folder)
        var random = SplitMix64(seed: 0x5EED_CAFE)
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

        // Then every stored file reads without an error, and some lines were refused along the way
        #expect(folder.sessionFiles().count == sessions.count)
        for name in folder.sessionFiles() {
            let result = SessionVerifier.verify(path: folder.sessions + "/" + name)
            #expect(result.isValid, "\(name): \(result.problems)\n\(folder.lines(of: name).joined(separator: "\n"))")
        }
        #expect(daemon.count("line.rejected") > 0)
        #expect(await daemon.stop() == 0)
    }
}

/// The lines of one random session of the counter store (format 1): its header, then up to 30 lines, each an
/// action (as a state or a patch), a gap, an `end`, or a broken line, with sequence numbers that mostly go up by one.
enum RandomSessionLines {
    static func make(session: String, using random: inout SplitMix64) -> [String] {
        var lines = [SessionLines.header(session: session)]
        var sequence = 0
        for _ in 0..<Int.random(in: 1...30, using: &random) {
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<50:
                sequence = max(1, sequence + [1, 1, 1, 1, 2, 0, -1, 3].randomElement(using: &random)!)
                lines.append(
                    Bool.random(using: &random)
                        ? SessionLines.action(sequence)
                        : SessionLines.action(sequence, patch: #"[{"op":"replace","path":"/count","value":\#(sequence)}]"#))
            case 50..<65:
                let first = sequence + [1, 1, 2, 0].randomElement(using: &random)!
                let last = first + Int.random(in: -1...3, using: &random)
                let count = [last - first + 1, last - first + 1, 7].randomElement(using: &random)!
                lines.append(#"{"count":\#(count),"from":\#(first),"kind":"gap","reason":"bufferFull","to":\#(last)}"#)
                sequence = max(sequence, last)
            case 65..<80:
                let action = SessionLines.action(sequence + 1)
                lines.append(
                    [
                        String(action.dropLast(3)), action.replacingOccurrences(of: #""step":1"#, with: #""step":1,"step":2"#),
                        "{}", "", "[1]",
                    ].randomElement(using: &random)!)
                if Bool.random(using: &random) { sequence += 1 }
            default:
                let actions = max(0, sequence + [0, 0, 1, 3, -1].randomElement(using: &random)!)
                lines.append(SessionLines.end(actions: actions))
            }
        }
        return lines
    }
}

/// A small generator of pseudo-random numbers from a seed (SplitMix64), so a failure repeats.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
