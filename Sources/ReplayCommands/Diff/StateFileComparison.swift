import CommandLineOptions
import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import StoreKitSystem

/// `replay-cli diff --states <old.json> <new.json>`: the structural difference between two JSON documents, such
/// as two states saved with `show --json`. With ignored places, the new document takes the old one's values there
/// first, so the difference lists only what is left.
enum StateFileComparison {
    static func run(_ parsed: ParsedCommandLine, _ context: CommandContext, ignoring: [JSONPathPattern]) throws(CLIError) -> ExitStatus {
        guard parsed.positionals.count == 2 else {
            throw CLIError("diff --states takes two JSON files", usage: DiffCommand.command.usage)
        }
        let (old, parsedNew) = try parseBoth(parsed.positionals[0], parsed.positionals[1])
        var new = parsedNew
        var ignored: [IgnoredDifferences] = []
        if !ignoring.isEmpty { (new, ignored) = ignoring.overlay(from: old, onto: parsedNew) }
        let identity = try ConfiguredIdentity.resolve(context)
        let diff = StateDiff(from: old, to: new, typeNotes: identity.keys.noting([old, new], in: EncodedTypeNotes()))
        if !diff.isEmpty { for warning in identity.warnings(about: [old, new]) { context.terminal.err(warning) } }
        for warning in IgnoredPaths.warnings(
            about: IgnoredPaths.given(parsed, in: ignoring), inStates: [old, parsedNew],
            source: "\(parsed.positionals[0]) or \(parsed.positionals[1])")
        {
            context.terminal.err(warning)
        }
        if parsed.isSet(SharedOptions.json) {
            context.terminal.out(
                JSONValue.object([
                    "old": .string(parsed.positionals[0]), "new": .string(parsed.positionals[1]),
                    "same": .bool(diff.isEmpty), "diff": diff.jsonValue,
                    "ignoring": .array(ignoring.map { .string($0.text) }),
                    "ignored": .array(ignored.map(\.jsonValue)),
                ]).prettyString() + "\n")
        } else {
            if diff.isEmpty {
                context.terminal.out("same: \(parsed.positionals[0]) and \(parsed.positionals[1]) hold equal JSON\n")
            } else {
                context.terminal.out(diff.summary.renderedLines(.text) + diff.renderedLines())
            }
            if !ignoring.isEmpty { context.terminal.out(ignoredText(ignoring, ignored)) }
        }
        KeptUntilExit.keep(diff)  // the two parsed files: freeing them would take a third of the time parsing did
        return diff.isEmpty ? .ok : .different
    }

    /// `ignoring 'a', 'b': 'a' covered 2 differing values: x.id, y.id`, one line per pattern that covered some.
    private static func ignoredText(_ ignoring: [JSONPathPattern], _ ignored: [IgnoredDifferences]) -> String {
        let patterns = ignoring.map { "'\($0.text)'" }.joined(separator: ", ")
        guard !ignored.isEmpty else { return "ignoring \(patterns): no values differed there" }
        return (["ignoring \(patterns):"] + ignored.map { found in
            let count = found.paths.count == 1 ? "1 differing value" : "\(found.paths.count) differing values"
            return "  '\(found.pattern)' covered \(count): \(found.paths.map(\.description).joined(separator: ", "))"
        }).joined(separator: "\n")
    }

    /// Reads and parses both files, each on its own thread: parsing is most of the work.
    private static func parseBoth(_ oldPath: String, _ newPath: String) throws(CLIError) -> (JSONValue, JSONValue) {
        let newResult = Locked<Result<JSONValue, CLIError>?>(nil)
        let parsedNew = DispatchSemaphore(value: 0)
        Thread {
            let result = Result { () throws(CLIError) -> JSONValue in try parse(newPath) }
            newResult.withLock { $0 = result }
            parsedNew.signal()
        }.start()
        let old = Result { () throws(CLIError) -> JSONValue in try parse(oldPath) }
        parsedNew.wait()
        return (try old.get(), try newResult.withLock { $0! }.get())
    }

    /// Reads and parses one file, naming it, the line and the column in any error. Only a regular file is read: a
    /// folder, a FIFO or a device (`/dev/zero` never ends) is refused unread.
    private static func parse(_ path: String) throws(CLIError) -> JSONValue {
        let bytes: Data
        do {
            let file = FileHandle(fileDescriptor: try Syscall.openRegularFile(path), closeOnDealloc: true)
            bytes = try file.readToEnd() ?? Data()
        } catch let error as RegularFileError {
            throw CLIError(.input, "cannot read \(path): \(error)")
        } catch {
            throw CLIError(.input, "cannot read \(path): \(error.localizedDescription)")
        }
        do {
            return try JSONParser().parse(bytes)
        } catch {
            let before = bytes.prefix(error.offset)
            let line = before.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
            let column = error.offset - (before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1
            throw CLIError(.input, "\(path):\(line):\(column): \(error.message)")
        }
    }
}
