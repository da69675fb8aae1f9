#!/bin/sh
# Re-records the rehearsal planner's golden sessions in samples/sessions/. The journey is deterministic: the same
# seed gives the same actions, causes and states (only the header's session id, start time and pid, and the
# actions' timestamps, differ from one recording to the next).
#   samples/record-rehearsal-sessions.sh
set -eu
cd "$(dirname "$0")/.."
swift build --product sample-app
# Three weeks of the band (320 actions: 216 from the script, 104 timer ticks), states as patches with keyframes.
.build/debug/sample-app --feature rehearsals --actions 150 --delta --out samples/sessions/rehearsals-journey.jsonl
# The first week alone (90 actions), every state in full.
.build/debug/sample-app --feature rehearsals --actions 40 --out samples/sessions/rehearsals-week.jsonl
# Readable by all, like the other goldens (the recorder creates its files private).
chmod 644 samples/sessions/rehearsals-journey.jsonl samples/sessions/rehearsals-week.jsonl
