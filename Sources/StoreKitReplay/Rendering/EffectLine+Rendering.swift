import StoreKitCore
import StoreKitJSON

extension EffectCallEvent {
    /// The call in one line, as `log` and the HTML report show it between the actions: its run, its index, its name,
    /// its input and its result, each value cut short, every string from the session with its controls escaped.
    ///
    /// `step 1 effect 'post score' call 2: score.post({"score":1}) -> 7`; an error reads
    /// `... threw URLError: offline`, a cancellation `... cancelled`.
    public var summary: String {
        let input = input.map { "(\(Self.short($0)))" } ?? ""
        let outcome: String
        switch result {
        case .value(let value): outcome = "-> \(Self.short(value))"
        case .error(let error): outcome = "threw \(error.type.escapingControls()): \(Self.short(error.message.escapingControls()))"
        case .cancelled: outcome = "cancelled"
        }
        return "\(EffectEndEvent.run(cause: cause, effect: effect)) call \(index): \(name.escapingControls())\(input) \(outcome)"
    }

    /// A value's canonical JSON with its controls escaped, cut to about 60 characters.
    static func short(_ value: JSONValue) -> String { short(value.canonicalString.escapingControls()) }

    /// `text` cut to 60 characters, the last three `...` when it was longer.
    private static func short(_ text: String) -> String {
        text.count <= 60 ? text : text.prefix(57) + "..."
    }
}

extension EffectEndEvent {
    /// The run's end in one line, as `log` and the HTML report show it: `step 1 effect 'post score' finished: 3
    /// calls, 1 action sent`.
    public var summary: String {
        "\(Self.run(cause: cause, effect: effect)) \(outcome.rawValue): \(ReplayReport.count(calls, "call")), \(ReplayReport.count(sent, "action")) sent"
    }

    /// How a line names an effect run: `step 1 effect 'post score'`.
    static func run(cause: Int, effect: String) -> String {
        "step \(cause) effect '\(effect.escapingControls())'"
    }
}
