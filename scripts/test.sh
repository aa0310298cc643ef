#!/usr/bin/env bash
# The whole test suite, what CI runs (`make test`, after scripts/install-deps.sh test):
#
#   1. the debug build with the tests; the man page documents every command
#   2. `make demo`, which must report every scripted colleague action
#   3. the fuzzers' corpora, replayed; jira-sim, github-sim and gitlab-sim checked with the trackers' own Python clients
#   4. XCTest: unit tests, the binaries against compass-sim over HTTP, notifications through a real
#      notification server, journal entries through libsystemd
#   5. as root: the release build (Swift runtime linked statically; built in the background during 2–4),
#      `make deb`'s package, lintian (no error, no warning), and the end-to-end test of that package: installed
#      with apt-get, the README's set-up under a real systemd --user manager, every journalctl example of the
#      docs, purge (scripts/e2e-user-unit.sh)
#   and throughout: no compiler warning from our own code (scripts/check-warnings.sh), and no test leaves
#   anything behind in its temporary directory.
#
# Prints "== step (elapsed)" headers; the last lines are XCTest's count and the total time.
set -euo pipefail
cd "$(dirname "$0")/.."
src=$PWD
started=$SECONDS
logs=$(mktemp -d /tmp/tw-test-logs.XXXXXX)
# The tests' and the demo's temporary files go here (Foundation and mktemp honour TMPDIR), so that what they
# leave behind is seen — and other checkouts' runs on the same machine are not. Not SwiftPM's: its lock files
# and scratch directories are its own business.
scratch=$(mktemp -d /tmp/tw-test.XXXXXX)
chmod 0755 "$scratch"  # CoreDumpTests runs a daemon as another user, which must reach its workspace
release_pid=""
trap '[ -z "$release_pid" ] || kill "$release_pid" 2> /dev/null; rm -rf "$logs" "$scratch"' EXIT
step() { printf '\n== %s (%d s)\n' "$*" $((SECONDS - started)); }
build() {   # build NAME swift build …: the output is kept for the warnings check
    local name=$1
    shift
    "$@" 2>&1 | tee "$logs/build-$name.log"
    scripts/check-warnings.sh "$logs/build-$name.log"
}

step "debug build with tests"
build debug swift build --build-tests
bin=$(swift build --show-bin-path)
# The man page, generated from the command definitions, documents every command.
build generate-manual swift build --product generate-manual
mkdir "$logs/man"
scripts/man.sh "$bin/generate-manual" "$bin/trackwatch" "$logs/man"
for command in check run status log mute unmute doctor probe notify-test; do
    grep -q "^\.It Em $command\$" "$logs/man/trackwatch.1" || { echo "man page lacks $command"; exit 1; }
done
# The help texts' em dashes (and every other character past ASCII) reach the page as roff escapes.
grep -qF '\[u2014]' "$logs/man/trackwatch.1" || { echo "man page lost its em dashes"; exit 1; }
echo "man page: every command documented, em dashes kept"

# The release build is the one extra cost of the package (~11 min of CPU). It runs in the background while the
# demo, the fuzz replay and XCTest run: those spend most of their time waiting for processes and sockets, and
# the test bundle is run directly (no SwiftPM lock on .build, which the release build holds).
if [ "$(id -u)" -eq 0 ]; then
    step "release build (static Swift runtime), in the background"
    release_started=$SECONDS
    swift build -c release --static-swift-stdlib --product trackwatch > "$logs/build-release.log" 2>&1 &   # what the package needs
    release_pid=$!
else
    echo "skipping the package and the systemd --user end-to-end test: they need root (apt-get, a private user manager)"
fi

step "make demo"
DEMO_PACE=0 BIN=$bin TMPDIR=$scratch scripts/demo.sh > "$logs/demo.out" 2>&1 || { cat "$logs/demo.out"; echo "make demo failed"; exit 1; }
grep -q '^== What next' "$logs/demo.out" || { cat "$logs/demo.out"; echo "make demo did not end with what to do next"; exit 1; }
grep -q '^Pixel 8 (Android 14) changed by Sam Carter in devices' "$logs/demo.out" ||
    { cat "$logs/demo.out"; echo "make demo did not show the device checked out by a colleague"; exit 1; }
grep -q '^WEB-2 assigned to you by Alice Example' "$logs/demo.out" ||
    { cat "$logs/demo.out"; echo "make demo did not show the Jira issue a colleague assigned"; exit 1; }
grep -q '^acme/web#2 assigned to you by alice' "$logs/demo.out" ||
    { cat "$logs/demo.out"; echo "make demo did not show the GitHub issue a colleague assigned"; exit 1; }
grep -q '^platform/web#2 assigned to you by Alice Example' "$logs/demo.out" ||
    { cat "$logs/demo.out"; echo "make demo did not show the GitLab issue a colleague assigned"; exit 1; }
grep -q '^acme/web#2 assigned to you by Alice Example' "$logs/demo.out" ||
    { cat "$logs/demo.out"; echo "make demo did not show the Forgejo issue a colleague assigned"; exit 1; }
grep -q '^Web#4 assigned to you by Alice Example' "$logs/demo.out" ||
    { cat "$logs/demo.out"; echo "make demo did not show the Azure DevOps work item a colleague assigned"; exit 1; }
echo "make demo: every scripted colleague action reported ($(grep -c '^  terminal  ' "$logs/demo.out") lines), then what next"

step "fuzz corpus replay"
# The fuzzers' corpora through the same code, unsanitised: every input that ever crashed stays fixed.
"$bin/trackwatch-fuzz" config fuzz/corpus/config
"$bin/trackwatch-fuzz" compass fuzz/corpus/compass
"$bin/trackwatch-fuzz" csv fuzz/corpus/csv
"$bin/trackwatch-fuzz" timestamp fuzz/corpus/timestamp
"$bin/trackwatch-fuzz" headers fuzz/corpus/headers
"$bin/trackwatch-fuzz" jwt fuzz/corpus/jwt
"$bin/trackwatch-fuzz" json fuzz/corpus/json

step "jira-sim, github-sim, gitlab-sim, forgejo-sim and ado-sim checked with the trackers' own Python clients (from PyPI)"
# A private virtual environment in the run's log folder: nothing installed for the user or the system.
python3 -m venv "$logs/clients-venv"
"$logs/clients-venv/bin/pip" install --quiet --disable-pip-version-check jira PyGithub python-gitlab forgejo-api azure-devops
"$logs/clients-venv/bin/python" scripts/check-jira-sim.py "$bin/jira-sim" | tail -n 1
"$logs/clients-venv/bin/python" scripts/check-github-sim.py "$bin/github-sim" | tail -n 1
"$logs/clients-venv/bin/python" scripts/check-gitlab-sim.py "$bin/gitlab-sim" | tail -n 1
"$logs/clients-venv/bin/python" scripts/check-forgejo-sim.py "$bin/forgejo-sim" | tail -n 1
"$logs/clients-venv/bin/python" scripts/check-ado-sim.py "$bin/ado-sim" | tail -n 1

step "XCTest"
status=0
# The test bundle itself (what `swift test --skip-build` runs), so that TMPDIR is the tests' alone.
TMPDIR=$scratch "$bin/trackwatchPackageTests.xctest" > "$logs/xctest.log" 2>&1 || status=$?
# Keep failures and summaries; drop the per-test chatter.
grep -vE "^Test Case '.*' (started|passed)" "$logs/xctest.log" || true
left=$(cd "$scratch" && find . -mindepth 1 -maxdepth 1 | sed 's|^\./||' | sort)
if [ -n "$left" ]; then
    echo "tests left these in their temporary directory (they must clean up after themselves):"
    printf '  %s\n' $left
    status=1
fi

if [ -n "$release_pid" ]; then
    step "the Debian package"
    wait "$release_pid" || { tail -40 "$logs/build-release.log"; echo "the release build failed"; exit 1; }
    release_pid=""
    echo "release build: $(tail -n 1 "$logs/build-release.log"), done $((SECONDS - release_started)) s after it started"
    scripts/check-warnings.sh "$logs/build-release.log"
    release=$(swift build -c release --show-bin-path)
    scripts/man.sh "$bin/generate-manual" "$release/trackwatch" "$logs/man"
    BIN=$release MAN=$logs/man/trackwatch.1 scripts/deb.sh | tee "$logs/deb.out"
    deb=$(grep '/dist/trackwatch_.*\.deb$' "$logs/deb.out")
    dbgsym=$(grep '/dist/trackwatch-dbgsym_.*\.deb$' "$logs/deb.out")
    step "lintian"
    # Errors and warnings are judged from the output: with --show-overrides (which prints the overridden tags
    # and their reasons), lintian 2.116 exits 2 for overridden tags too.
    lintian --display-info --show-overrides --fail-on none "$deb" "$dbgsym" 2>&1 | tee "$logs/lintian.out"
    ! grep -qE '^[EW]: ' "$logs/lintian.out" || { echo "lintian: errors or warnings (above)"; exit 1; }
    echo "lintian: no errors, no warnings"
    dpkg-deb -c "$deb"
    step "the package under a real systemd --user manager (scripts/e2e-user-unit.sh)"
    DEB=$deb BIN=$bin scripts/e2e-user-unit.sh
fi
step "done: exit $status"
exit "$status"
