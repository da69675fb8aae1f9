import CommandLineOptions
import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// Whether a path pattern a user gave (`history`'s path, `log --path`, `--ignore`) names a place in any of the
/// states looked at, and while it names none, the places that do exist nearest to it, for a "did you mean".
///
/// A pattern walks each state as ``JSONPathPattern`` reads one (an enum's unlabeled payload `_0` may be left out).
/// Where a member name the pattern gives is missing, the walk goes on through the members there that are near it by
/// ``Suggestion/nearest(to:among:limit:)``; a pattern that comes through whole that way is a correction. Where no
/// member is near, or another step (an index, an id, a wildcard) finds nothing, the deepest place reached and the
/// members there are what exists nearest.
struct PatternPresence {
    /// The pattern looked for.
    let pattern: JSONPathPattern
    /// True once a state held a place the pattern names.
    private(set) var isPresent = false
    /// The pattern with mistyped member names corrected, where that names a place.
    private var corrections: Set<String> = []
    /// The deepest places reached, and the members there, where no correction was found.
    private var nearestPlaces: Set<String> = []

    /// At most this many member names are corrected in one pattern.
    private static let maximumCorrections = 2

    /// Starts looking for `pattern`.
    init(_ pattern: JSONPathPattern) {
        self.pattern = pattern
    }

    /// Looks for the pattern in `state`, unless a state looked at before held it.
    mutating func look(in state: JSONValue) {
        guard !isPresent else { return }
        walk(0, state, written: [], corrected: 0)
    }

    /// The few existing places nearest to the pattern: corrections when there are any, else the deepest places
    /// reached. Empty while the pattern is present, or when no state had anything to offer.
    var suggestions: (correcting: Bool, places: [String]) {
        guard !isPresent else { return (false, []) }
        if !corrections.isEmpty { return (true, Self.nearestFirst(corrections, to: pattern.text)) }
        return (false, Self.nearestFirst(nearestPlaces, to: pattern.text))
    }

    /// A sentence about a pattern that named nothing: `'todos[*].titel' names no place in any state of s.jsonl; did
    /// you mean 'todos[*].title'?`; `nil` when the pattern is present.
    /// - Parameters:
    ///   - subject: How the command line gave the pattern (`--ignore 'x'`, `'x'`).
    ///   - source: Where the states came from (`s.jsonl`, `the 3 sessions checked`).
    ///   - looked: What was looked in: `state`, or `state or action`.
    func note(subject: String, source: String, looked: String = "state") -> String? {
        guard !isPresent else { return nil }
        var text = "\(subject) names no place in any \(looked) of \(source)"
        let (correcting, places) = suggestions
        let quoted = places.map { "'\($0)'" }
        if correcting {
            text += "; did you mean \(Suggestion.either(quoted))?"
        } else if !places.isEmpty {
            text += places.count == 1 ? "; the nearest place that exists is \(quoted[0])" : "; the nearest places that exist are \(quoted.joined(separator: ", "))"
        }
        return text
    }

    /// Up to three of `places`, by edit distance to `text`, then alphabetically.
    private static func nearestFirst(_ places: Set<String>, to text: String) -> [String] {
        let ranked = places.map { (place: $0, distance: Suggestion.distance(text, $0)) }
            .sorted { ($0.distance, $0.place) < ($1.distance, $1.place) }
        return ranked.prefix(3).map(\.place)
    }

    /// Walks pattern component `step` on from `value`, the place the components `written` (the pattern's, with
    /// `corrected` member names corrected) reach.
    private mutating func walk(_ step: Int, _ value: JSONValue, written: [JSONPathPattern.Component], corrected: Int) {
        let components = pattern.components
        guard step < components.count else {
            if corrected == 0 { isPresent = true } else { corrections.insert(Self.text(of: written)) }
            return
        }
        let component = components[step]
        switch (component, value) {
        case (.key(let key), .object(let members)):
            if let member = members[exactKey: key] {
                walk(step + 1, member, written: written + [component], corrected: corrected)
            } else if key != "_0", let payload = members[exactKey: "_0"] {
                // An unlabeled enum payload, which paths print without.
                walk(step, payload, written: written, corrected: corrected)
            } else {
                let names = members.keys.filter { $0 != "_0" }
                let near = corrected < Self.maximumCorrections ? Suggestion.nearest(to: key, among: names) : []
                for name in near {
                    walk(step + 1, members[exactKey: name] ?? .null, written: written + [.key(name)], corrected: corrected + 1)
                }
                if near.isEmpty { noteReached(written, members: names) }
            }
        case (.anyMember, .object(let members)), (.anyElement, .object(let members)):
            if members.isEmpty { noteReached(written, members: []) }
            for member in members.values { walk(step + 1, member, written: written + [component], corrected: corrected) }
        case (.index(let index), .array(let elements)) where index < elements.count:
            walk(step + 1, elements[index], written: written + [component], corrected: corrected)
        case (.anyElement, .array(let elements)):
            if elements.isEmpty { noteReached(written, members: []) }
            for element in elements { walk(step + 1, element, written: written + [component], corrected: corrected) }
        case (.identified(let id), .array(let elements)):
            guard let element = elements.first(where: { $0["id"] == id }) else { return noteReached(written, members: []) }
            walk(step + 1, element, written: written + [component], corrected: corrected)
        case (.mapKey(let key), .array(let elements)):
            let index = stride(from: 0, to: elements.count - 1, by: 2).first { elements[$0] == key }.map { $0 + 1 }
            guard let index else { return noteReached(written, members: []) }
            walk(step + 1, elements[index], written: written + [component], corrected: corrected)
        default:
            noteReached(written, members: [])
        }
    }

    /// Notes the deepest place a walk reached, `written`, or the members there when it has some.
    private mutating func noteReached(_ written: [JSONPathPattern.Component], members: [String]) {
        if members.isEmpty {
            if !written.isEmpty { nearestPlaces.insert(Self.text(of: written)) }
        } else {
            for name in members { nearestPlaces.insert(Self.text(of: written + [.key(name)])) }
        }
    }

    /// The components as a pattern is written: `todos[*].title`, `route.*`, `moved.1`, `todos[id: A]`.
    static func text(of components: [JSONPathPattern.Component]) -> String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key):
                let digits = key.dropFirst()
                if !text.isEmpty, key.hasPrefix("_"), !digits.isEmpty, digits.allSatisfy(\.isASCII), Int(digits) != nil {
                    text += ".\(digits)"
                } else {
                    let written = JSONPath([.key(key)]).description
                    text += text.isEmpty || written.hasPrefix("[") ? written : ".\(written)"
                }
            case .anyMember: text += text.isEmpty ? "*" : ".*"
            case .index(let index): text += "[\(index)]"
            case .anyElement: text += "[*]"
            case .identified(let id): text += JSONPath([.identified(id)]).description
            case .mapKey(let key): text += JSONPath([.mapKey(key)]).description
            }
        }
        return text
    }
}
