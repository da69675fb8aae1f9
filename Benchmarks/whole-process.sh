#!/usr/bin/env bash
# The user's own path, whole process: `replay-cli diff SESSION` and `replay-cli check DIR` as a user runs them, with
# the replay host and its build step from the package's `.replay.json` (the defaults a user gets), beside `jq` and
# Python parsing the same files, and beside `diff` run on each session in a loop. Run by Benchmarks/run.sh, or alone:
#   Benchmarks/whole-process.sh [--quick]
# It expects `.build/release/replay-cli` (Benchmarks/run.sh builds it); the host is built by the CLI itself.
set -euo pipefail
cd "$(dirname "$0")/.."
quick=false
[ "${1:-}" = "--quick" ] && quick=true
cli=.build/release/replay-cli
work=$(mktemp -d /tmp/skr-whole-XXXX)
trap 'rm -rf "$work"' EXIT

# Sessions the samples' host replays: a small state (the counter: two numbers) and a 100 KB state (a todo list of
# about 720 todos), both gap-free and matching.
if $quick; then small_actions=30000; large_actions=60; else small_actions=200000; large_actions=300; fi
python3 scripts/make-counter-session.py "$work/small.jsonl" "$small_actions"
python3 scripts/make-todos-session.py "$work/large.jsonl" "$large_actions" 720
# A warm-up run brings the host up to date, as a user's first replay does; the timed runs are the ones after it.
echo "whole process: building the replay host once ($(jq -r .build .replay.json))..." >&2
"$cli" diff "$work/small.jsonl" > /dev/null 2>&1 || true

# The best of three runs of a command (exit 0, or 1 for "different"), in seconds; `runs=1 seconds ...` for one.
seconds() {
    local best="" start end elapsed
    for _ in $(seq 1 "${runs:-3}"); do
        start=$(date +%s.%N)
        "$@" > /dev/null 2>&1 || [ $? -eq 1 ]
        end=$(date +%s.%N)
        elapsed=$(echo "$end - $start" | bc)
        if [ -z "$best" ] || [ "$(echo "$elapsed < $best" | bc)" -eq 1 ]; then best=$elapsed; fi
    done
    echo "$best"
}
jq_parse() { jq -c . "$1" > /dev/null; }
python_parse() { python3 -c 'import json,sys
for line in open(sys.argv[1], "rb"): json.loads(line)' "$1"; }
ours_diff() { "$cli" diff "$1"; }
# Runs the commands named (each given FILE) in turn, five rounds, and prints the best time of each, in order: taking
# turns, a slow minute of this shared machine slows each of them, not one alone.
best_of_turns() {
    local file=$1 best=() index elapsed
    shift
    for _ in 1 2 3 4 5; do
        index=0
        for command in "$@"; do
            elapsed=$(runs=1 seconds "$command" "$file")
            if [ -z "${best[$index]:-}" ] || [ "$(echo "$elapsed < ${best[$index]}" | bc)" -eq 1 ]; then
                best[$index]=$elapsed
            fi
            index=$((index + 1))
        done
    done
    echo "${best[@]}"
}
row() {  # label, ours, theirs, reference, target
    printf '%-46s %8.3f s   %8.3f s %-33s %5.2fx faster   %s\n' "$1" "$2" "$3" "$4" "$(echo "$3 / $2" | bc -l)" "$5"
}

for kind in small large; do
    file="$work/$kind.jsonl"
    megabytes=$(( $(stat -c %s "$file") / 1000000 ))
    if [ "$kind" = small ]; then label="small state, $megabytes MB"; else label="100 KB state, $megabytes MB"; fi
    echo "whole process: diff, $label..." >&2
    verdict=$("$cli" diff "$file" 2>&1 | sed -n 2p || true)
    case "$verdict" in match:*) ;; *) echo "diff of the $kind session did not match: $verdict" >&2; exit 2 ;; esac
    read -r ours jq python < <(best_of_turns "$file" ours_diff jq_parse python_parse)
    row "replay-cli diff, $label" "$ours" "$jq" "(jq -c . > /dev/null)" "target >= 1x"
    row "replay-cli diff, $label" "$ours" "$python" "(python json.loads per line)" "target >= 1x"
done

# `check` over 100 sample sessions against `diff` on each of them in a loop, per session.
mkdir "$work/sessions"
samples=(samples/sessions/*.jsonl)
for index in $(seq 1 100); do
    cp "${samples[$(( (index - 1) % ${#samples[@]} ))]}" "$work/sessions/$(printf 's%03d' "$index").jsonl"
done
diff_each() { for file in "$work"/sessions/*.jsonl; do "$cli" diff "$file" > /dev/null 2>&1 || [ $? -eq 1 ]; done; }
echo "whole process: check over 100 sessions, and diff on each..." >&2
check=$(seconds "$cli" check "$work/sessions")
loop=$(runs=1 seconds diff_each)
printf '%-46s %8.1f ms  %8.1f ms %-33s %5.2fx faster   %s\n' "check over 100 sample sessions, per session" \
    "$(echo "$check * 10" | bc -l)" "$(echo "$loop * 10" | bc -l)" "(diff on each, in a loop)" \
    "$(echo "$loop / $check" | bc -l)" "clearly faster"
