import StoreKitCore
import StoreKitJSON

/// A set of places in a JSON document, written as paths print, with wildcards: `meetings[*].startedAt`,
/// `route.*.id`, `syncUps[id: "3F2…"].title`, `counts[key: 3]`.
///
/// Replay uses patterns to ignore volatile values (random ids, dates): ``overlay(from:onto:)`` copies the values a
/// pattern names from one document into another, so that what is left to compare is everything else.
///
/// The syntax:
/// - `name` or `.name`: an object member; `["any key"]` for a key that is not an identifier;
/// - `*`: any one member of an object;
/// - `[3]`: the array element at index 3;
/// - `[*]`: any element of an array, or any member of an object (for how elements of two documents pair, see
///   ``overlay(from:onto:)``);
/// - `[id: <json>]`: the element of an array whose `id` member equals the JSON value; a string of ASCII letters,
///   digits, `-` and `_` may be written without quotes, as paths print it (`[id: 3F2504E0-4F89-11D3-9A0C-0305E82C3301]`);
/// - `[key: <json>]`: the value of the pair with that key in a dictionary written as alternating keys and values;
/// - `.1`, `.2`: the second and third unlabeled payloads of an enum case (`_1`, `_2`), as paths print them.
///
/// Swift's `Codable` writes an enum case's unlabeled payload under `_0` (`{"rehearse": {"_0": {…}}}`); paths print
/// without it, and a pattern may leave it out too: a member name that an object lacks is looked for inside the
/// object's `_0` member (`path[*].rehearse.startedAt` reaches `path[0].rehearse._0.startedAt`).
public struct JSONPathPattern: Sendable, Hashable, CustomStringConvertible {
    /// One step of a pattern.
    public enum Component: Sendable, Hashable {
        /// The object member with this key.
        case key(String)
        /// Any one member of an object (`*`).
        case anyMember
        /// The array element at this index.
        case index(Int)
        /// Any element of an array, or any member of an object (`[*]`).
        case anyElement
        /// The element of an array whose `id` member equals this value (`[id: …]`).
        case identified(JSONValue)
        /// The value of the pair with this key in a keyed-pair array (`[key: …]`).
        case mapKey(JSONValue)
    }

    /// The steps from the root; empty for the whole document.
    public let components: [Component]
    /// The pattern as it was written.
    public let text: String

    /// The whole document.
    public static let root = JSONPathPattern(components: [], text: "")

    private init(components: [Component], text: String) {
        self.components = components
        self.text = text
    }

    /// Parses a pattern.
    /// - Throws: ``JSONPathPatternError`` with the pattern, the character position (from 1) and what was expected.
    public init(_ text: String) throws(JSONPathPatternError) {
        var parser = PatternParser(text: text)
        self.init(components: try parser.parse(), text: text)
    }

    /// The pattern as it was written.
    public var description: String { text }
}

/// A pattern that does not parse: which one, where, and what was expected there.
public struct JSONPathPatternError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The pattern as written.
    public var pattern: String
    /// The character position of the problem, counted from 1.
    public var position: Int
    /// What is wrong there.
    public var message: String

    /// Creates one.
    public init(pattern: String, position: Int, message: String) {
        self.pattern = pattern
        self.position = position
        self.message = message
    }

    /// `bad path pattern 'todos[x' at character 7: expected ']'`.
    public var description: String { "bad path pattern '\(pattern)' at character \(position): \(message)" }
}

/// Reads a pattern character by character.
private struct PatternParser {
    let text: String
    let characters: [Character]
    var position = 0

    init(text: String) {
        self.text = text
        self.characters = Array(text)
    }

    func fail(_ message: String, at offset: Int? = nil) -> JSONPathPatternError {
        JSONPathPatternError(pattern: text, position: (offset ?? position) + 1, message: message)
    }

    mutating func parse() throws(JSONPathPatternError) -> [JSONPathPattern.Component] {
        guard !characters.isEmpty else { throw fail("the pattern is empty; name a path such as 'todos[*].id'") }
        var components: [JSONPathPattern.Component] = []
        while position < characters.count {
            let character = characters[position]
            if character == "[" {
                components.append(try bracket())
            } else if character == "." {
                guard !components.isEmpty else { throw fail("a pattern starts with a member name, '*' or '['") }
                position += 1
                components.append(try member())
            } else if components.isEmpty {
                components.append(try member())
            } else {
                throw fail("expected '.' or '[' after a step, found '\(character)'")
            }
        }
        return components
    }

    /// `name` or `*`, up to the next `.` or `[`.
    mutating func member() throws(JSONPathPatternError) -> JSONPathPattern.Component {
        let start = position
        while position < characters.count, characters[position] != ".", characters[position] != "[" {
            if characters[position] == "]" { throw fail("unexpected ']'") }
            if characters[position].isWhitespace { throw fail("a member name has no spaces; write [\"a key\"] for such a key") }
            position += 1
        }
        let name = String(characters[start..<position])
        if name.isEmpty { throw fail("expected a member name or '*'") }
        if name == "*" { return .anyMember }
        if name.contains("*") { throw fail("'*' stands for a whole member name, not part of one", at: start) }
        // `.1` is how a path prints the second unlabeled payload `_1` (a key "1" prints as `["1"]`).
        if name.utf8.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) { return .key("_" + name) }
        return .key(name)
    }

    /// `[3]`, `[*]`, `["key"]`, `[id: …]` or `[key: …]`.
    mutating func bracket() throws(JSONPathPatternError) -> JSONPathPattern.Component {
        let open = position
        position += 1
        let close = try closingBracket(from: position, open: open)
        let inside = String(characters[position..<close]).trimmingSpaces
        let insideStart = position
        position = close + 1
        if inside == "*" { return .anyElement }
        if let index = Int(inside) {
            guard index >= 0 else { throw fail("an index is 0 or more", at: insideStart) }
            return .index(index)
        }
        for (label, make) in [("id:", JSONPathPattern.Component.identified), ("key:", JSONPathPattern.Component.mapKey)]
        where inside.hasPrefix(label) {
            let json = String(inside.dropFirst(label.count)).trimmingSpaces
            do {
                return make(try JSONValue(parsing: Array(json.utf8)))
            } catch where Self.printsUnquoted(json) {
                // Paths print a string id of letters, digits, `-` and `_` without quotes: `[id: 3F2504E0-…]`.
                return make(.string(json))
            } catch {
                throw fail("'\(label.dropLast())' takes a JSON value (a string in double quotes, a number ...): \(error)", at: insideStart)
            }
        }
        if inside.hasPrefix("\"") {
            guard case .string(let key)? = try? JSONValue(parsing: Array(inside.utf8)) else {
                throw fail("expected a JSON string key such as [\"a key\"]", at: insideStart)
            }
            return .key(key)
        }
        throw fail("expected an index, '*', a quoted key, 'id: <json>' or 'key: <json>' inside [ ]", at: insideStart)
    }

    /// Whether `text` is a string paths print without quotes: ASCII letters, digits, `-` and `_` only.
    static func printsUnquoted(_ text: String) -> Bool {
        !text.isEmpty
            && text.utf8.allSatisfy {
                $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0 &- UInt8(ascii: "0") < 10
                    || ($0 | 0x20) &- UInt8(ascii: "a") < 26
            }
    }

    /// The index of the `]` that closes the bracket opened at `open`, skipping JSON strings and nested brackets.
    func closingBracket(from start: Int, open: Int) throws(JSONPathPatternError) -> Int {
        var depth = 0
        var inString = false
        var escaped = false
        var index = start
        while index < characters.count {
            let character = characters[index]
            if inString {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false
                }
            } else if character == "\"" {
                inString = true
            } else if character == "[" || character == "{" {
                depth += 1
            } else if character == "}" {
                depth -= 1
            } else if character == "]" {
                if depth == 0 { return index }
                depth -= 1
            }
            index += 1
        }
        throw fail("'[' is never closed with ']'", at: open)
    }
}

extension String {
    /// The string without leading and trailing spaces.
    fileprivate var trimmingSpaces: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
