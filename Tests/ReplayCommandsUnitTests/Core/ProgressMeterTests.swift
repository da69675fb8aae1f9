import Foundation
import Testing

@testable import ReplayCommands

/// `ProgressMeter` and the terminal it draws on: what a progress line says, and where one is drawn at all.
@Suite struct ProgressMeterTests {
    @Test func aLineSaysWhatHowFarAndOnceASecondHasGoneByHowLongIsLeft() {
        #expect(ProgressMeter.line("sessions: looked at", unit: "files", done: 0, total: nil, elapsed: 0) == "sessions: looked at 0 files")
        #expect(ProgressMeter.line("sessions: looked at", unit: "files", done: 10, total: 100, elapsed: 0.5) == "sessions: looked at 10 of 100 files")
        #expect(ProgressMeter.line("sessions: looked at", unit: "files", done: 25, total: 100, elapsed: 2) == "sessions: looked at 25 of 100 files, about 6 s left")
        #expect(ProgressMeter.line("building:", unit: "steps", done: 99, total: 100, elapsed: 10) == "building: 99 of 100 steps, under a second left")
        #expect(ProgressMeter.line("building:", unit: "steps", done: 3, total: nil, elapsed: 4.2) == "building: 3 steps, 4 s so far")
    }

    @Test func progressIsShownWhenStandardErrorIsATerminalWhateverNoColorSays() {
        // Given stderr a terminal and stdout not, with NO_COLOR set
        let terminal = Terminal(environment: ["NO_COLOR": "1"], isTerminal: { $0 == 2 })

        // Then progress is shown, colour is not
        #expect(terminal.showProgress)
        #expect(!terminal.useColor)
        // And a command writing JSON gets none
        #expect(!terminal.withoutProgress.showProgress)
    }

    @Test func noProgressOnAPipe() {
        let terminal = Terminal(environment: [:], isTerminal: { _ in false })
        #expect(!terminal.showProgress)
    }

    @Test func aMeterDrawsAtOnceRedrawsAtMostTenTimesASecondAndErasesItself() {
        // Given a terminal that shows progress, capturing what it writes
        let capture = TerminalCapture()
        let terminal = Terminal(capturingIn: capture, showProgress: true)
        let start = Date(timeIntervalSince1970: 0)

        // When a meter counts three steps, two of them within a tenth of a second, and finishes
        let meter = ProgressMeter(terminal, "sessions: looked at", unit: "files", total: nil, now: start)
        meter.advance(to: 1, of: 3, now: start.addingTimeInterval(0.05))
        meter.advance(to: 2, of: 3, now: start.addingTimeInterval(0.2))
        meter.finish()

        // Then each drawing returns to the line's start and clears it, and nothing stays on the line
        #expect(capture.errors == "\r\u{1B}[Ksessions: looked at 0 files\r\u{1B}[Ksessions: looked at 2 of 3 files\r\u{1B}[K")
        #expect(capture.output == "")
    }

    @Test func aLongProgressLineIsCutSoThatNoTerminalWrapsIt() {
        let capture = TerminalCapture()
        Terminal(capturingIn: capture, showProgress: true).progress(String(repeating: "x", count: 100))
        #expect(capture.errors == "\r\u{1B}[K" + String(repeating: "x", count: 78) + "…")
    }
}

/// The progress line of `verify`, which reads a file line by line however long it is.
@Suite struct VerifyProgressTests {
    private static let counter = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path + "/samples/sessions/counter-basic.jsonl"

    @Test func verifyDrawsItsProgressOnStderrAndErasesItBeforeItsVerdict() {
        // Given a terminal that shows progress, capturing what it writes
        let capture = TerminalCapture()
        let context = CommandContext(
            terminal: Terminal(capturingIn: capture, showProgress: true), environment: [:], currentDirectory: "/")

        // When a sample session is verified
        let status = VerifyCommand.execute([Self.counter], context)

        // Then the progress line names the file, is erased, and the verdict alone is on stdout
        #expect((try? status.get()) == .ok)
        #expect(capture.errors == "\r\u{1B}[Kverify: read 0 MB of \(Self.counter)\r\u{1B}[K")
        #expect(capture.output == "ok \(Self.counter): 42 lines, 40 actions\n")
    }

    @Test func verifyWithJSONDrawsNoProgress() {
        let capture = TerminalCapture()
        let context = CommandContext(
            terminal: Terminal(capturingIn: capture, showProgress: true), environment: [:], currentDirectory: "/")
        _ = VerifyCommand.execute([Self.counter, "--json"], context)
        #expect(capture.errors == "")
    }
}
