import Foundation
import StoreKitCore
import StoreKitReplay

/// Writes `check` results as JUnit XML, which GitHub Actions, GitLab and Jenkins display.
enum JUnitReport {
    /// Writes `results` to `path`; the host that replayed them goes into the suite's `<properties>`.
    static func write(_ results: [CheckCommand.Result], host: HostIdentity, to path: String) throws(CLIError) {
        let failures = results.filter { $0.status == 1 }.count
        let errors = results.filter { $0.status == 2 }.count
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += #"<testsuites name="replay-cli check" tests="\#(results.count)" failures="\#(failures)" errors="\#(errors)">"# + "\n"
        xml += #"  <testsuite name="golden replay" tests="\#(results.count)" failures="\#(failures)" errors="\#(errors)">"# + "\n"
        xml += "    <properties>\n"
        for (name, value) in host.properties {
            xml += #"      <property name="\#(escape(name))" value="\#(escape(value))"/>"# + "\n"
        }
        xml += "    </properties>\n"
        for result in results {
            xml += #"    <testcase classname="replay" name="\#(escape(result.path))">"#
            switch result.status {
            case 0:
                xml += "</testcase>\n"
            case 1:
                xml += "\n" + #"      <failure message="\#(escape(result.verdict))">\#(escape(result.explanation.text))</failure>"# + "\n    </testcase>\n"
            default:
                xml += "\n" + #"      <error message="\#(escape(result.explanation.text))"/>"# + "\n    </testcase>\n"
            }
        }
        xml += "  </testsuite>\n</testsuites>\n"
        do {
            try Data(xml.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CLIError(.output, "cannot write the JUnit report '\(path)': \(error.localizedDescription)")
        }
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
