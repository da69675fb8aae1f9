import Foundation
import StoreKitCore
import StoreKitReplay

/// Writes `check` results as JUnit XML, which GitHub Actions, GitLab and Jenkins display.
enum JUnitReport {
    /// Writes `results` to `path`; the host that replayed them goes into the suite's `<properties>`, and what of a
    /// session's effects was not checked into its `<system-out>`, so that a passing case never claims more.
    ///
    /// The document is rendered by ``JUnitDocument/xml``, which escapes every string it did not make, so it is
    /// well-formed whatever it holds.
    static func write(_ results: [SessionCheck], host: HostIdentity, to path: String) throws(CLIError) {
        let cases = results.map { result in
            let outcome: JUnitDocument.Case.Outcome
            switch result.status {
            case .ok: outcome = .passed
            case .different: outcome = .failed(message: result.verdict, text: result.explanation.text)
            default: outcome = .error(message: result.explanation.text)
            }
            let isError = if case .error = outcome { true } else { false }
            return JUnitDocument.Case(
                className: "replay", name: result.path, outcome: outcome, systemOut: isError ? nil : result.effectsNotChecked)
        }
        let suite = JUnitDocument.Suite(
            name: "golden replay", properties: host.properties.map { JUnitDocument.Property(name: $0.0, value: $0.1) },
            cases: cases)
        try write(JUnitDocument(suites: [suite]), to: path)
    }

    /// Writes `document` to `path`, whole or not at all.
    static func write(_ document: JUnitDocument, to path: String) throws(CLIError) {
        do {
            try Data(document.xml.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CLIError(.output, "cannot write the JUnit report '\(path)': \(error.localizedDescription)")
        }
    }
}
