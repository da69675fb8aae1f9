import Foundation
import Testing

/// `diff --states` gives the verdict JSON's meaning gives, however the documents are spelled: keys and ids by their
/// code points, numbers by their exact value (see docs/json-equality.md).
@Suite struct JSONSpellingDiffTests {
    @Test func keysThatDifferOnlyByNormalizationAreDifferentMembers() async throws {
        // Given a key "é" precomposed (U+00E9) in one file and decomposed ("e" U+0301) in the other
        let scratch = try Scratch()
        defer { scratch.remove() }
        let precomposed = try scratch.write("a.json", "{\"\u{E9}\":1}")
        let decomposed = try scratch.write("b.json", "{\"e\u{301}\":1}")

        // When the two are compared
        let outcome = try await CLI.run(["diff", "--states", precomposed, decomposed])

        // Then one member was removed and another added, their paths and their keys in the dump printed apart
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(outcome.stderr == "")
        #expect(
            outcome.stdout == """
                2 differences:
                  ["e\\u{301}"]  (absent) -> 1
                  \u{E9}  1 -> (absent)
                  {
                +   "e\\u{301}": 1,
                -   "\u{E9}": 1
                  }

                """)
    }

    @Test func nestedKeysThatDifferOnlyByNormalizationAreReported() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let old = try scratch.write("old.json", "{\"x\":{\"\u{E9}\":1,\"k\":2}}")
        let new = try scratch.write("new.json", "{\"x\":{\"e\u{301}\":1,\"k\":2}}")

        let outcome = try await CLI.run(["diff", "--states", old, new])

        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(
            outcome.stdout == """
                2 differences:
                  x["e\\u{301}"]  (absent) -> 1
                  x.\u{E9}  1 -> (absent)
                  {
                    "x": {
                +     "e\\u{301}": 1,
                      "k": 2,
                -     "\u{E9}": 1
                    }
                  }

                """)
    }

    @Test func idsThatDifferOnlyByNormalizationAreDifferentElements() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let old = try scratch.write("old.json", "[{\"id\":\"\u{E9}\",\"v\":1}]")
        let new = try scratch.write("new.json", "[{\"id\":\"e\u{301}\",\"v\":1}]")

        let outcome = try await CLI.run(["diff", "--states", old, new])

        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(outcome.stdout.hasPrefix("""
            2 differences:
              [id: "\u{E9}"]  {"id":"\u{E9}","v":1} -> (absent)
              [id: "e\\u{301}"]  (absent) -> {"id":"e\u{301}","v":1}

            """))
    }

    @Test(arguments: ["9007199254740993.0", "9007199254740993e0", "90071992547409930e-1", "9.007199254740993E+15"])
    func anIntegerBeyondTwoToTheFiftyThreeIsTheSameWhateverItsSpelling(spelling: String) async throws {
        // Given 2^53 + 1, which no double holds, written as an integer and with a fraction or an exponent
        let scratch = try Scratch()
        defer { scratch.remove() }
        let integer = try scratch.write("integer.json", #"{"n":9007199254740993}"#)
        let spelled = try scratch.write("spelled.json", #"{"n":\#(spelling)}"#)
        let neighbour = try scratch.write("neighbour.json", #"{"n":9007199254740992}"#)

        // Then the two are the same, and the one beside it differs, shown with its exact digits
        let same = try await CLI.run(["diff", "--states", integer, spelled])
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
        #expect(same.stdout == "same: \(integer) and \(spelled) hold equal JSON\n\n")
        let different = try await CLI.run(["diff", "--states", neighbour, spelled])
        #expect(different.status == 1, "\(different.stderr)")
        #expect(
            different.stdout == """
                1 difference: n  9007199254740992 -> 9007199254740993
                  {
                -   "n": 9007199254740992
                +   "n": 9007199254740993
                  }

                """)
    }
}
