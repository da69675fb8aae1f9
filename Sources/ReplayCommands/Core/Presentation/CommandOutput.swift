import StoreKitJSON

/// What a command found, computed once and carried as data: the two presenters write it, as text for a person or,
/// with `--json`, as one JSON document.
protocol CommandOutput {
    /// The JSON presenter's form: the document `--json` prints.
    var jsonValue: JSONValue { get }
    /// The text presenter: writes the result for a person to `terminal`.
    func writeText(to terminal: Terminal)
}

extension Terminal {
    /// Writes `output` in the form asked for: its JSON document when `json`, else its text.
    func present(_ output: some CommandOutput, json: Bool) {
        if json {
            out(output.jsonValue.prettyString())
        } else {
            output.writeText(to: self)
        }
    }
}
