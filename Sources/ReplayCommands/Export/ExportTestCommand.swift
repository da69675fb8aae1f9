import CommandLineOptions
import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// `replay-cli export-test`: turns a session (or some of its steps) into a test of the app's own reducers.
///
/// The steps are trimmed into a session file (`<Name>.jsonl`) written beside the test file (`<Name>.swift`, whose
/// test type is `<Name>`): the test holds no recorded value, it reads them from that file when it runs. The golden
/// styles replay the file with `assertReplayMatches` through the stores `--stores` names; the TestStore style sends
/// each step's action through a `TestStore` of the feature `--feature` (or `--state-type`, `--action-type`,
/// `--reducer`) names, and expects each step's recorded state.
enum ExportTestCommand: Command {
    /// The styles, as `--style` spells them.
    enum Style: String, CaseIterable, Sendable {
        /// Swift Testing, golden replay.
        case swiftTesting = "swift-testing"
        /// XCTest, golden replay.
        case xctest
        /// Swift Testing, one `TestStore.send` per step.
        case teststore
    }

    /// `--from <n>`.
    static let from = Option<Int>.integer("--from", in: 1...Int.max, help: "the first step to keep (default: 1)")
    /// `--to <n>`.
    static let to = Option<Int>.integer("--to", in: 1...Int.max, help: "the last step to keep (default: the last)")
    /// `--style <style>`.
    static let style = Option<Style>.choice(
        "--style", valueName: "<style>", default: .swiftTesting,
        help: "swift-testing or xctest (a golden replay of the steps), or teststore (a TestStore step per action)")
    /// `-o <file>`.
    static let output = Option<String>.string(
        "-o", valueName: "<file.swift>", defaultDescription: "<Session>Tests.swift here",
        help: "the test file to write; the steps go beside it, in the same name with .jsonl; its test type takes its name")
    /// `--import <module>`, repeatable.
    static let imports = Option<String>.string(
        "--import", valueName: "<module>", help: "a module the test imports (the app's features, its stores); repeatable")
    /// `--stores <expression>`.
    static let stores = Option<String>.string(
        "--stores", valueName: "<expression>",
        help: "golden styles: the Swift expression giving the app's [ReplayableStore], such as 'AppStores.all' (required)")
    /// `--feature <type>`.
    static let feature = Option<String>.string(
        "--feature", valueName: "<type>",
        help: "teststore: the feature whose State, Action and reducer the test uses, such as 'Todos' for Todos.State, Todos.Action and Todos.reducer")
    /// `--state-type <type>`.
    static let stateType = Option<String>.string(
        "--state-type", valueName: "<type>", defaultDescription: "<feature>.State", help: "teststore: the state type")
    /// `--action-type <type>`.
    static let actionType = Option<String>.string(
        "--action-type", valueName: "<type>", defaultDescription: "<feature>.Action", help: "teststore: the action type")
    /// `--reducer <expression>`.
    static let reducer = Option<String>.string(
        "--reducer", valueName: "<expression>", defaultDescription: "<feature>.reducer", help: "teststore: the reducer")

    static let command = CommandDescription(
        name: "replay-cli export-test",
        abstract: "Write a test of the app's reducers from a session's steps, which it reads from a trimmed session beside it.",
        arguments: [ArgumentDeclaration("<session>", help: "a recorded session (.jsonl)")],
        options: [
            from.declaration, to.declaration, style.declaration, output.declaration, imports.declaration,
            stores.declaration, feature.declaration, stateType.declaration, actionType.declaration,
            reducer.declaration, SharedOptions.json.declaration,
        ])

    static func run(_ parsed: ParsedCommandLine, _ context: CommandContext) throws(CLIError) -> ExitStatus {
        guard parsed.positionals[0] != "-" else {
            throw CLIError("export-test takes a session file (not standard input: the test names it)", usage: command.usage)
        }
        let session = try SessionInput(parsed.positionals[0])
        let recorded = try session.readWhole()
        let form = try form(parsed)
        let lastStep = recorded.actions.last?.sequence ?? 0
        let first = parsed.value(of: from) ?? 1
        let last = parsed.value(of: to) ?? max(first, lastStep)
        guard first <= last else { throw CLIError("--to \(last) comes before --from \(first)", usage: command.usage) }
        let steps = first...last
        let trimmed: Session
        do {
            trimmed = try recorded.trimmed(to: steps)
        } catch {
            throw CLIError(.input, "cannot keep steps \(steps.lowerBound)-\(steps.upperBound): \(error)", file: session.displayName)
        }
        let sessionName = URL(fileURLWithPath: session.path).deletingPathExtension().lastPathComponent
        let testPath = parsed.value(of: output)
            ?? URL(fileURLWithPath: context.currentDirectory).appendingPathComponent(
                "\(typeName(sessionName))\(steps == 1...lastStep ? "" : "Steps\(first)To\(last)")Tests.swift").path
        let typeName = URL(fileURLWithPath: testPath).deletingPathExtension().lastPathComponent
        let imported = try modules(parsed, form)
        if let problem = testPath.hasSuffix(".swift")
            ? SwiftName.problem(with: typeName, as: .declaredType, importing: imported) : "it does not end in .swift"
        {
            throw CLIError(
                .usage,
                "-o '\(InvisibleScalars.shown(testPath))' must name a .swift file whose name is a Swift type name, such as "
                    + "TodosBugTests.swift: \(problem)")
        }
        let test = ExportedTest(
            form: form, typeName: typeName, sourceName: URL(fileURLWithPath: session.path).lastPathComponent, steps: steps, session: trimmed,
            modules: imported)
        let sessionPath = URL(fileURLWithPath: testPath).deletingLastPathComponent().appendingPathComponent(test.sessionFileName).path
        try ExportedFile.write(trimmed.ndjson, to: sessionPath)
        try ExportedFile.write(Array(test.source.utf8), to: testPath)
        context.terminal.present(
            ExportedTestFiles(
                test: testPath, session: sessionPath, typeName: typeName, steps: steps, actions: trimmed.actions.count,
                source: session.displayName, sessionFileName: test.sessionFileName),
            json: parsed.isSet(SharedOptions.json))
        return .ok
    }

    /// The form the options ask for, with the app's names it needs.
    private static func form(_ parsed: ParsedCommandLine) throws(CLIError) -> ExportedTest.Form {
        switch parsed.value(ofDefaulted: style) {
        case .swiftTesting, .xctest:
            guard let stores = parsed.value(of: stores) else {
                throw CLIError(
                    "--style \(parsed.value(ofDefaulted: style).rawValue) needs --stores, the Swift expression giving the app's "
                        + "[ReplayableStore] (such as 'AppStores.all')", usage: command.usage)
            }
            return parsed.value(ofDefaulted: style) == .xctest ? .xctest(stores: stores) : .swiftTesting(stores: stores)
        case .teststore:
            for option in [feature, stateType, actionType] {
                if let name = parsed.value(of: option) {
                    try SwiftName.check(name, as: .type, givenTo: option.declaration.name, usage: command.usage)
                }
            }
            let prefix = parsed.value(of: feature)
            guard let state = parsed.value(of: stateType) ?? prefix.map({ "\($0).State" }),
                let action = parsed.value(of: actionType) ?? prefix.map({ "\($0).Action" }),
                let reducer = parsed.value(of: reducer) ?? prefix.map({ "\($0).reducer" })
            else {
                throw CLIError(
                    "--style teststore needs --feature (such as 'Todos'), or each of --state-type, --action-type and --reducer",
                    usage: command.usage)
            }
            return .testStore(ExportedTest.Feature(stateType: state, actionType: action, reducer: reducer))
        }
    }

    /// The modules the test imports: the `--import` ones, each checked as a module name, then those of its form.
    private static func modules(_ parsed: ParsedCommandLine, _ form: ExportedTest.Form) throws(CLIError) -> [String] {
        for module in parsed.values(of: imports) {
            try SwiftName.check(module, as: .module, givenTo: imports.declaration.name, usage: command.usage)
        }
        return ExportedTest.modules(of: form, importing: parsed.values(of: imports))
    }

    /// `todos-basic` as `TodosBasic`.
    private static func typeName(_ sessionName: String) -> String {
        let words = sessionName.split { !$0.isLetter && !$0.isNumber }
        let name = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        return name.first?.isLetter == true ? name : "Session" + name
    }
}
