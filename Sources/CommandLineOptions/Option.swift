/// An option that takes a value, declared once with its type: parsing, usage and help all come from it.
///
/// ```swift
/// static let timeout = Option<Int>.integer(
///     "--timeout", valueName: "<seconds>", in: 1...86_400, default: 30,
///     help: "give up on a host that stays silent this long")
/// let seconds = try parsed.value(of: timeout)   // 30 unless the command line says otherwise
/// ```
public struct Option<Value: Sendable>: Sendable {
    /// Its names, placeholder and help.
    public private(set) var declaration: OptionDeclaration
    /// The value when the command line does not give one.
    public let defaultValue: Value?
    /// Turns the text after the option into a value; `nil` when it is not valid.
    let convert: @Sendable (String) -> Value?

    /// Declares an option whose value `convert` reads.
    /// - Parameters:
    ///   - name: The long name, such as `--socket`.
    ///   - valueName: The placeholder in usage and help, such as `<path>`.
    ///   - default: The value when the option is absent; `nil` when absence means "not given".
    ///   - defaultDescription: How help shows the default when it is not the value itself (`$REPLAYD_SOCKET, else ...`).
    ///   - expectation: What a valid value is, as errors say it (`a path`).
    ///   - help: What the option does.
    ///   - convert: Reads a value from its text, `nil` when the text is not valid.
    public init(
        _ name: String, valueName: String, default: Value? = nil, defaultDescription: String? = nil,
        expectation: String, help: String, convert: @escaping @Sendable (String) -> Value?
    ) {
        let shownDefault = defaultDescription ?? `default`.map { "\($0)" }
        self.declaration = OptionDeclaration(
            name: name, valueName: valueName, help: shownDefault.map { "\(help) (default: \($0))" } ?? help,
            check: { convert($0) == nil ? expectation : nil })
        self.defaultValue = `default`
        self.convert = convert
    }
}

extension Option {
    /// The same option, shown in the usage line as one the command needs (without brackets).
    public func required() -> Option {
        var required = self
        required.declaration.isRequired = true
        return required
    }
}

extension Option where Value == String {
    /// An option whose value is any non-empty text.
    public static func string(
        _ name: String, valueName: String, default: String? = nil, defaultDescription: String? = nil, help: String
    ) -> Option {
        Option(
            name, valueName: valueName, default: `default`, defaultDescription: defaultDescription,
            expectation: "a value", help: help, convert: { $0.isEmpty ? nil : $0 })
    }
}

extension Option where Value == Int {
    /// An option whose value is a whole number within `range`.
    public static func integer(
        _ name: String, valueName: String = "<n>", in range: ClosedRange<Int>, default: Int? = nil,
        defaultDescription: String? = nil, help: String
    ) -> Option {
        Option(
            name, valueName: valueName, default: `default`, defaultDescription: defaultDescription,
            expectation: "a whole number from \(range.lowerBound) to \(range.upperBound)", help: help,
            convert: { Int($0).flatMap { range.contains($0) ? $0 : nil } })
    }
}

extension Option where Value == UInt64 {
    /// An option whose value is a non-negative whole number up to `UInt64.max`.
    public static func unsigned(_ name: String, valueName: String = "<n>", default: UInt64? = nil, help: String) -> Option {
        Option(
            name, valueName: valueName, default: `default`, expectation: "a non-negative whole number", help: help,
            convert: { UInt64($0) })
    }
}

extension Option where Value == Double {
    /// An option whose value is a number of seconds above 0 and up to `limit`.
    public static func seconds(
        _ name: String, valueName: String = "<seconds>", upTo limit: Double, default: Double? = nil, help: String
    ) -> Option {
        Option(
            name, valueName: valueName, default: `default`,
            defaultDescription: `default`.map { $0 == $0.rounded() ? "\(Int($0))" : "\($0)" },
            expectation: "a number of seconds above 0 and up to \(Int(limit))", help: help,
            convert: { Double($0).flatMap { $0 > 0 && $0 <= limit ? $0 : nil } })
    }
}

extension Option where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// An option whose value is one of `Value`'s cases, by raw value.
    public static func choice(_ name: String, valueName: String, default: Value? = nil, help: String) -> Option {
        let listed = Suggestion.either(Value.allCases.map(\.rawValue))
        return Option(
            name, valueName: valueName, default: `default`, defaultDescription: `default`?.rawValue,
            expectation: "one of \(listed)", help: help, convert: { Value(rawValue: $0) })
    }
}
