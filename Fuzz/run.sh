#!/usr/bin/env bash
# Builds the libFuzzer targets (with AddressSanitizer) and runs each for a bounded time on a seed corpus made from
# the samples. Linux only: Swift's -sanitize=fuzzer needs the toolchain's libFuzzer.
#   Fuzz/run.sh                 every target for 60 s each
#   Fuzz/run.sh 10              every target for 10 s each (what CI runs)
#   Fuzz/run.sh 300 json        one target for 5 minutes (json, session-reader, daemon-lines, host-protocol)
# A crash stops the run, exits 1, and leaves the input that caused it in .build/fuzz/artifacts/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(json session-reader daemon-lines host-protocol)

out=.build/fuzz
mkdir -p "$out/artifacts"
flags=(-sanitize=fuzzer,address -use-ld=lld -parse-as-library -package-name storekitreplay -O -g -swift-version 6)

# The package's libraries as instrumented static libraries that the targets import, each built from its own
# folder in Sources/, lowest layer first: the targets link the same code the daemon and the tools run.
library() {  # module name, modules it imports...
    local name=$1; shift
    local links=()
    for dependency in "$@"; do links+=(-L "$out" -l"$dependency"); done
    swiftc "${flags[@]}" -module-name "$name" -I "$out" -emit-module -emit-module-path "$out/$name.swiftmodule" \
        -emit-library -static -o "$out/lib$name.a" $(find "Sources/$name" -name '*.swift' | sort)
}
echo "fuzz: building StoreKitSystem, StoreKitJSON, StoreKitCore, StoreKitReplay, CommandLineOptions and ReplayDaemon with -sanitize=fuzzer,address..." >&2
library StoreKitSystem
library StoreKitJSON StoreKitSystem
library StoreKitCore StoreKitJSON StoreKitSystem
library StoreKitReplay StoreKitCore StoreKitJSON StoreKitSystem
library CommandLineOptions
library ReplayDaemon StoreKitReplay StoreKitCore StoreKitJSON StoreKitSystem CommandLineOptions

build() {  # name, sources...
    local name=$1; shift
    swiftc "${flags[@]}" -module-name "Fuzz_${name//-/_}" -I "$out" "$@" \
        -L "$out" -lReplayDaemon -lCommandLineOptions -lStoreKitReplay -lStoreKitCore -lStoreKitJSON -lStoreKitSystem -o "$out/fuzz-$name"
}

corpus() {  # name: seeds from the samples, one file per line, pairs and threes of lines in a row, and whole sessions
    local dir="$out/corpus/$1"
    mkdir -p "$dir"
    local n=0 previous="" before=""
    for session in samples/sessions/*.jsonl; do
        cp "$session" "$dir/session-$(basename "$session")"
        while IFS= read -r line; do
            n=$((n + 1))
            [ $((n % 7)) -eq 0 ] || [ "$n" -lt 12 ] || { before=$previous; previous=$line; continue; }   # a sample keeps the corpus small
            printf '%s\n' "$line" > "$dir/line-$n.json"
            # Two and three lines in a row, as the scanner's memory of the line before sees them.
            [ -z "$previous" ] || printf '%s\n%s\n' "$previous" "$line" > "$dir/pair-$n.json"
            [ -z "$before" ] || printf '%s\n%s\n%s' "$before" "$previous" "$line" > "$dir/three-$n.json"
            before=$previous
            previous=$line
        done < "$session"
    done
    printf '%s' '{"command":"replay","findAll":true,"lastStep":3,"protocol":1}' > "$dir/request.json"
    printf '%s' '{"kind":"result","drift":{"checkedValues":2,"entries":[{"part":"action","case":"a","path":"x","message":"m","count":1,"firstStep":1}]}}' > "$dir/drift.json"
    echo "$dir"
}

total_crashes=0
for target in "${targets[@]}"; do
    case $target in
        json) build json Fuzz/Targets/JSONParserFuzz.swift ;;
        session-reader) build session-reader Fuzz/Targets/SessionReaderFuzz.swift ;;
        daemon-lines) build daemon-lines Fuzz/Targets/DaemonLineFuzz.swift ;;
        host-protocol) build host-protocol Fuzz/Targets/HostProtocolFuzz.swift ;;
        *) echo "fuzz: unknown target '$target'" >&2; exit 2 ;;
    esac
    dir=$(corpus "$target")
    echo "fuzz: $target for $seconds s..." >&2
    status=0
    "$out/fuzz-$target" "$dir" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -dict=Fuzz/session.dict -artifact_prefix="$out/artifacts/$target-" > "$out/$target.log" 2>&1 || status=$?
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$out/$target.log" | grep -o '[0-9]*$' || echo "?")
    if [ "$status" -ne 0 ]; then
        total_crashes=$((total_crashes + 1))
        echo "fuzz: $target FAILED after $runs executions (see $out/$target.log):" >&2
        grep -E 'Fatal error|ERROR|SUMMARY' "$out/$target.log" | head -5 >&2
    else
        printf 'fuzz: %-15s %10s executions in %s s, 0 crashes\n' "$target" "$runs" "$seconds"
    fi
done
[ "$total_crashes" -eq 0 ]
