#!/usr/bin/env bash
# The demo's GitLab (run by scripts/demo.sh; alone: scripts/demo-gitlab.sh): gitlab-sim serves GitLab's REST API v4,
# trackwatch watches it as a [[gitlab]] source, and colleagues act through GitLab's own API: one assigns you an
# issue, one asks for your review, one approves your merge request and pushes to it; your own comment stays silent.
# Everything lives in a temporary directory, removed at the end.
#
#   BIN         directory with trackwatch and gitlab-sim (default: `swift build --show-bin-path`)
#   DEMO_PACE   seconds to pause between steps (default 1; 0 in tests)
#
# Exit status: 0 when each colleague's action was reported, once, and yours was not; 1 otherwise.
set -euo pipefail
bin=${BIN:-$(swift build --show-bin-path)}
pace=${DEMO_PACE:-1}
work=$(mktemp -d "${TMPDIR:-/tmp}/trackwatch-demo-gitlab.XXXXXX")
sim_pid=""
cleanup() {
    [ -z "$sim_pid" ] || kill "$sim_pid" 2> /dev/null || true
    wait 2> /dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

. "$(dirname "$0")/demo-common.sh"

start_server gitlab-sim

printf 'glpat-sim-engineer\n' > "$work/gitlab-token"
chmod 600 "$work/gitlab-token"
cat > "$work/config.toml" << TOML
[[gitlab]]
url = "$url"
token_file = "$work/gitlab-token"
TOML
export XDG_STATE_HOME=$work/state
tw() { "$bin/trackwatch" "$@" --config "$work/config.toml"; }
gl_act() {   # gl_act USERNAME VERB ARGS…: a colleague (or you) on GitLab, through its REST API
    "$bin/gitlab-sim" act --url "$url" --as "$@" > /dev/null
}

title "gitlab-sim: a GitLab on $url"
say "A [[gitlab]] table names your GitLab and a token with the read_api scope. trackwatch watches the issues and \
merge requests assigned to you or awaiting your review and those you authored, and reads their notes and resource \
events for who did what (docs/gitlab.md)."
sed 's/^/  /' "$work/config.toml"
sleep "$pace"

title "trackwatch check   # the baseline"
tw check
sleep "$pace"

title "Colleagues act on GitLab; so do you"
echo "  alice assigns platform/web#2 to you"
gl_act alice assign 'platform/web#2' engineer
echo "  lead asks for your review of platform/web!2"
gl_act lead request-review 'platform/web!2' engineer
echo "  alice approves your merge request platform/web!3 and pushes a commit to it"
gl_act alice approve 'platform/web!3'
gl_act alice push 'platform/web!3' "Round totals half up"
echo "  you comment on platform/web#1 (your own action: silent)"
gl_act engineer comment 'platform/web#1' "Looking into it"
sleep "$pace"

title "trackwatch check   # who did what, each once; your own comment is not there"
tw check | tee "$work/changes"
title "trackwatch check --json   # again: nothing new"
tw check --json
echo "(no output)"
for expected in '^platform/web#2 assigned to you by Alice Example' '^platform/web!2 review requested by Lena Lead' \
    '^platform/web!3 .*Approval: approved'; do
    grep -q "$expected" "$work/changes" || { echo "demo: a GitLab change was not reported ($expected)" >&2; exit 1; }
done
! grep -q '^platform/web#1 ' "$work/changes" || { echo "demo: your own comment was reported" >&2; exit 1; }
