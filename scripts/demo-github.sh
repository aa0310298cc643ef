#!/usr/bin/env bash
# The demo's GitHub (run by scripts/demo.sh; alone: scripts/demo-github.sh): github-sim serves github.com's REST
# API, trackwatch watches it as a [[github]] source, and colleagues act through GitHub's own API: one assigns you an
# issue, one withdraws a review asked of your team, one reviews your pull request; your own comment stays silent. Everything lives in
# a temporary directory, removed at the end.
#
#   BIN         directory with trackwatch and github-sim (default: `swift build --show-bin-path`)
#   DEMO_PACE   seconds to pause between steps (default 1; 0 in tests)
#
# Exit status: 0 when each colleague's action was reported, once, and yours was not; 1 otherwise.
set -euo pipefail
bin=${BIN:-$(swift build --show-bin-path)}
pace=${DEMO_PACE:-1}
work=$(mktemp -d "${TMPDIR:-/tmp}/trackwatch-demo-github.XXXXXX")
sim_pid=""
cleanup() {
    [ -z "$sim_pid" ] || kill "$sim_pid" 2> /dev/null || true
    wait 2> /dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

. "$(dirname "$0")/demo-common.sh"

start_server github-sim

printf 'ghp_sim_engineer\n' > "$work/github-token"
chmod 600 "$work/github-token"
cat > "$work/config.toml" << TOML
[[github]]
url = "$url"
token_file = "$work/github-token"
TOML
export XDG_STATE_HOME=$work/state
tw() { "$bin/trackwatch" "$@" --config "$work/config.toml"; }
gh_act() {   # gh_act LOGIN VERB ARGS…: a colleague (or you) on GitHub, through its REST API
    "$bin/github-sim" act --url "$url" --as "$@" > /dev/null
}

title "github-sim: github.com's REST API on $url"
say "A [[github]] table needs a token (here github.com's own URL is left out: the simulator's is given). trackwatch \
watches the issues and pull requests assigned to you or awaiting your review and those you opened, and reads their \
timelines for who did what. A quiet poll is two conditional requests answered 304, free of GitHub's hourly quota, \
and one search (docs/github.md)."
sed 's/^/  /' "$work/config.toml"
sleep "$pace"

title "trackwatch check   # the baseline"
tw check
sleep "$pace"

title "Colleagues act on GitHub; so do you"
echo "  alice assigns acme/web#2 to you"
gh_act alice assign acme/web#2 engineer
echo "  lead withdraws the review of acme/web#6 asked of your team, acme/reviewers"
gh_act lead remove-review-request acme/web#6 acme/reviewers
echo "  alice requests changes on your pull request acme/web#9, and pushes a commit to it"
gh_act alice review acme/web#9 request-changes "Please add a test for the rounding"
gh_act alice push acme/web#9 "Round totals half up"
echo "  you comment on acme/web#1 (your own action: silent)"
gh_act engineer comment acme/web#1 "Looking into it"
sleep "$pace"

title "trackwatch check   # who did what, each once; your own comment is not there"
tw check | tee "$work/changes"
title "trackwatch check --json   # again: nothing new"
tw check --json
echo "(no output)"
for expected in '^acme/web#2 assigned to you by alice' '^acme/web#6 .*by lead' '^acme/web#9 .*Please add a test'; do
    grep -q "$expected" "$work/changes" || { echo "demo: a GitHub change was not reported ($expected)" >&2; exit 1; }
done
! grep -q '^acme/web#1 ' "$work/changes" || { echo "demo: your own comment was reported" >&2; exit 1; }
