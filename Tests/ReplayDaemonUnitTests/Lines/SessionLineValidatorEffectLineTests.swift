import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import Testing

@testable import ReplayDaemon

/// replayd's fast path for `call` and `effectEnd` lines reads what the session reader reads, and leaves to the full
/// check every line it is not sure of.
@Suite struct SessionLineValidatorEffectLineTests {
    /// The `call` and `effectEnd` lines of the sample sessions.
    private static func sampleEffectLines() throws -> [String] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("samples/sessions")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().flatMap { name in
            try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8).split(separator: "\n")
                .map(String.init).filter { $0.contains(#""kind":"call""#) || $0.contains(#""kind":"effectEnd""#) }
        }
    }

    /// What the fast path makes of `line`, or `nil` when it leaves the line to the full check.
    private func fastPath(_ line: String) -> EffectLineOrder.RunLine? {
        var validator = SessionLineValidator()
        return Array(line.utf8).withUnsafeBufferPointer { bytes in
            guard validator.scanner.scanObject(bytes), case .effectRun(let run) = validator.fastEffectLine(bytes) else {
                return nil
            }
            return run
        }
    }

    /// What the session reader makes of `line`, or `nil` when it refuses it.
    private func reader(_ line: String) -> EffectLineOrder.RunLine? {
        guard let value = try? JSONValue(parsing: Array(line.utf8)), let event = try? SessionEvent(jsonValue: value)
        else { return nil }
        return EffectLineOrder.RunLine(event)
    }

    @Test func theSamplesEffectLinesTakeTheFastPathAndReadAsTheReaderReadsThem() throws {
        // Given every effect line of the sample sessions
        let lines = try Self.sampleEffectLines()
        #expect(lines.count > 50)
        #expect(lines.contains { $0.contains(#""kind":"effectEnd""#) })
        for line in lines {
            // A call that threw is left to the full check; every other sample line is plain.
            if line.contains(#""result":{"error""#) {
                #expect(fastPath(line) == nil, "\(line)")
            } else {
                #expect(fastPath(line) == reader(line), "\(line)")
                #expect(fastPath(line) != nil, "\(line)")
            }
        }
    }

    /// Effect lines the fast path takes: a cancelled call, a built-in input with a non-ASCII effect name, an
    /// input and a member the reader does not read, and an `effectEnd`.
    private static let plainLines = [
        #"{"cause":1,"effect":"e","index":0,"kind":"call","name":"n","result":{"cancelled":true},"time":1}"#,
        #"{"cause":1,"effect":"é","index":3,"input":[1],"kind":"call","name":"$uuid","result":{"value":"x"},"time":0.5,"x":0}"#,
        #"{"calls":2,"cause":1,"effect":"e","kind":"effectEnd","outcome":"cancelled","sent":1,"time":1}"#,
    ]

    @Test(arguments: plainLines)
    func aPlainEffectLineTakesTheFastPath(line: String) {
        #expect(fastPath(line) != nil)
        #expect(fastPath(line) == reader(line))
    }

    @Test(arguments: [
        // Fields the reader refuses.
        #"{"cause":0,"effect":"e","index":0,"kind":"call","name":"n","result":{"value":1},"time":1}"#,
        #"{"cause":-1,"effect":"e","index":0,"kind":"call","name":"n","result":{"value":1},"time":1}"#,
        #"{"cause":1,"effect":"","index":0,"kind":"call","name":"n","result":{"value":1},"time":1}"#,
        #"{"cause":1,"effect":"e","index":-1,"kind":"call","name":"n","result":{"value":1},"time":1}"#,
        #"{"cause":1,"effect":"e","index":1.0,"kind":"call","name":"n","result":{"value":1},"time":1}"#,
        #"{"cause":1,"effect":"e","index":0,"kind":"call","name":"$clock","result":{"value":1},"time":1}"#,
        #"{"cause":1,"effect":"e","index":0,"kind":"call","name":7,"result":{"value":1},"time":1}"#,
        #"{"cause":1,"effect":"e","index":0,"kind":"call","name":"n","result":{"value":1,"error":2},"time":1}"#,
        #"{"cause":1,"effect":"e","index":0,"kind":"call","name":"n","result":{"cancelled":false},"time":1}"#,
        #"{"cause":1,"effect":"e","index":0,"kind":"call","name":"n","result":{"values":1},"time":1}"#,
        #"{"cause":1,"effect":"e","index":0,"kind":"call","name":"n","result":{"value":1},"time":"1"}"#,
        #"{"cause":1,"effect":"e","index":0,"kind":"call","name":"n","result":{"value":1}}"#,
        #"{"cause":1,"effect":"e","kind":"effectEnd","outcome":"done","calls":0,"sent":0,"time":1}"#,
        #"{"cause":1,"effect":"e","kind":"effectEnd","outcome":"finishe","calls":0,"sent":0,"time":1}"#,
        #"{"cause":1,"effect":"e","kind":"effectEnd","outcome":"finished","calls":-1,"sent":0,"time":1}"#,
        #"{"cause":1,"effect":"e","kind":"effectEnd","outcome":"finished","calls":0,"time":1}"#,
        #"{"cause":1,"effect":"e","kind":"effectEnds","outcome":"finished","calls":0,"sent":0,"time":1}"#,
        // Fields the reader takes but the fast path leaves to it: escapes, an error result, a built-in name spelled
        // with an escape.
        #"{"cause":1,"effect":"\u0065","index":0,"kind":"call","name":"n","result":{"value":1},"time":1}"#,
        #"{"cause":1,"effect":"e","index":0,"kind":"call","name":"\u0024uuid","result":{"value":"x"},"time":1}"#,
        #"{"cause":1,"effect":"e","index":0,"kind":"call","name":"n","result":{"error":{"message":"m","type":"T"}},"time":1}"#,
    ] + Self.plainLines)
    func aLineTheFastPathTakesReadsAsTheReaderReadsIt(line: String) {
        let fast = fastPath(line)
        #expect(fast == nil || fast == reader(line))
        // And the whole check agrees with the reader, whichever path it took.
        var validator = SessionLineValidator()
        let checked = Array(line.utf8).withUnsafeBufferPointer { validator.check($0) }
        switch checked {
        case .success(.effectRun(let run)): #expect(run == reader(line))
        case .success(let other): Issue.record("not an effect line: \(other)")
        case .failure: #expect(reader(line) == nil)
        }
    }
}
