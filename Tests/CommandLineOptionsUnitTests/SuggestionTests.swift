import CommandLineOptions
import Testing

/// `Suggestion`: the near misses offered as "did you mean".
@Suite struct SuggestionTests {
    @Test func theNearestCandidatesComeFirstAndEquallyNearOnesAlphabetically() {
        // Given names a typo could have meant, and one far from it
        let candidates = ["to", "todoList", "todos"]

        // When the nearest to a typo are asked for
        let nearest = Suggestion.nearest(to: "todo", among: candidates)

        // Then the closest comes first, then the other within reach, and the far one is left out
        #expect(nearest == ["todos", "to"])
        // And names two edits from the word come in alphabetical order
        #expect(Suggestion.nearest(to: "titel", among: ["titles", "title", "tile", "isComplete"]) == ["tile", "title", "titles"])
    }

    @Test func noCandidateIsOfferedWhenNoneIsCloseEnoughToBeATypo() {
        #expect(Suggestion.nearest(to: "route", among: ["todos", "filter"]).isEmpty)
        #expect(Suggestion.closest(to: "route", among: ["todos", "filter"]) == nil)
    }

    @Test func aLongerWordAllowsMoreEditsAndTheLimitCutsTheList() {
        // Given a long dotted action name missing two letters, and candidates repeated
        let candidates = ["path.element.rehearsal.timerTick", "path.element.rehearsal.timerTick", "path.element.rehearsal"]

        // Then it is found (3 edits are allowed at its length), once, and a limit of 1 keeps the nearest
        #expect(Suggestion.nearest(to: "path.element.rehersal.timerTik", among: candidates, limit: 1) == ["path.element.rehearsal.timerTick"])
        #expect(Suggestion.nearest(to: "path.element.rehersal", among: candidates) == ["path.element.rehearsal"])
    }
}
