#!/usr/bin/env bash
# The demo's JSON list (run by scripts/demo.sh; alone: scripts/demo-devices.sh): json-sim serves the team's device
# check-out tracker, trackwatch watches it as a [[json]] source, and a colleague checks out the Pixel 8 through
# the tracker's own API. Everything lives in a temporary directory, removed at the end.
#
#   BIN         directory with trackwatch and json-sim (default: `swift build --show-bin-path`)
#   DEMO_PACE   seconds to pause between steps (default 1; 0 in tests)
#
# Exit status: 0 when the check-out was reported, once; 1 otherwise.
set -euo pipefail
bin=${BIN:-$(swift build --show-bin-path)}
pace=${DEMO_PACE:-1}
work=$(mktemp -d "${TMPDIR:-/tmp}/trackwatch-demo-devices.XXXXXX")
sim_pid=""
cleanup() {
    [ -z "$sim_pid" ] || kill "$sim_pid" 2> /dev/null || true
    wait 2> /dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

. "$(dirname "$0")/demo-common.sh"

"$bin/json-sim" --port 0 --other-host "" > "$work/sim.out" 2> "$work/sim.err" &
sim_pid=$!
for _ in $(seq 100); do grep -q '^listening on ' "$work/sim.out" 2> /dev/null && break; sleep 0.1; done
url=$(sed -n 's/^listening on //p' "$work/sim.out")
[ -n "$url" ] || { echo "json-sim did not start:"; cat "$work/sim.err"; exit 1; }

cat > "$work/config.toml" << TOML
[[json]]
name = "devices"
url = "$url/devices"
title = "{device} ({os})"
fields = ["isCheckedOut", "lastCheckedOutBy"]
by = "lastCheckedOutBy"
link = "https://devices.example.com/#/device/{id}"
TOML
export XDG_STATE_HOME=$work/state
tw() { "$bin/trackwatch" "$@" --config "$work/config.toml"; }

title "json-sim: the team's device tracker on $url/devices"
say "Any JSON list can be watched: a [[json]] table names its URL, what identifies an item (id), what to call it \
(title), which fields to compare and who made a change (by). This one is the device check-out tracker; recipes for \
GitHub, GitLab, Jira and more are in docs/recipes.md."
sed 's/^/  /' "$work/config.toml"
sleep "$pace"

title "trackwatch check   # the baseline of the list"
tw check
sleep "$pace"

title "Sam Carter checks out the Pixel 8, through the tracker's API"
"$bin/json-sim" act checkout --url "$url" --device 1 --as "Sam Carter" | sed 's/^/  /'
sleep "$pace"

title "trackwatch check   # the change, field by field, with who made it"
tw check | tee "$work/changes"
title "trackwatch check --json   # again: nothing new"
tw check --json
echo "(no output)"
grep -q '^Pixel 8 (Android 14) changed by Sam Carter in devices' "$work/changes" || { echo "demo: the check-out was not reported" >&2; exit 1; }
