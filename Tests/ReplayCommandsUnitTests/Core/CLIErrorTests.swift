import ReplayCommands
import StoreKitCore
import StoreKitReplay
import Testing

/// Each error kind has its exit status, its text and its JSON form.
@Suite struct CLIErrorTests {
    @Test func aSessionErrorKeepsItsFileAndLineAsData() throws {
        let error = CLIError(.session, "field 'kind' is missing (expected a string)", file: "s.jsonl", line: 3)
        #expect(error.exitStatus.code == 2)
        #expect(error.text == "Error: s.jsonl:3: field 'kind' is missing (expected a string)")
        #expect(
            error.jsonValue == .object([
                "error": .string("session"), "message": .string("field 'kind' is missing (expected a string)"),
                "file": .string("s.jsonl"), "line": .integer(3), "exitStatus": .integer(2),
            ]))
    }

    @Test func aUsageErrorCarriesTheUsageLine() {
        let error = CLIError("unknown option '--x'", usage: "replay-cli show <session>")
        #expect(error.kind == .usage)
        #expect(error.text == "Error: unknown option '--x'\nUsage: replay-cli show <session>")
        #expect(
            error.jsonValue == .object([
                "error": .string("usage"), "message": .string("unknown option '--x'"),
                "usage": .string("replay-cli show <session>"), "exitStatus": .integer(2),
            ]))
    }

    @Test func theReadersErrorBecomesASessionErrorAtItsLine() throws {
        do {
            let reader = SessionReader(bytes: Array("{\"x\":1}\n".utf8), source: "in-memory.jsonl")
            _ = try reader.next()
            Issue.record("the reader accepted a line without a kind")
        } catch {
            let cliError = CLIError(error)
            #expect(cliError.kind == .session)
            #expect(cliError.file == "in-memory.jsonl")
            #expect(cliError.line == 1)
            #expect(cliError.description == error.description)
        }
    }

    @Test(arguments: CLIError.Kind.allCases)
    func everyKindIsTroubleExitTwo(_ kind: CLIError.Kind) {
        #expect(kind.exitStatus.code == 2)
    }
}
