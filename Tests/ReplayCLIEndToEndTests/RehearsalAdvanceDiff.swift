/// How a comparison of two replays of `rehearsals-journey.jsonl` prints the samples' `rehearsal-advance` regression at
/// step 68, under its `state after step 68 (- …, + …)` line: the state's dump and the list of differences, with the
/// regression's side `+`. Every test comparing a version with the regression and one without expects it.
enum RehearsalAdvanceDiff {
    static let text = """
            {
              "path": {
                "entries": [
                  ... (1 unchanged)
                  {
                    "element": {
                      "rehearsal": {
                        "_0": {
                          ... (1 unchanged)
                          "elapsedInSong": [
                            0,
          -                 0
          +                 6000000000000000000
                          ],
                          ... (4 unchanged)
          -               "songIndex": 1,
          +               "songIndex": 0,
                          ... (2 unchanged)
                        }
                      }
                    },
                    "id": 2
                  }
                ],
                "nextID": 3
              },
              ... (1 unchanged)
            }
          2 differences:
            path.entries[id: 2].element.rehearsal.elapsedInSong[1]  0 -> 6000000000000000000
            path.entries[id: 2].element.rehearsal.songIndex  1 -> 0
        """
}
