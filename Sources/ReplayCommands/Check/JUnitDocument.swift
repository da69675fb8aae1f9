import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A JUnit XML report as `check --junit` writes it: one or more suites of test cases, one case per session.
/// ``xml`` renders it; ``init(xml:file:)`` reads one back (for `merge-reports`), refusing anything else.
struct JUnitDocument: Equatable {
    /// One suite: the sessions one `check` replayed, and the host that replayed them.
    struct Suite: Equatable {
        /// The suite's name.
        var name: String
        /// The host's properties, in order.
        var properties: [Property]
        /// The sessions, in the order checked.
        var cases: [Case]

        /// How many cases failed.
        var failures: Int { cases.filter { if case .failed = $0.outcome { true } else { false } }.count }
        /// How many cases could not be checked.
        var errors: Int { cases.filter { if case .error = $0.outcome { true } else { false } }.count }
    }

    /// A `<property>`.
    struct Property: Equatable {
        /// Its name, such as `host.commit`.
        var name: String
        /// Its value.
        var value: String
    }

    /// A `<testcase>`: one session.
    struct Case: Equatable {
        /// How a case came out.
        enum Outcome: Equatable {
            /// It passed.
            case passed
            /// It diverged: the verdict, and the explanation.
            case failed(message: String, text: String)
            /// It could not be checked: why.
            case error(message: String)
        }

        /// The class name, `replay`.
        var className: String
        /// The session's path.
        var name: String
        /// How it came out.
        var outcome: Outcome
        /// What of its effects was not checked, for a case that passed or failed.
        var systemOut: String?
    }

    /// The name of the `<testsuites>` root.
    static let rootName = "replay-cli check"

    /// The suites, in order.
    var suites: [Suite]

    /// Creates a document of `suites`.
    init(suites: [Suite]) {
        self.suites = suites
    }

    /// The document's text. Every string it did not make is written through ``XMLText/escaped(_:in:)``.
    var xml: String {
        let cases = suites.flatMap(\.cases)
        let failures = suites.map(\.failures).reduce(0, +)
        let errors = suites.map(\.errors).reduce(0, +)
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += #"<testsuites name="\#(Self.rootName)" tests="\#(cases.count)" failures="\#(failures)" errors="\#(errors)">"# + "\n"
        for suite in suites {
            xml += #"  <testsuite name="\#(XMLText.escaped(suite.name, in: .attribute))" tests="\#(suite.cases.count)""#
                + #" failures="\#(suite.failures)" errors="\#(suite.errors)">"# + "\n"
            xml += "    <properties>\n"
            for property in suite.properties {
                xml += #"      <property name="\#(XMLText.escaped(property.name, in: .attribute))""#
                    + #" value="\#(XMLText.escaped(property.value, in: .attribute))"/>"# + "\n"
            }
            xml += "    </properties>\n"
            for testCase in suite.cases { xml += Self.render(testCase) }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    private static func render(_ testCase: Case) -> String {
        var xml = #"    <testcase classname="\#(XMLText.escaped(testCase.className, in: .attribute))""#
            + #" name="\#(XMLText.escaped(testCase.name, in: .attribute))">"#
        let notChecked = testCase.systemOut.map { "      <system-out>\(XMLText.escaped($0, in: .content))</system-out>\n" } ?? ""
        switch testCase.outcome {
        case .passed where notChecked.isEmpty:
            xml += "</testcase>\n"
        case .passed:
            xml += "\n" + notChecked + "    </testcase>\n"
        case .failed(let message, let text):
            xml += "\n" + #"      <failure message="\#(XMLText.escaped(message, in: .attribute))">"#
                + #"\#(XMLText.escaped(text, in: .content))</failure>"# + "\n" + notChecked + "    </testcase>\n"
        case .error(let message):
            xml += "\n" + #"      <error message="\#(XMLText.escaped(message, in: .attribute))"/>"# + "\n    </testcase>\n"
        }
        return xml
    }

    /// Reads a report `check --junit` wrote.
    /// - Parameter file: The file's name, for errors.
    /// - Throws: ``CLIError`` naming the file and what is wrong: not well-formed XML, an element or attribute
    ///   `check` does not write, or counts that disagree with the cases.
    init(xml: Data, file: String) throws(CLIError) {
        let reader = JUnitReader()
        let parser = XMLParser(data: xml)
        parser.delegate = reader
        let parsed = parser.parse()
        if let problem = reader.problem {
            throw CLIError(.input, "'\(file)' is not a JUnit report written by replay-cli check: \(problem)")
        }
        if parsed, let open = reader.openElement {
            throw CLIError(.input, "'\(file)' is not well-formed XML (line \(parser.lineNumber)): it ends inside <\(open)>")
        }
        guard parsed, reader.sawRoot else {
            let line = parser.lineNumber
            let reason = parser.parserError.map { "\($0.localizedDescription)" } ?? "it is empty"
            throw CLIError(.input, "'\(file)' is not well-formed XML (line \(line)): \(reason)")
        }
        suites = reader.suites
    }
}

/// Reads `check --junit` reports into a ``JUnitDocument``, noting the first thing it does not expect.
private final class JUnitReader: NSObject, XMLParserDelegate {
    var suites: [JUnitDocument.Suite] = []
    var sawRoot = false
    var problem: String?
    private var path: [String] = []
    /// The innermost element not closed when the document ended; `nil` when every one was.
    var openElement: String? { path.last }
    private var declaredCounts: [(tests: String?, failures: String?, errors: String?)] = []
    private var text = ""
    private var failureMessage: String?

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String]
    ) {
        guard problem == nil else { return }
        let parent = path.last
        path.append(name)
        text = ""
        func require(_ names: Set<String>) -> Bool {
            let unknown = Set(attributes.keys).subtracting(names)
            guard unknown.isEmpty else {
                fail(parser, "<\(name)> has attribute '\(unknown.sorted()[0])'")
                return false
            }
            return true
        }
        switch (parent, name) {
        case (nil, "testsuites"):
            guard require(["name", "tests", "failures", "errors"]) else { return }
            sawRoot = true
        case ("testsuites", "testsuite"):
            guard require(["name", "tests", "failures", "errors"]) else { return }
            suites.append(.init(name: attributes["name"] ?? "", properties: [], cases: []))
            declaredCounts.append((attributes["tests"], attributes["failures"], attributes["errors"]))
        case ("testsuite", "properties"):
            break
        case ("properties", "property"):
            guard require(["name", "value"]) else { return }
            suites[suites.count - 1].properties.append(.init(name: attributes["name"] ?? "", value: attributes["value"] ?? ""))
        case ("testsuite", "testcase"):
            guard require(["classname", "name"]) else { return }
            suites[suites.count - 1].cases.append(
                .init(className: attributes["classname"] ?? "", name: attributes["name"] ?? "", outcome: .passed))
        case ("testcase", "failure"):
            guard require(["message"]) else { return }
            failureMessage = attributes["message"] ?? ""
        case ("testcase", "error"):
            guard require(["message"]) else { return }
            updateCase { $0.outcome = .error(message: attributes["message"] ?? "") }
        case ("testcase", "system-out"):
            break
        default:
            fail(parser, "unexpected <\(name)>" + (parent.map { " in <\($0)>" } ?? ""))
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        guard problem == nil else { return }
        path.removeLast()
        switch name {
        case "failure":
            let message = failureMessage ?? ""
            let explanation = text
            updateCase { $0.outcome = .failed(message: message, text: explanation) }
        case "system-out":
            let output = text
            updateCase { $0.systemOut = output }
        case "testsuite":
            let suite = suites[suites.count - 1]
            let declared = declaredCounts[suites.count - 1]
            let counted = (String(suite.cases.count), String(suite.failures), String(suite.errors))
            if (declared.tests, declared.failures, declared.errors) != counted {
                fail(
                    parser,
                    "suite '\(suite.name)' says tests=\(declared.tests ?? "?") failures=\(declared.failures ?? "?") "
                        + "errors=\(declared.errors ?? "?") but holds \(counted.0) cases, \(counted.1) failed, \(counted.2) errors")
            }
        default:
            break
        }
        text = ""
    }

    private func updateCase(_ change: (inout JUnitDocument.Case) -> Void) {
        let suite = suites.count - 1
        change(&suites[suite].cases[suites[suite].cases.count - 1])
    }

    private func fail(_ parser: XMLParser, _ reason: String) {
        problem = "line \(parser.lineNumber): \(reason)"
        parser.abortParsing()
    }
}
