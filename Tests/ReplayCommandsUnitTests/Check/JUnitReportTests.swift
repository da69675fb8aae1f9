import Foundation
import StoreKitCore
import StoreKitReplay
import Testing

@testable import ReplayCommands

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The JUnit report is well-formed XML whatever a session's path or an action's name holds: what XML 1.0 forbids
/// is written visibly as `\u{...}`, markup as entities, and line breaks in an attribute as character references.
@Suite struct JUnitReportTests {
    /// The characters XML 1.0 forbids that a Swift string can hold, and the ones it allows that a reader would lose.
    static let hostile: [Unicode.Scalar] =
        (0x00...0x1F).compactMap(Unicode.Scalar.init) + ["\u{7F}", "\u{FFFE}", "\u{FFFF}"]

    /// Writes a report of one diverged session whose path and explanation hold `text`, checks that a strict parser
    /// reads it to its end without an error (`XMLDocument` recovers from some), and parses it.
    private func parsedReport(holding text: String) throws -> XMLDocument {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("junit-\(UUID().uuidString).xml").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = SessionCheck(
            path: "sessions/\(text).jsonl", verdict: "diverged", status: .different,
            explanation: [RenderedLine(.text, "diverged at step 5 (\(text))"), RenderedLine(.text, "step 5: <\(text)>")],
            finding: .failed(CLIError(.input, "")))
        let host = HostIdentity(executable: nil, builtAt: nil, build: nil, buildSkipped: false, commit: nil, dirty: false)
        try JUnitReport.write([result], host: host, to: path)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let parser = XMLParser(data: data)
        #expect(parser.parse(), "not well-formed: \(String(describing: parser.parserError))")
        return try XMLDocument(data: data)
    }

    @Test(arguments: hostile)
    func aCharacterInASessionPathOrAnActionNameLeavesTheReportWellFormed(_ scalar: Unicode.Scalar) throws {
        // Given a session path and an action name holding the character
        let text = "a" + String(scalar) + "b"

        // When the report is written, then it parses, and says the character as Swift would, or as it is
        let document = try parsedReport(holding: text)
        let shown = ["\t", "\n"].contains(scalar) ? text : "a\\u{\(String(scalar.value, radix: 16, uppercase: true))}b"
        let testCase = try #require(try document.nodes(forXPath: "//testcase").first as? XMLElement)
        #expect(testCase.attribute(forName: "name")?.stringValue == "sessions/\(shown).jsonl")
        let failure = try #require(testCase.elements(forName: "failure").first)
        #expect(failure.stringValue == "diverged at step 5 (\(shown))\nstep 5: <\(shown)>")
    }

    @Test func markupInAnActionNameIsText() throws {
        let document = try parsedReport(holding: #"x"/><injected a="&amp;"#)
        let failure = try #require(try document.nodes(forXPath: "//failure").first)
        #expect(failure.stringValue == #"diverged at step 5 (x"/><injected a="&amp;)"# + "\n" + #"step 5: <x"/><injected a="&amp;>"#)
        #expect(try document.nodes(forXPath: "//injected").isEmpty)
    }
}
