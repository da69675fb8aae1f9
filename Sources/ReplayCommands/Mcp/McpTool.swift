import CommandLineOptions
import StoreKitJSON

/// A tool the MCP server offers: one `replay-cli` command run with `--json`, its arguments declared once as
/// typed parameters that give both the tool's input schema and the command line the command parses.
struct McpTool {
    /// One argument of the tool.
    struct Parameter {
        /// What JSON type the value has.
        enum Kind {
            /// A string.
            case string
            /// An integer.
            case integer
            /// `true` sets the flag.
            case boolean
            /// An array of strings, each given to a repeatable option.
            case strings
        }

        /// Where the value goes on the command line.
        enum Target {
            /// The command's positional argument, in order.
            case positional
            /// An option (or a flag, for a boolean), as `--name=value`.
            case option(OptionDeclaration)
        }

        /// The argument's name in the tool's input.
        var name: String
        /// Its JSON type.
        var kind: Kind
        /// Where it goes.
        var target: Target
        /// What it is, for the client.
        var description: String
        /// Whether the call must give it.
        var isRequired = false

        /// A positional argument.
        static func positional(_ name: String, required: Bool = true, _ description: String) -> Parameter {
            Parameter(name: name, kind: .string, target: .positional, description: description, isRequired: required)
        }

        /// An option, described by its own help.
        static func option(_ name: String, _ kind: Kind, _ declaration: OptionDeclaration) -> Parameter {
            Parameter(name: name, kind: kind, target: .option(declaration), description: declaration.help.replacingOccurrences(of: "\n", with: " "))
        }
    }

    /// What the tool returns.
    enum Output {
        /// The command's `--json` document; an array is carried under this member of the structured result.
        case json(arrayMember: String?)
        /// `report`'s page: written to a file in the server's reports folder, whose path the result gives.
        case reportPage
    }

    /// The tool's name, the command's.
    var name: String
    /// What it does, for the client (and the model).
    var description: String
    /// The command it runs.
    var command: any Command.Type
    /// Its arguments, positional ones in order.
    var parameters: [Parameter]
    /// What it returns.
    var output: Output

    /// The JSON Schema of the tool's arguments.
    var inputSchema: JSONValue {
        var properties: [String: JSONValue] = [:]
        for parameter in parameters {
            var schema: [String: JSONValue] = ["description": .string(parameter.description)]
            switch parameter.kind {
            case .string: schema["type"] = .string("string")
            case .integer: schema["type"] = .string("integer")
            case .boolean: schema["type"] = .string("boolean")
            case .strings:
                schema["type"] = .string("array")
                schema["items"] = .object(["type": .string("string")])
            }
            properties[parameter.name] = .object(schema)
        }
        return .object([
            "type": .string("object"), "properties": .object(properties),
            "required": .array(parameters.filter(\.isRequired).map { .string($0.name) }),
            "additionalProperties": .bool(false),
        ])
    }

    /// The tool's entry in `tools/list`.
    var listing: JSONValue {
        .object([
            "name": .string(name), "description": .string(description), "inputSchema": inputSchema,
            "annotations": .object(["readOnlyHint": .bool(true), "openWorldHint": .bool(false)]),
        ])
    }

    /// The command line for `arguments`: options as `--name=value`, then `--` and the positional arguments, so that
    /// no value is read as an option.
    /// - Throws: ``JSONRPCError`` (invalid params) for an unknown or mistyped argument, a missing required one, or
    ///   `-` for a session (standard input is the transport).
    func words(for arguments: [String: JSONValue]) throws(JSONRPCError) -> [String] {
        if let unknown = arguments.keys.sorted().first(where: { key in !parameters.contains { $0.name == key } }) {
            throw JSONRPCError(
                .invalidParams, "tool '\(name)' takes no argument '\(unknown)' (it takes: \(parameters.map(\.name).joined(separator: ", ")))")
        }
        var options: [String] = []
        var positionals: [String] = []
        for parameter in parameters {
            guard let value = arguments[parameter.name], value != .null else {
                if parameter.isRequired { throw JSONRPCError(.invalidParams, "tool '\(name)' needs the argument '\(parameter.name)'") }
                continue
            }
            let texts = try texts(of: value, for: parameter)
            switch parameter.target {
            case .positional:
                if texts == ["-"] {
                    throw JSONRPCError(.invalidParams, "'\(parameter.name)' must name a file: standard input is the server's transport")
                }
                positionals += texts
            case .option(let declaration):
                options += texts.map { declaration.valueName == nil ? declaration.name : "\(declaration.name)=\($0)" }
            }
        }
        return options + ["--"] + positionals
    }

    /// The value's words: a string or an integer as its text, `true` as one empty word (a flag given), `false` as
    /// none, an array as one word per string.
    private func texts(of value: JSONValue, for parameter: Parameter) throws(JSONRPCError) -> [String] {
        switch (parameter.kind, value) {
        case (.string, .string(let text)): return [text]
        case (.integer, .integer(let number)): return [String(number)]
        case (.boolean, .bool(let isSet)): return isSet ? [""] : []
        case (.strings, .array(let elements)):
            var texts: [String] = []
            for element in elements {
                guard let text = element.stringValue else {
                    throw JSONRPCError(.invalidParams, "'\(parameter.name)' of tool '\(name)' must be an array of strings, not one holding a \(element.typeName)")
                }
                texts.append(text)
            }
            return texts
        default:
            let wanted = switch parameter.kind {
            case .string: "a string"
            case .integer: "an integer"
            case .boolean: "a boolean"
            case .strings: "an array of strings"
            }
            throw JSONRPCError(.invalidParams, "'\(parameter.name)' of tool '\(name)' must be \(wanted), not a \(value.typeName)")
        }
    }
}
