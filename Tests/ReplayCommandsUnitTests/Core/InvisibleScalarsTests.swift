import StoreKitReplay
import Testing

@testable import ReplayCommands

/// The output formats' invisible characters and the terminal's are one definition: the terminal's are a part of them.
@Suite struct InvisibleScalarsTests {
    @Test func theInvisibleScalarsAreTheControlFormatSeparatorSurrogateAndUnassignedOnes() {
        // Given every scalar, when each is asked about, then the invisible ones are exactly these categories
        let categories: Set<Unicode.GeneralCategory> = [
            .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned,
        ]
        let mismatches = (0...0x10FFFF).compactMap(Unicode.Scalar.init).filter { scalar in
            InvisibleScalars.contains(scalar) != categories.contains(scalar.properties.generalCategory)
        }
        #expect(mismatches.isEmpty)
    }

    @Test func everyScalarATerminalActsOnIsInvisible() {
        let outside = (0...0x10FFFF).compactMap(Unicode.Scalar.init).filter { scalar in
            InvisibleScalars.actsOnTerminal(scalar) && !InvisibleScalars.contains(scalar)
        }
        #expect(outside.isEmpty)
    }

    @Test func aMessageShowsAnInvisibleScalarAsSwiftEscapesIt() {
        #expect(InvisibleScalars.shown("a\u{1B}b\u{202E}c") == "a\\u{1B}b\\u{202E}c")
    }
}
