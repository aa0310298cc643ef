#!/usr/bin/env bash
# The whole test suite: builds the package and its tests; as root, runs the end-to-end test of the user unit
# under a real systemd --user manager; then XCTest (unit tests, the binaries against compass-sim over HTTP,
# notifications through a real notification server). The last line is XCTest's count.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests
# The man page, generated from the command definitions, documents every command.
swift build --product generate-manual > /dev/null
man=$(mktemp -d)
"$(swift build --show-bin-path)/generate-manual" "$(swift build --show-bin-path)/trackwatch" --output-directory "$man"
for command in check run status log mute unmute doctor probe notify-test; do
  grep -q "^\.It Em $command\$" "$man/trackwatch.1" || { echo "man page lacks $command"; exit 1; }
done
rm -rf "$man"
echo "man page: every command documented"
if [ "$(id -u)" -eq 0 ]; then
  BIN="$(swift build --show-bin-path)" scripts/e2e-user-unit.sh
else
  echo "skipping the systemd --user end-to-end test: it needs root (it builds a private user manager)"
fi
# The fuzzers' corpora through the same code, unsanitised: every input that ever crashed stays fixed.
bin=$(swift build --show-bin-path)
"$bin/trackwatch-fuzz" config fuzz/corpus/config
"$bin/trackwatch-fuzz" compass fuzz/corpus/compass
"$bin/trackwatch-fuzz" csv fuzz/corpus/csv
"$bin/trackwatch-fuzz" timestamp fuzz/corpus/timestamp
"$bin/trackwatch-fuzz" headers fuzz/corpus/headers
"$bin/trackwatch-fuzz" jwt fuzz/corpus/jwt
log=$(mktemp /tmp/trackwatch-test.XXXXXX)
status=0
swift test --skip-build --disable-swift-testing > "$log" 2>&1 || status=$?
# Keep failures and summaries; drop the per-test chatter.
grep -vE "^Test Case '.*' (started|passed)" "$log" || true
rm -f "$log"
exit "$status"
