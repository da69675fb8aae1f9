import StoreKitCore
import StoreKitJSON

/// How every text output shows a recorded action: the way Swift source writes it, as `TestStore` does
/// (``CompactDescription/init(encodedAction:name:)``: `path(.element(action: .rehearse(.timerTick), id: 2))`),
/// with the characters a terminal would act on escaped. JSON output keeps the action's JSON.
package enum ActionText {
    /// The action `action`, recorded as `name`, as text output shows it.
    package static func of(_ action: JSONValue, named name: String) -> String {
        CompactDescription(encodedAction: action, name: name).description.escapingControls()
    }

    /// The action `action`, recorded as `name`, as text output shows it; its name alone when its JSON is not known.
    package static func of(_ action: JSONValue?, named name: String) -> String {
        guard let action else { return name.escapingControls() }
        return of(action, named: name)
    }
}
