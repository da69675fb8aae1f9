#!/usr/bin/env bash
# Runs the test suite under a sanitizer, in its own build folder so the normal build stays as it is.
#   scripts/test-sanitized.sh thread                 every test under ThreadSanitizer
#   scripts/test-sanitized.sh address                every test under AddressSanitizer
#   scripts/test-sanitized.sh thread 'Store|Recorder|Replayd'   only the tests whose names match
#   scripts/test-sanitized.sh thread 'Replayd' 'flatOut'        ... except those whose names match the second pattern
# The end-to-end tests run the sanitized replayd, replay-cli and sample app too. Any report fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
sanitizer=${1:?usage: scripts/test-sanitized.sh thread|address [filter]}
case $sanitizer in thread | address) ;; *) echo "unknown sanitizer '$sanitizer' (thread or address)" >&2; exit 2 ;; esac
filter=()
[ $# -lt 2 ] || filter=(--filter "$2")
[ $# -lt 3 ] || filter+=(--skip "$3")
log=$(mktemp /tmp/sanitized-XXXX.log)
trap 'rm -f "$log"' EXIT
export TSAN_OPTIONS="halt_on_error=1 ${TSAN_OPTIONS:-}"
export ASAN_OPTIONS="detect_leaks=0 ${ASAN_OPTIONS:-}"
status=0
swift test --sanitize="$sanitizer" --scratch-path ".build/$sanitizer" "${filter[@]}" 2>&1 | tee "$log" || status=$?
if grep -qE 'WARNING: ThreadSanitizer|ERROR: AddressSanitizer' "$log"; then
    echo "test-sanitized: the $sanitizer sanitizer reported a problem (above)" >&2
    exit 1
fi
exit "$status"
