/// How a comparison of two replays of `rehearsals-journey.jsonl` prints the samples' `rehearsal-advance` regression at
/// step 68, under its `state after step 68 (- …, + …)` line: the state's dump and the list of differences (a duration
/// as one value), with the regression's side `+`. Every test comparing a version with the regression and one without
/// expects it.
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
          -               "elapsedInSong": 0 s,
          +               "elapsedInSong": 6 s,
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
            path.entries[id: 2].element.rehearsal.elapsedInSong  0 s -> 6 s
            path.entries[id: 2].element.rehearsal.songIndex  1 -> 0
        """
}
