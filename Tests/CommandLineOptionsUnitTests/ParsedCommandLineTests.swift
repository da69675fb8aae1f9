import CommandLineOptions
import Testing

/// A small command with one of each kind of declaration.
private enum Sample {
    enum Level: String, CaseIterable, Sendable { case low, high }

    static let count = Option<Int>.integer("--count", in: 1...10, default: 3, help: "how many")
    static let name = Option<String>.string("--name", valueName: "<text>", help: "who")
    static let level = Option<Level>.choice("--level", valueName: "<level>", default: .low, help: "how loud")
    static let wait = Option<Double>.seconds("--wait", upTo: 60, default: 2, help: "how long")
    static let verbose = Flag("--verbose", aliases: ["-v"], help: "say more")

    static let command = CommandDescription(
        name: "tool run", abstract: "Runs the sample.",
        arguments: [
            ArgumentDeclaration("<input>", help: "what to read"),
            ArgumentDeclaration("<other>", help: "what to compare with", isOptional: true),
        ],
        options: [count.declaration, name.declaration, level.declaration, wait.declaration, verbose.declaration],
        alternativeUsages: ["--twice <input>"],
        discussion: "Exit status: 0 or 2.")
}

@Suite struct ParsedCommandLineTests {
    @Test func typedValuesComeFromTheCommandLineElseTheirDefaults() throws {
        // Given a command line with some options given, in both spellings
        let parsed = try ParsedCommandLine(["in.jsonl", "--count", "7", "--level=high", "-v"], for: Sample.command)

        // Then each value has its type, and absent ones their defaults
        #expect(parsed.positionals == ["in.jsonl"])
        #expect(parsed.value(of: Sample.count) == 7)
        #expect(parsed.value(of: Sample.level) == .high)
        #expect(parsed.value(of: Sample.wait) == 2)
        #expect(parsed.value(of: Sample.name) == nil)
        #expect(parsed.isSet(Sample.verbose))
        #expect(parsed.isGiven(Sample.count) && !parsed.isGiven(Sample.wait))
    }

    @Test(arguments: [
        (["in", "--count", "11"], "option '--count' needs a whole number from 1 to 10, not '11'"),
        (["in", "--level", "mid"], "option '--level' needs one of low or high, not 'mid'"),
        (["in", "--wait", "0"], "option '--wait' needs a number of seconds above 0 and up to 60, not '0'"),
        (["in", "--name"], "option '--name' needs a value <text>"),
        (["in", "--name="], "option '--name' needs a value, not ''"),
        (["in", "--verbose=yes"], "option '--verbose' takes no value"),
        (["in", "--cuont", "2"], "unknown option '--cuont'\nDid you mean '--count'?"),
        (["in", "--zzzzzzzz"], "unknown option '--zzzzzzzz'"),
        ([], "missing '<input>'"),
        (["a", "b", "c"], "unexpected argument 'c'"),
    ])
    func badCommandLinesSayWhatIsWrongWithTheUsage(arguments: [String], message: String) {
        // When a command line does not fit the command
        // Then the error names the offending token and carries the usage line
        #expect(throws: UsageError(message, usage: Sample.command.usage)) {
            try ParsedCommandLine(arguments, for: Sample.command)
        }
    }

    @Test func helpIsNotAnErrorEvenWithoutTheRequiredArguments() throws {
        #expect(try ParsedCommandLine(["-h"], for: Sample.command).wantsHelp)
        #expect(try ParsedCommandLine(["--help"], for: Sample.command).wantsHelp)
    }

    @Test func aDoubleDashEndsTheOptions() throws {
        let parsed = try ParsedCommandLine(["--", "--count", "-v"], for: Sample.command)
        #expect(parsed.positionals == ["--count", "-v"])
        #expect(!parsed.isSet(Sample.verbose))
    }

    @Test func repeatedOptionsKeepEveryValueAndTheLastWins() throws {
        let parsed = try ParsedCommandLine(["in", "--count", "2", "--count", "5"], for: Sample.command)
        #expect(parsed.values(of: Sample.count) == [2, 5])
        #expect(parsed.value(of: Sample.count) == 5)
    }

    @Test func aRequiredOptionIsShownWithoutBrackets() {
        let output = Option<String>.string("-o", valueName: "<file>", help: "where to write").required()
        let command = CommandDescription(
            name: "tool write", abstract: "Writes.", options: [output.declaration, Sample.verbose.declaration])
        #expect(command.usage == "tool write -o <file> [--verbose]")
    }

    @Test func helpAndUsageComeFromTheDeclarations() {
        #expect(
            Sample.command.usage
                == "tool run <input> [<other>] [--count <n>] [--name <text>] [--level <level>] [--wait <seconds>] [--verbose]")
        #expect(
            Sample.command.help == """
                OVERVIEW: Runs the sample.

                USAGE: tool run <input> [<other>] [--count <n>] [--name <text>] [--level <level>] [--wait <seconds>] [--verbose]
                       tool run --twice <input>

                ARGUMENTS:
                  <input>               what to read
                  <other>               what to compare with

                OPTIONS:
                  --count <n>           how many (default: 3)
                  --name <text>         who
                  --level <level>       how loud (default: low)
                  --wait <seconds>      how long (default: 2)
                  -v, --verbose         say more
                  -h, --help            show this help

                Exit status: 0 or 2.
                """)
    }

    @Test func aCommandWithSubcommandsListsThem() {
        let root = CommandDescription(
            name: "tool", abstract: "Does things.",
            subcommands: [Sample.command, CommandDescription(name: "tool a-very-long-subcommand", abstract: "Long.")])
        #expect(
            root.help == """
                OVERVIEW: Does things.

                USAGE: tool <subcommand> [<arguments>] [--help]

                SUBCOMMANDS:
                  run                   Runs the sample.
                  a-very-long-subcommand
                                        Long.

                See 'tool <subcommand> --help' for details.
                """)
    }
}

@Suite struct QuantityOptionTests {
    static let age = Option<Duration>.duration("--max-age", help: "how old")
    static let size = Option<UInt64>.byteCount("--max-bytes", help: "how big")
    static let command = CommandDescription(
        name: "tool", abstract: "a tool", options: [age.declaration, size.declaration])

    @Test(arguments: [
        ("90s", Duration.seconds(90)), ("30m", .seconds(1800)), ("12h", .seconds(43_200)), ("7d", .seconds(604_800)),
        ("1.5h", .seconds(5400)), ("45", .seconds(45)),
    ])
    func durationsReadWithTheirUnits(text: String, expected: Duration) throws {
        #expect(try ParsedCommandLine(["--max-age", text], for: Self.command).value(of: Self.age) == expected)
    }

    @Test(arguments: [
        ("500K", UInt64(500 << 10)), ("200MB", 200 << 20), ("2G", 2 << 30), ("1.5GB", 3 << 29), ("4096", 4096),
        ("10kb", 10 << 10),
    ])
    func sizesReadWithTheirUnits(text: String, expected: UInt64) throws {
        #expect(try ParsedCommandLine(["--max-bytes", text], for: Self.command).value(of: Self.size) == expected)
    }

    @Test(arguments: ["0s", "-3h", "12x", "h", "", "1e3"])
    func aBadDurationNamesWhatItExpects(text: String) {
        #expect {
            try ParsedCommandLine(["--max-age", text], for: Self.command)
        } throws: { error in
            "\(error)".contains("a duration such as 90s, 30m, 12h or 7d")
        }
    }
}
