#!/usr/bin/env bash
# The demo (`make demo`): compass-sim, the built-in Compass server, with its sample database, and qase-sim, the
# built-in Qase TestOps server; trackwatch as the engineer `engineer`, watching the two built-in queries, the saved
# query "Public Queries/Team P1s", and the Qase workspace's items assigned to engineer or engineer's own.
# Part 1 runs `trackwatch check` around three colleagues' actions; part 2 runs the daemon (`trackwatch run`)
# while five more actions happen, one at a time, each followed by a poll and what it produced: the terminal
# line, the bubble (or why there is none) and the journal entry (or why there is none); part 3 watches a JSON
# list, json-sim's device tracker, where a colleague checks out a device (scripts/demo-devices.sh); part 4 watches
# jira-sim, a Jira Cloud site, where colleagues assign, move and comment (scripts/demo-jira.sh); part 5 watches
# github-sim, where they assign, withdraw a review request and review (scripts/demo-github.sh); part 6 gitlab-sim,
# where they assign, ask for a review and approve (scripts/demo-gitlab.sh); part 7 forgejo-sim, where they assign,
# approve and merge (scripts/demo-forgejo.sh); part 8 ado-sim, an Azure DevOps, where they assign a work item,
# comment, ask for a review and vote (scripts/demo-ado.sh). It ends with what to do next.
# Everything lives in a temporary directory, removed at the end or on Ctrl-C.
#
#   BIN         directory with trackwatch, compass-sim and qase-sim (default: `swift build --show-bin-path`)
#   DEMO_PACE   seconds to pause between steps, for reading (default 1; 0 in tests)
#
# Exit status: 0 every scripted action was reported; 1 otherwise.
set -euo pipefail
bin=${BIN:-$(swift build --show-bin-path)}
pace=${DEMO_PACE:-1}
work=$(mktemp -d "${TMPDIR:-/tmp}/trackwatch-demo.XXXXXX")
sim_pid="" qase_pid="" daemon_pid=""
cleanup() {
    [ -z "$daemon_pid" ] || kill "$daemon_pid" 2> /dev/null || true
    [ -z "$sim_pid" ] || kill "$sim_pid" 2> /dev/null || true
    [ -z "$qase_pid" ] || kill "$qase_pid" 2> /dev/null || true
    wait 2> /dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

. "$(dirname "$0")/demo-common.sh"
pause() { sleep "$pace"; }

"$bin/compass-sim" --port 0 > "$work/sim.out" 2> "$work/sim.err" &
sim_pid=$!
for _ in $(seq 100); do grep -q '^listening on ' "$work/sim.out" 2> /dev/null && break; sleep 0.1; done
url=$(sed -n 's/^listening on //p' "$work/sim.out")
[ -n "$url" ] || { echo "compass-sim did not start:"; cat "$work/sim.err"; exit 1; }
"$bin/qase-sim" --port 0 > "$work/qase.out" 2> "$work/qase.err" &
qase_pid=$!
for _ in $(seq 100); do grep -q '^listening on ' "$work/qase.out" 2> /dev/null && break; sleep 0.1; done
qase_url=$(sed -n 's/^listening on //p' "$work/qase.out")
[ -n "$qase_url" ] || { echo "qase-sim did not start:"; cat "$work/qase.err"; exit 1; }

printf 'engineer\n' > "$work/password"
printf 'qase-sim-engineer-token\n' > "$work/qase-token"
chmod 600 "$work/password" "$work/qase-token"
cat > "$work/config.toml" << TOML
[server]
url = "$url"
repo = "2.0.0"
database = "SAMPL"
username = "engineer"
password_file = "$work/password"

[[watch]]
query = "Public Queries/Team P1s"
notify = "changes"

[[qase]]
url = "$qase_url/v1"
web_url = "https://app.qase.io"
email = "engineer@example.com"
token_file = "$work/qase-token"
TOML
export XDG_STATE_HOME=$work/state
tw() { "$bin/trackwatch" "$@" --config "$work/config.toml"; }
act() {   # act USER RECORD ACTION [FIELD=VALUE…]: a colleague, through Compass's REST API
    local user=$1 record=$2 action=$3 sets=()
    shift 3
    for field in "$@"; do sets+=(--set "$field"); done
    "$bin/compass-sim" act --url "$url" --user "$user" --record "$record" --action "$action" "${sets[@]}" > /dev/null
}
qase_act() {   # qase_act HANDLE VERB ARGS…: a colleague in Qase, through its API (or the web UI's control routes)
    "$bin/qase-sim" act --url "$qase_url" --as "$@" > /dev/null
}

title "compass-sim: a Compass server on $url; qase-sim: a Qase TestOps server on $qase_url"
say "They are $bin/compass-sim and $bin/qase-sim, built by make (docs/compass-sim.md, docs/qase-sim.md), serving \
the sample database SAMPL and the Qase projects DEMO and WEB. You are 'engineer'; your colleagues 'lead' and \
'alice' act through the same REST APIs. trackwatch watches your Compass records (assigned to you, and yours that \
others change), the saved query Public Queries/Team P1s (every priority-1 defect), and in Qase the defects, plan \
cases and reviews assigned to you and your own test cases, defects and reviews; the configuration is \
$work/config.toml."
pause

title "trackwatch check   # the first poll: a silent baseline"
tw check
say "Nothing is reported the first time: trackwatch only remembers what is there."
pause

title "Three colleagues act"
echo "  lead resolves SAMPL00000001, which you own"
act lead SAMPL00000001 Resolve
echo "  lead gives SAMPL00000002 to you, at priority 1-Resolve Immediately"
act lead SAMPL00000002 Modify Owner=engineer "Priority=1-Resolve Immediately"
echo "  lead gives SAMPL00000005, yours, to alice"
act lead SAMPL00000005 Modify Owner=alice
echo "  in Qase, alice retitles your test case DEMO-4"
qase_act alice edit-case DEMO 4 "title=Checkout totals include tax and shipping"
pause

title "trackwatch check   # one line per change, each reported once"
tw check
say "SAMPL00000002 gives two lines, and that is not a duplicate: it was assigned to you (your built-in query) and, \
at priority 1, it entered Team P1s (a watched query). Each query you watch reports its own view of a record. \
DEMO-4 comes from Qase: your test case, edited by Alice Example (Qase names a test case's last editor)."
pause
title "trackwatch check --json   # again: nothing new, every change was reported once"
tw check --json
echo "(no output)"
pause

title "The daemon, trackwatch run, as the systemd user unit runs it"
say "It polls every 5 minutes; here each colleague's action is followed by 'poll now' (SIGUSR1, what \
'systemctl --user kill -s USR1 trackwatch' sends). Each change goes to three places:"
journal=no
[ -S /run/systemd/journal/socket ] && [ -w /run/systemd/journal/socket ] && journal=yes
echo "  terminal  one line per change on stderr (under systemd that stream is the journal instead)"
if "$bin/trackwatch" notify-test > "$work/notify-test.out" 2>&1 || grep -q '✔ bubble' "$work/notify-test.out"; then
    echo "  bubble    a desktop notification: $(sed -n 's/^✔ bubble shown by //p' "$work/notify-test.out" | cut -d'(' -f1)shows them (notify-test just sent a sample)"
    bubbles=yes
else
    echo "  bubble    none here: no notification server answers on this session's D-Bus (${DBUS_SESSION_BUS_ADDRESS:-no session bus})."
    echo "            In a desktop session each change is a bubble; run make demo in a terminal there to see them."
    bubbles=no
fi
if [ $journal = yes ]; then
    echo "  journal   one structured entry per change (TRACKWATCH_RECORD=, TRACKWATCH_CHANGE=, …), shown below"
else
    echo "  journal   none here: no journald runs (no /run/systemd/journal/socket). Under systemd each change is"
    echo "            also a journal entry: journalctl --user -u trackwatch"
fi
pause

journal() { journalctl $([ "$(id -u)" -eq 0 ] || echo --user) --no-pager "$@" 2> /dev/null || true; }
# Each source's last poll, one line each; waits out a status that fails (it should not: it only reads), since an
# empty answer here would make the next poll look over before it began.
last_poll() {
    local status
    for _ in $(seq 50); do
        status=$(tw status --json 2> /dev/null) && break
        sleep 0.2
    done
    sed -n 's/.*"lastPoll":"\([^"]*\)".*/\1/p' <<< "$status"
}
# A poll is over when every source's time in the state moved on (one line per source: Compass, then Qase) and
# everything it found was delivered (terminal, bubble, journal).
poll_over() {
    local status polls
    status=$(tw status --json 2> /dev/null)
    [[ $status == *'"undelivered":'* && $status != *'"undelivered":'[1-9]* ]] || return 1
    polls=$(sed -n 's/.*"lastPoll":"\([^"]*\)".*/\1/p' <<< "$status")
    [ -n "$polls" ] && ! grep -qxF -f <(printf '%s\n' "$1") <<< "$polls"
}
# status has whole seconds: a second apart, the daemon's first poll cannot have the time of the last check.
checked=$(last_poll)
sleep 1.1
"$bin/trackwatch" run --config "$work/config.toml" 2> "$work/daemon.log" &   # not through tw(): $! must be its pid
daemon_pid=$!
ran_as=$daemon_pid
# Its signal handlers are in place once it says "started"; its first poll is over when the time moves on.
deadline=$((SECONDS + 120))
until grep -q '\] started' "$work/daemon.log" && poll_over "$checked"; do
    kill -0 "$daemon_pid" 2> /dev/null || { cat "$work/daemon.log"; echo "demo: the daemon ended before its first poll" >&2; exit 1; }
    [ $SECONDS -lt $deadline ] || { cat "$work/daemon.log"; echo "demo: the daemon's first poll did not end in 120 s" >&2; exit 1; }
    sleep 0.1
done
shown=0
expected=0
missed=()
steps=(
    "lead|SAMPL00000021|Resolve||lead resolves SAMPL00000021, yours and at priority 1: two lines, one per query that shows it (yours, and Team P1s)"
    "alice|SAMPL00000026|Modify|Owner=engineer|alice hands SAMPL00000026 to you"
    "lead|SAMPL00000013|Re_open||lead reopens SAMPL00000013, which you had resolved: at priority 1, Team P1s shows it too"
    "lead|SAMPL00000025|Modify|Priority=1-Resolve Immediately|lead raises SAMPL00000025, yours, to priority 1: a field change, and it enters Team P1s"
    "lead|SAMPL00000002|Modify|Owner=alice|lead gives SAMPL00000002 to alice: it leaves your records; in Team P1s its Owner changed"
    "qase:lead|DEMO/defect/3|assign-defect|DEMO 3 engineer|in Qase, lead gives you the defect DEMO/defect/3, of severity critical: a critical bubble, and Open goes to Qase's web app"
)
for step in "${steps[@]}"; do
    IFS='|' read -r user record action set explanation <<< "$step"
    title "$explanation"
    before=$(last_poll)
    sleep 1.1   # whole seconds, as above: the next poll's time must differ from this one
    if [[ $user == qase:* ]]; then
        read -r -a arguments <<< "$set"   # a Qase step: VERB ARGS… of qase-sim act
        qase_act "${user#qase:}" "$action" "${arguments[@]}"
    elif [ -n "$set" ]; then act "$user" "$record" "$action" "$set"; else act "$user" "$record" "$action"; fi
    kill -USR1 "$daemon_pid"
    # A poll takes a second or two (Qase's requests are paced); a loaded machine (CI builds beside it) may take
    # much longer: wait for the poll itself, not for a number of tries.
    waited="its poll ended" deadline=$((SECONDS + 120))
    until poll_over "$before"; do
        kill -0 "$daemon_pid" 2> /dev/null || { waited="the daemon ended"; break; }
        [ $SECONDS -lt $deadline ] || { waited="its poll did not end in 120 s"; break; }
        sleep 0.1
    done
    expected=$((expected + 1))
    lines=$(sed -n 's/.* notice trackwatch: change=[^[]*\[trackwatch\] //p' "$work/daemon.log" | tail -n +$((shown + 1)))
    if [ -n "$lines" ]; then
        shown=$((shown + $(printf '%s\n' "$lines" | wc -l)))
        printf '%s\n' "$lines" | sed 's/^/  terminal  /'
    fi
    if ! grep -q "$record" <<< "$lines"; then
        # Said again at the very end, with the daemon's last words: CI shows only the end of the output.
        missed+=("$record ($user $action): no line named it; $waited")
        echo "  (no change reported for $record: $waited)"
        tail -n 5 "$work/daemon.log" | sed 's/^/  daemon    /'
        continue
    fi
    [ $bubbles = yes ] && echo "  bubble    $(printf '%s\n' "$lines" | wc -l) on your desktop"
    if [ $journal = yes ]; then
        entries=$(journal -o cat _PID="$daemon_pid" TRACKWATCH_RECORD="$record" | tail -n 2)
        if [ -n "$entries" ]; then
            printf '%s\n' "$entries" | sed 's/^/  journal   /'
        else
            echo "  journal   written, but not readable by you here (a volatile journal: only members of systemd-journal read it)"
        fi
    fi
    pause
done
kill -0 "$daemon_pid" 2> /dev/null || missed+=("the daemon: it ended by itself during the demo")
kill "$daemon_pid" 2> /dev/null || true
wait "$daemon_pid" 2> /dev/null || true
daemon_pid=""
grep -q 'desktop notifications unavailable' "$work/daemon.log" &&
    echo && sed -n 's/.*\[DesktopNotifier\] //p' "$work/daemon.log" | head -n 1 | sed 's/^/The daemon said: /'
if [ $journal = yes ]; then
    title "One journal entry in full: the structured fields (journalctl -o verbose)"
    journal -o verbose _PID="$ran_as" TRACKWATCH_RECORD=SAMPL00000013 TRACKWATCH_CHANGE=modified |
        grep -E '^ *(MESSAGE|MESSAGE_ID|PRIORITY|TRACKWATCH_[A-Z_]+)='
    echo "  (journalctl --user -t trackwatch TRACKWATCH_RECORD=SAMPL00000013 -o verbose; under systemd: -u trackwatch)"
fi

# Part 3: a JSON list, the team's device tracker, where a colleague checks out a device (scripts/demo-devices.sh).
# Part 4: Jira, where colleagues assign, move and comment through Jira's API (scripts/demo-jira.sh); part 5:
# GitHub, where they assign, withdraw a review request and review (scripts/demo-github.sh); part 6: GitLab, where
# they assign, ask for a review and approve (scripts/demo-gitlab.sh); part 7: Forgejo, where they assign, approve
# and merge (scripts/demo-forgejo.sh); part 8: Azure DevOps, where they assign a work item, comment, ask for a
# review and vote (scripts/demo-ado.sh). Each says on stderr what it missed.
for part in devices jira github gitlab forgejo ado; do
    expected=$((expected + 1))
    reported=yes
    BIN=$bin DEMO_PACE=$pace "$(dirname "$0")/demo-$part.sh" 2> "$work/$part.err" || reported=no
    cat "$work/$part.err" >&2
    [ $reported = yes ] || missed+=("demo-$part.sh: $(grep '^demo:' "$work/$part.err" | tail -n 1 || true)")
done
title "What next"
echo "  make test                 everything trackwatch promises, tested (docs/testing.md)"
echo "  make deb                  the Debian package, for machines without Swift; or: make install (docs/install.md)"
echo "  ~/.config/trackwatch/config.toml   your server: docs/configuration.md; then"
echo "                            systemctl --user enable --now trackwatch"
echo "  $bin/compass-sim --port 0 a server of your own to try things against (docs/compass-sim.md)"
echo "  $bin/qase-sim --port 0    a Qase TestOps server of your own (docs/qase-sim.md); [[qase]] in docs/configuration.md"
echo "  $bin/jira-sim --port 0    a Jira server of your own, Cloud or Data Center (docs/jira-sim.md); [[jira]] in docs/jira.md"
echo "  $bin/github-sim --port 0  a GitHub of your own (docs/github-sim.md); [[github]] in docs/github.md"
echo "  $bin/gitlab-sim --port 0  a GitLab of your own (docs/gitlab-sim.md); [[gitlab]] in docs/gitlab.md"
echo "  $bin/forgejo-sim --port 0 a Forgejo or Gitea of your own (docs/forgejo-sim.md); [[forgejo]] in docs/forgejo.md"
echo "  $bin/ado-sim --port 0     an Azure DevOps of your own (docs/azure-devops-sim.md); [[azure_devops]] in docs/azure-devops.md"
echo "  docs/recipes.md           watch any JSON list: GitHub, GitLab and Jira issues assigned to you, and more"
if [ ${#missed[@]} -ne 0 ]; then
    echo "demo: ${#missed[@]} of $expected scripted actions were not reported:" >&2
    printf '  %s\n' "${missed[@]}" >&2
    echo "the daemon's last words:" >&2
    tail -n 8 "$work/daemon.log" | cut -c 1-300 | sed 's/^/  /' >&2
    exit 1
fi
