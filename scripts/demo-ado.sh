#!/usr/bin/env bash
# The demo's Azure DevOps (run by scripts/demo.sh; alone: scripts/demo-ado.sh): ado-sim serves Azure DevOps's REST
# API, trackwatch watches it as an [[azure_devops]] source, and colleagues act as its web UI would record it: one
# assigns you a work item and comments on another, one asks for your review and votes on your pull request; your own
# comment stays silent. Everything lives in a temporary directory, removed at the end.
#
#   BIN         directory with trackwatch and ado-sim (default: `swift build --show-bin-path`)
#   DEMO_PACE   seconds to pause between steps (default 1; 0 in tests)
#
# Exit status: 0 when each colleague's action was reported, once, and yours was not; 1 otherwise.
set -euo pipefail
bin=${BIN:-$(swift build --show-bin-path)}
pace=${DEMO_PACE:-1}
work=$(mktemp -d "${TMPDIR:-/tmp}/trackwatch-demo-ado.XXXXXX")
sim_pid=""
cleanup() {
    [ -z "$sim_pid" ] || kill "$sim_pid" 2> /dev/null || true
    wait 2> /dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

. "$(dirname "$0")/demo-common.sh"

start_server ado-sim
origin=$url
url=$origin/acme

printf 'adosim-pat-engineer\n' > "$work/ado-pat"
chmod 600 "$work/ado-pat"
cat > "$work/config.toml" << TOML
[[azure_devops]]
url = "$url"
token_file = "$work/ado-pat"
TOML
export XDG_STATE_HOME=$work/state
tw() { "$bin/trackwatch" "$@" --config "$work/config.toml"; }
ado_act() {   # ado_act USERNAME VERB ARGS…: a colleague (or you) on Azure DevOps
    "$bin/ado-sim" act --url "$origin" --as "$@" > /dev/null
}

title "ado-sim: an Azure DevOps organization on $url"
say "An [[azure_devops]] table names your organization (or a Server's collection) and a personal access token with \
Work Items (Read) and Code (Read). trackwatch watches the work items assigned to you, created by you or followed, \
and the pull requests you review or opened, and reads their updates and threads for who did what \
(docs/azure-devops.md)."
sed 's/^/  /' "$work/config.toml"
sleep "$pace"

title "trackwatch check   # the baseline"
tw check
sleep "$pace"

title "Colleagues act on Azure DevOps; so do you"
echo "  alice assigns work item 4 to you"
ado_act alice assign 4 engineer
echo "  lead comments on work item 1"
ado_act lead comment 1 "Can you look at this before the release?"
echo "  lead asks for your review of pull request !3"
ado_act lead request-review '!3' engineer
echo "  alice votes 'waiting for author' on your pull request !1"
ado_act alice vote '!1' -- -5
echo "  you comment on work item 9 (your own action: silent)"
ado_act engineer comment 9 "Looking into it"
sleep "$pace"

title "trackwatch check   # who did what, each once; your own comment is not there"
tw check | tee "$work/changes"
title "trackwatch check --json   # again: nothing new"
tw check --json
echo "(no output)"
for expected in '^Web#4 assigned to you by Alice Example' '^Web#1 .*Lena Lead' '^Web/Web!3 review requested by Lena Lead' \
    '^Web/Web!1 .*waiting for author'; do
    grep -q "$expected" "$work/changes" || { echo "demo: an Azure DevOps change was not reported ($expected)" >&2; exit 1; }
done
! grep -q '^Web#9 ' "$work/changes" || { echo "demo: your own comment was reported" >&2; exit 1; }
