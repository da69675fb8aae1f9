#!/usr/bin/env bash
# Runs the whole benchmark table on this machine (release builds; figures, never timed tests).
#   Benchmarks/run.sh           full sizes (several minutes)
#   Benchmarks/run.sh --quick   smaller inputs (about half a minute)
#   Benchmarks/run.sh --repeat N   the dispatch rows measured N times, each p99 row the worst of the N runs
#   (--quick and --repeat N go together)
#   (either ends with the peak resident memory of a burst per transport: storekit-benchmarks --peak-rss,
#   and the loss across five kill -9 restarts of replayd: storekit-benchmarks --restart-loss)
#   Benchmarks/run.sh --diff-only   only the whole-process diff against Python's jsonpatch and deepdiff
#   Benchmarks/run.sh --whole-process-only [--quick]   only the user's path: diff and check through the replay host
set -euo pipefail
cd "$(dirname "$0")/.."
mode=""
quick=()
repeat=()
while [ $# -gt 0 ]; do
    case "$1" in
        --quick) quick=(--quick) ;;
        --repeat)
            case "${2:-}" in
                '' | *[!0-9]* | 0) echo "Error: --repeat takes a number of runs, 1 or more" >&2; exit 64 ;;
            esac
            repeat=(--repeat "$2"); shift ;;
        --diff-only | --whole-process-only) mode=$1 ;;
        *) echo "Error: unknown option '$1' (see the comment at the top of Benchmarks/run.sh)" >&2; exit 64 ;;
    esac
    shift
done
swift build -c release --product replayd >&2
swift build -c release --product replay-cli >&2
swift build -c release --product storekit-benchmarks >&2
bin=.build/release/storekit-benchmarks
if [ "$mode" = "--whole-process-only" ]; then exec Benchmarks/whole-process.sh "${quick[@]}"; fi
if [ "$mode" != "--diff-only" ]; then
    "$bin" "${quick[@]}" "${repeat[@]}"
    # The app's peak resident memory under a burst, one process per transport (a process's peak only grows).
    for destination in file socket flight; do "$bin" --peak-rss "$destination" "${quick[@]}"; done
    # What a flat-out recording loses across five kill -9 restarts of replayd, with the journal and without.
    "$bin" --restart-loss "${quick[@]}"
fi

# The whole-process diff of two 5 MB states (`replay-cli diff --states`, which exits 1: they differ) against
# Python's jsonpatch and deepdiff (installed here, for the benchmark only; the product depends on nothing).
python3 -m pip install --quiet --disable-pip-version-check jsonpatch deepdiff >&2 || {
    echo "diff comparison skipped: could not install jsonpatch and deepdiff" >&2; exit 0; }
work=$(mktemp -d /tmp/skr-diff-XXXX)
trap 'rm -rf "$work"' EXIT
read -r old new < <("$bin" --write-diff-pair "$work")
# The best of three runs of a command (exit 0, or 1 for "they differ"), in seconds.
seconds() {
    local best="" start end elapsed
    for _ in 1 2 3; do
        start=$(date +%s.%N)
        "$@" > /dev/null || [ $? -eq 1 ]
        end=$(date +%s.%N)
        elapsed=$(echo "$end - $start" | bc)
        if [ -z "$best" ] || [ "$(echo "$elapsed < $best" | bc)" -eq 1 ]; then best=$elapsed; fi
    done
    echo "$best"
}
# `--json` writes the changes as data, as make_patch returns them; the text form also renders the -/+ dump.
ours=$(seconds .build/release/replay-cli diff --states --json "$old" "$new")
text=$(seconds .build/release/replay-cli diff --states "$old" "$new")
patch=$(seconds python3 -c "import json,jsonpatch,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); jsonpatch.make_patch(a,b)" "$old" "$new")
deep=$(seconds python3 -c "import json,sys; from deepdiff import DeepDiff; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); DeepDiff(a,b)" "$old" "$new")
row() {  # label, ours, theirs, reference, target
    printf '%-46s %8.3f s   %8.3f s %-33s %5.2fx faster   %s\n' "$1" "$2" "$3" "$4" "$(echo "$3 / $2" | bc -l)" "$5"
}
row "diff of two 5 MB states (--json)" "$ours" "$patch" "(python jsonpatch.make_patch)" "target >= 3x"
row "diff of two 5 MB states (text, -/+ dump)" "$text" "$patch" "(python jsonpatch.make_patch)" ""
row "diff of two 5 MB states (--json)" "$ours" "$deep" "(python deepdiff.DeepDiff)" ""
# Linear in size: the same diff on states four times as large should take about four times as long.
mkdir "$work/large"
read -r large_old large_new < <("$bin" --write-diff-pair "$work/large" 20)
large=$(seconds .build/release/replay-cli diff --states --json "$large_old" "$large_new")
printf '%-46s %8.3f s   %8.3f s %-33s %5.2fx the time  %s\n' "diff of two 20 MB states (--json)" "$large" "$ours" \
    "(two 5 MB states)" "$(echo "$large / $ours" | bc -l)" "linear: about 4x"

# The user's own path, whole process: diff and check through the replay host that `.replay.json` names.
if [ "$mode" != "--diff-only" ]; then Benchmarks/whole-process.sh "${quick[@]}"; fi
