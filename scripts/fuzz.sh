#!/usr/bin/env bash
# Fuzzes the configuration reader, the decoding of Compass's answers (JSON, CSV, timestamps), the response headers a
# server controls (Retry-After, Set-Cookie, Content-Type) and JWT claims with libFuzzer + AddressSanitizer for a
# fixed time each, starting from (and adding to) the committed corpus in fuzz/corpus/. A crash, a hang (> 5 s for
# one input) or more than 1 GB of memory stops the run with the input saved as fuzz/crash-*; replay it with
#     .build/debug/trackwatch-fuzz TARGET fuzz/crash-…
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET…]     (default 60 s; every target)
# The first build takes ~7 minutes (everything again, instrumented, in .build-fuzz).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=${*:-config compass csv timestamp headers jwt json}
swift build -c release --scratch-path .build-fuzz --product trackwatch-fuzz \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING
fuzzer=.build-fuzz/release/trackwatch-fuzz
status=0
for target in $targets; do
    mkdir -p "fuzz/corpus/$target"
    before=$(ls "fuzz/corpus/$target" | wc -l)
    echo "== $target: ${seconds}s from $before inputs"
    # -max_len bounds one input (1 MB for answers: ample for the parsers; the transport refuses bodies over 64 MB).
    max_len=4096
    case "$target" in compass|csv) max_len=1048576 ;; headers|json) max_len=16384 ;; esac
    TRACKWATCH_FUZZ=$target "$fuzzer" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=1024 -max_len="$max_len" \
        -print_final_stats=1 -artifact_prefix=fuzz/crash-"$target"- "fuzz/corpus/$target" 2> "fuzz/$target.log" || status=$?
    grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb' "fuzz/$target.log" | sed "s/^/   /"
    [ "$status" -eq 0 ] || { tail -n 30 "fuzz/$target.log"; echo "== $target FAILED: see fuzz/$target.log"; exit "$status"; }
    # Keep the corpus small enough to commit: only inputs that add coverage.
    minimal=$(mktemp -d)
    TRACKWATCH_FUZZ=$target "$fuzzer" -merge=1 -timeout=5 -rss_limit_mb=1024 "$minimal" "fuzz/corpus/$target" 2>> "fuzz/$target.log"
    rm -rf "fuzz/corpus/$target" && mv "$minimal" "fuzz/corpus/$target" && chmod 755 "fuzz/corpus/$target"
    echo "   corpus: $before → $(ls "fuzz/corpus/$target" | wc -l) inputs (minimised)"
    rm -f "fuzz/$target.log"
done
echo "no crash, hang or memory blow-up; new corpus inputs in fuzz/corpus/ can be committed"
