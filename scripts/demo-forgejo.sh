#!/usr/bin/env bash
# The demo's Forgejo (run by scripts/demo.sh; alone: scripts/demo-forgejo.sh): forgejo-sim serves Forgejo's REST API
# under /api/v1, trackwatch watches it as a [[forgejo]] source, and colleagues act (forgejo-sim's /sim/act): one
# assigns you an issue, one approves your pull request, one merges another; your own comment stays silent.
# Everything lives in a temporary directory, removed at the end.
#
#   BIN         directory with trackwatch and forgejo-sim (default: `swift build --show-bin-path`)
#   DEMO_PACE   seconds to pause between steps (default 1; 0 in tests)
#
# Exit status: 0 when each colleague's action was reported, once, and yours was not; 1 otherwise.
set -euo pipefail
bin=${BIN:-$(swift build --show-bin-path)}
pace=${DEMO_PACE:-1}
work=$(mktemp -d "${TMPDIR:-/tmp}/trackwatch-demo-forgejo.XXXXXX")
sim_pid=""
cleanup() {
    [ -z "$sim_pid" ] || kill "$sim_pid" 2> /dev/null || true
    wait 2> /dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

. "$(dirname "$0")/demo-common.sh"

start_server forgejo-sim

printf 'fj_sim_engineer\n' > "$work/forgejo-token"
chmod 600 "$work/forgejo-token"
cat > "$work/config.toml" << TOML
[[forgejo]]
name = "codeberg"
url = "$url"
token_file = "$work/forgejo-token"
TOML
export XDG_STATE_HOME=$work/state
tw() { "$bin/trackwatch" "$@" --config "$work/config.toml"; }
fj_act() {   # fj_act LOGIN VERB ITEM [VALUE]: a colleague (or you) on Forgejo
    curl -fsS -X POST "$url/sim/act" -H 'Content-Type: application/json' \
        -d "{\"as\": \"$1\", \"verb\": \"$2\", \"item\": \"$3\", \"value\": \"${4:-}\"}" > /dev/null
}

title "forgejo-sim: a Forgejo (as Codeberg runs) on $url"
say "A [[forgejo]] table names the server's web root and an access token with read:user, read:issue and \
read:repository. trackwatch watches the issues and pull requests assigned to you or awaiting your review and \
those you opened, and reads their timelines and reviews for who did what (docs/forgejo.md)."
sed 's/^/  /' "$work/config.toml"
sleep "$pace"

title "trackwatch check   # the baseline"
tw check
sleep "$pace"

title "Colleagues act on Forgejo; so do you"
echo "  alice assigns acme/web#2 to you"
fj_act alice assign 'acme/web#2' engineer
echo "  alice approves your pull request acme/web#3"
fj_act alice review 'acme/web#3' 'APPROVED: Looks good'
echo "  lead merges acme/api#3"
fj_act lead merge 'acme/api#3'
echo "  you comment on acme/web#1 (your own action: silent)"
fj_act engineer comment 'acme/web#1' "Looking into it"
sleep "$pace"

title "trackwatch check   # who did what, each once; your own comment is not there"
tw check | tee "$work/changes"
title "trackwatch check --json   # again: nothing new"
tw check --json
echo "(no output)"
for expected in '^acme/web#2 assigned to you by Alice Example' '^acme/web#3 .*Review: approved' \
    '^acme/api#3 .*merged'; do
    grep -q "$expected" "$work/changes" || { echo "demo: a Forgejo change was not reported ($expected)" >&2; exit 1; }
done
! grep -q '^acme/web#1 ' "$work/changes" || { echo "demo: your own comment was reported" >&2; exit 1; }
