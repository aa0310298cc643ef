#!/usr/bin/env bash
# The demo's Jira (run by scripts/demo.sh; alone: scripts/demo-jira.sh): jira-sim serves a Jira Cloud site,
# trackwatch watches it as a [[jira]] source, and colleagues act through Jira's own REST API: one assigns you an
# issue, one moves yours along, one comments; your own edit stays silent. Everything lives in a temporary
# directory, removed at the end.
#
#   BIN         directory with trackwatch and jira-sim (default: `swift build --show-bin-path`)
#   DEMO_PACE   seconds to pause between steps (default 1; 0 in tests)
#
# Exit status: 0 when each colleague's action was reported, once, and yours was not; 1 otherwise.
set -euo pipefail
bin=${BIN:-$(swift build --show-bin-path)}
pace=${DEMO_PACE:-1}
work=$(mktemp -d "${TMPDIR:-/tmp}/trackwatch-demo-jira.XXXXXX")
sim_pid=""
cleanup() {
    [ -z "$sim_pid" ] || kill "$sim_pid" 2> /dev/null || true
    wait 2> /dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

. "$(dirname "$0")/demo-common.sh"

start_server jira-sim

printf 'jira-sim-engineer-token\n' > "$work/jira-token"
chmod 600 "$work/jira-token"
cat > "$work/config.toml" << TOML
[[jira]]
url = "$url"
email = "engineer@example.com"
token_file = "$work/jira-token"
TOML
export XDG_STATE_HOME=$work/state
tw() { "$bin/trackwatch" "$@" --config "$work/config.toml"; }
jira_act() {   # jira_act HANDLE VERB ARGS…: a colleague (or you) in Jira, through its REST API
    "$bin/jira-sim" act --url "$url" --as "$@" > /dev/null
}

title "jira-sim: a Jira Cloud site on $url"
say "A [[jira]] table names the site, your Atlassian e-mail and an API token. trackwatch asks Jira whether it is \
Cloud or Data Center, then watches the issues assigned to you, reported by you or watched by you, and reads \
Jira's changelog for who changed what (docs/jira.md)."
sed 's/^/  /' "$work/config.toml"
sleep "$pace"

title "trackwatch check   # the baseline"
tw check
sleep "$pace"

title "Colleagues act in Jira; so do you"
echo "  Alice Example assigns WEB-2 to you"
jira_act alice assign WEB-2 engineer
echo "  Lena Lead moves your WEB-1 to In Progress"
jira_act lead transition WEB-1 "In Progress"
echo "  Alice Example comments on your WEB-5"
jira_act alice comment WEB-5 "The fix works for me: can we close it?"
echo "  you rename WEB-9 (your own edit: silent)"
jira_act engineer edit WEB-9 "summary=Checkout totals, rounded"
sleep "$pace"

title "trackwatch check   # who did what, old → new, each once; your own edit is not there"
tw check | tee "$work/changes"
title "trackwatch check --json   # again: nothing new"
tw check --json
echo "(no output)"
for expected in '^WEB-2 assigned to you by Alice Example' '^WEB-1 .*by Lena Lead' '^WEB-5 .*Alice Example'; do
    grep -q "$expected" "$work/changes" || { echo "demo: a Jira change was not reported ($expected)" >&2; exit 1; }
done
! grep -q '^WEB-9' "$work/changes" || { echo "demo: your own edit was reported" >&2; exit 1; }
