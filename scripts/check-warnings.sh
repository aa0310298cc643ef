#!/usr/bin/env bash
# Fails on any compiler warning from our own code in a build's output (scripts/test.sh runs it after every
# build): a `path:line:col: warning:` line whose file is under Sources/, Tests/ or Plugins/ of this tree.
# Dependencies' warnings and SwiftPM's own (such as "prohibited flag(s): -pthread" from glib's pkg-config
# flags) name no such file and pass.
#
#   scripts/check-warnings.sh BUILD-LOG…
#
# An incremental build compiles only what changed, so a warning shows once and the next build would pass in
# silence. Every file that warned is therefore touched: the next build compiles it again, and it warns again
# until it is fixed.
#
# Exit status: 0 no warning of ours; 1 warnings (listed on stderr); 64 usage.
set -euo pipefail
[ $# -ge 1 ] || { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 64; }
src=$(cd "$(dirname "$0")/.." && pwd)
ours=$(grep -hE "^$src/(Sources|Tests|Plugins)/[^:]+:[0-9]+:[0-9]+: warning: " "$@" | sort -u || true)
[ -z "$ours" ] && exit 0
echo "$(printf '%s\n' "$ours" | wc -l) compiler warning(s) in our code; our targets build without any:" >&2
printf '%s\n' "$ours" >&2
printf '%s\n' "$ours" | cut -d: -f1 | sort -u | while IFS= read -r file; do touch "$file"; done
exit 1
