#!/usr/bin/env bash
# The demo: starts compass-sim, takes a baseline with `trackwatch check`, lets colleagues change things
# through the real API, and checks again. Everything lives in a temporary directory; Ctrl-C cleans up.
set -euo pipefail
bin=${BIN:-$(swift build --show-bin-path)}
work=$(mktemp -d /tmp/trackwatch-demo.XXXXXX)
sim_pid=""
cleanup() { [ -n "$sim_pid" ] && kill "$sim_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT INT TERM

"$bin/compass-sim" --port 0 > "$work/sim.out" 2> "$work/sim.err" &
sim_pid=$!
for _ in $(seq 100); do grep -q '^listening on ' "$work/sim.out" 2>/dev/null && break; sleep 0.1; done
url=$(sed -n 's/^listening on //p' "$work/sim.out")
[ -n "$url" ] || { echo "compass-sim did not start:"; cat "$work/sim.err"; exit 1; }

printf 'engineer\n' > "$work/password"; chmod 600 "$work/password"
cat > "$work/config.toml" <<TOML
[server]
url = "$url"
repo = "2.0.0"
database = "SAMPL"
username = "engineer"
password_file = "$work/password"
[poll]
interval = "30s"
TOML
export XDG_STATE_HOME="$work/state"
tw() { "$bin/trackwatch" "$@" --config "$work/config.toml"; }

echo "== compass-sim at $url (user engineer)"
echo "== trackwatch check   # first run: a silent baseline"
tw check
echo
echo "== lead resolves SAMPL00000001 and hands SAMPL00000002 to engineer at top priority; alice closes nothing of ours"
"$bin/compass-sim" act --url "$url" --user lead --record SAMPL00000001 --action Resolve
"$bin/compass-sim" act --url "$url" --user lead --record SAMPL00000002 --action Modify --set Owner=engineer --set "Priority=1-Resolve Immediately"
"$bin/compass-sim" act --url "$url" --user lead --record SAMPL00000005 --action Modify --set Owner=alice
echo
echo "== trackwatch check"
tw check
echo
echo "== trackwatch check --json   # nothing new: every change is reported once"
tw check --json
echo "== trackwatch status"
tw status
