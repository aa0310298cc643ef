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
[[watch]]
query = "Public Queries/Team P1s"
notify = "changes"
[poll]
interval = "30s"
TOML
export XDG_STATE_HOME="$work/state"
tw() { "$bin/trackwatch" "$@" --config "$work/config.toml"; }

echo "== compass-sim at $url (user engineer)"
echo "== trackwatch check   # first run: a silent baseline (the two built-in queries and the watched Team P1s)"
tw check
echo
echo "== colleagues act: lead resolves SAMPL00000001, gives SAMPL00000002 to engineer at top priority (so it enters Team P1s), and SAMPL00000005 to alice"
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

# Part two: the daemon, polling every 10 s, while a scripted colleague keeps changing things. On a desktop you
# see real bubbles. Runs until Ctrl-C in a terminal, DEMO_SECONDS (default 40) otherwise.
echo
echo "== trackwatch run   # the daemon; colleagues act every 12 s; Ctrl-C stops everything"
sed -i 's/^interval = .*/interval = "10s"/' "$work/config.toml"
"$bin/trackwatch" run --config "$work/config.toml" &
daemon_pid=$!
colleague_pid=""
trap 'kill $colleague_pid "$daemon_pid" 2>/dev/null; cleanup' EXIT INT TERM
colleague() {
  local steps=(
    "lead SAMPL00000021 Resolve"
    "alice SAMPL00000026 Modify Owner=engineer"
    "lead SAMPL00000013 Re_open"
    "lead SAMPL00000025 Modify Priority=1-Resolve_Immediately"
    "lead SAMPL00000002 Modify Owner=alice"
  )
  for step in "${steps[@]}"; do
    sleep 12
    read -r user record action set <<<"$step"
    "$bin/compass-sim" act --url "$url" --user "$user" --record "$record" --action "$action" \
      ${set:+--set "${set//_/ }"} >/dev/null || true
  done
}
colleague &
colleague_pid=$!
if [ -t 0 ]; then wait "$daemon_pid"; else sleep "${DEMO_SECONDS:-40}"; fi
