#!/usr/bin/env bash
# Runs the whole benchmark table on this machine (release builds; figures, never timed tests).
#   Benchmarks/run.sh           full sizes (several minutes)
#   Benchmarks/run.sh --quick   smaller inputs (about half a minute)
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product replayd >&2
swift build -c release --product storekit-benchmarks >&2
bin=.build/release/storekit-benchmarks
"$bin" "$@"

# The whole-process diff of two 5 MB states against Python's jsonpatch and deepdiff (installed here, for the
# benchmark only; the product depends on nothing).
python3 -m pip install --quiet --disable-pip-version-check jsonpatch deepdiff >&2 || {
    echo "diff comparison skipped: could not install jsonpatch and deepdiff" >&2; exit 0; }
work=$(mktemp -d /tmp/skr-diff-XXXX)
trap 'rm -rf "$work"' EXIT
read -r old new < <("$bin" --write-diff-pair "$work")
seconds() { local start end; start=$(date +%s.%N); "$@" > /dev/null; end=$(date +%s.%N); echo "$end - $start" | bc; }
ours=$(seconds "$bin" --diff-files "$old" "$new")
patch=$(seconds python3 -c "import json,jsonpatch,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); jsonpatch.make_patch(a,b)" "$old" "$new")
deep=$(seconds python3 -c "import json,sys; from deepdiff import DeepDiff; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); DeepDiff(a,b)" "$old" "$new")
printf '%-46s %8.3f s   %8.3f s (python jsonpatch.make_patch)  %5.2fx faster   target >= 3x\n' \
    "whole-process diff of two 5 MB states" "$ours" "$patch" "$(echo "$patch / $ours" | bc -l)"
printf '%-46s %8.3f s   %8.3f s (python deepdiff.DeepDiff)     %5.2fx faster\n' \
    "whole-process diff of two 5 MB states" "$ours" "$deep" "$(echo "$deep / $ours" | bc -l)"
