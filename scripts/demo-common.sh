# What the demo scripts (scripts/demo.sh, demo-devices.sh, demo-jira.sh, demo-github.sh, demo-gitlab.sh) share: section titles
# and narration, bold and dim on a terminal, plain text in a log; start_server. Sourced, not run.
if [ -t 1 ]; then bold=$'\e[1m' dim=$'\e[2m' off=$'\e[0m'; else bold="" dim="" off=""; fi
title() { printf '\n%s== %s%s\n' "$bold" "$*" "$off"; }
say() { printf '%s%s%s\n' "$dim" "$*" "$off" | fold -s -w 110; }
# start_server NAME ARGS…: starts one of our servers (NAME is jira-sim, github-sim, …) on a free port, in the
# background; sets sim_pid and url (as it printed it). Needs bin and work.
start_server() {
    local name=$1
    shift
    "$bin/$name" --port 0 "$@" > "$work/sim.out" 2> "$work/sim.err" &
    sim_pid=$!
    for _ in $(seq 100); do grep -q '^listening on ' "$work/sim.out" 2> /dev/null && break; sleep 0.1; done
    url=$(sed -n 's/^listening on //p' "$work/sim.out")
    [ -n "$url" ] || { echo "$name did not start:"; cat "$work/sim.err"; exit 1; }
}
