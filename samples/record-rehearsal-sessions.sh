#!/bin/sh
# Re-records the golden sessions of the samples' replayable effects in samples/sessions/: the rehearsal planner's
# (its timer) and the scoreboard's (its post-score effect), and the grocery list's (whose actions are structs). The
# first three are format 2: beside the actions, the effects' inputs (`call` lines: each second the timer slept and
# each state it read, each score posted and the server's answer) and the ends of their runs (`effectEnd` lines). The scripts are deterministic: the same seed gives the same
# actions, causes, states and inputs (only the header's session id, start time and pid, the lines' timestamps, the
# order of a Set's members in the scoreboard's states, and where the line of a cancelled timer's last sleep falls
# among the user actions that follow its cancellation differ from one recording to the next).
#   samples/record-rehearsal-sessions.sh
set -eu
cd "$(dirname "$0")/.."
swift build --product sample-app
# Three weeks of the band (320 actions: 216 from the script, 104 timer ticks), states as patches with keyframes.
.build/debug/sample-app --feature rehearsals --actions 150 --delta --out samples/sessions/rehearsals-journey.jsonl
# The first week alone (90 actions), every state in full.
.build/debug/sample-app --feature rehearsals --actions 40 --out samples/sessions/rehearsals-week.jsonl
# A match (78 actions: 40 from the script, 38 from the post-score effect, every fifth post refused by the server).
.build/debug/sample-app --feature scoreboard --actions 40 --out samples/sessions/scoreboard-match.jsonl
# A grocery list whose actions are separate structs (44 actions: 40 from the script, 4 answers of its fetch effect).
.build/debug/sample-app --feature groceries --actions 40 --out samples/sessions/groceries-structs.jsonl
# Readable by all, like the other goldens (the recorder creates its files private).
chmod 644 samples/sessions/rehearsals-journey.jsonl samples/sessions/rehearsals-week.jsonl \
    samples/sessions/scoreboard-match.jsonl samples/sessions/groceries-structs.jsonl
