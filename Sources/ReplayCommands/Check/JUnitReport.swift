import Foundation
import StoreKitCore
import StoreKitReplay

/// Writes `check` results as JUnit XML, which GitHub Actions, GitLab and Jenkins display.
enum JUnitReport {
    /// Writes `results` to `path`; the host that replayed them goes into the suite's `<properties>`, and what of a
    /// session's effects was not checked into its `<system-out>`, so that a passing case never claims more.
    ///
    /// Every string the report did not make (session paths, explanations naming actions and state paths, the host's
    /// properties) is written through ``XMLText/escaped(_:in:)``, so the document is well-formed whatever it holds.
    static func write(_ results: [SessionCheck], host: HostIdentity, to path: String) throws(CLIError) {
        let failures = results.filter { $0.status == .different }.count
        let errors = results.filter { $0.status == .trouble }.count
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += #"<testsuites name="replay-cli check" tests="\#(results.count)" failures="\#(failures)" errors="\#(errors)">"# + "\n"
        xml += #"  <testsuite name="golden replay" tests="\#(results.count)" failures="\#(failures)" errors="\#(errors)">"# + "\n"
        xml += "    <properties>\n"
        for (name, value) in host.properties {
            xml += #"      <property name="\#(XMLText.escaped(name, in: .attribute))""#
                + #" value="\#(XMLText.escaped(value, in: .attribute))"/>"# + "\n"
        }
        xml += "    </properties>\n"
        for result in results {
            xml += #"    <testcase classname="replay" name="\#(XMLText.escaped(result.path, in: .attribute))">"#
            let notChecked = result.effectsNotChecked.map { "      <system-out>\(XMLText.escaped($0, in: .content))</system-out>\n" } ?? ""
            switch result.status {
            case .ok where notChecked.isEmpty:
                xml += "</testcase>\n"
            case .ok:
                xml += "\n" + notChecked + "    </testcase>\n"
            case .different:
                xml += "\n" + #"      <failure message="\#(XMLText.escaped(result.verdict, in: .attribute))">"#
                    + #"\#(XMLText.escaped(result.explanation.text, in: .content))</failure>"# + "\n" + notChecked + "    </testcase>\n"
            default:
                xml += "\n" + #"      <error message="\#(XMLText.escaped(result.explanation.text, in: .attribute))"/>"# + "\n    </testcase>\n"
            }
        }
        xml += "  </testsuite>\n</testsuites>\n"
        do {
            try Data(xml.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CLIError(.output, "cannot write the JUnit report '\(path)': \(error.localizedDescription)")
        }
    }
}
