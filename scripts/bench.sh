#!/usr/bin/env bash
# trackwatch's performance figures (issue 5), one line each, from a release build against compass-sim on
# loopback. Takes a few minutes (1,000 polls, 60 s of idle, a 100,000-record server). Then the Qase source's
# against qase-sim (issue 18): requests and CPU per steady poll at 2 projects x 1,000 items (scripts/bench-qase.py).
#
#   scripts/bench.sh          (make bench)
#   BENCH_POLLS=100 BENCH_IDLE_SECONDS=10 BENCH_SIZES="100 1000" scripts/bench.sh   # quicker
#   BENCH_JSON_ONLY=1 scripts/bench.sh       # only the [[json]] figures (a 10,000-item list, a 304 poll)
#   BENCH_QASE_ONLY=1 scripts/bench.sh       # only the [[qase]] figures (2 projects x 1,000 items)
#   BENCH_JIRA_ONLY=1 scripts/bench.sh       # only the [[jira]] figures (1,000 watched issues, Cloud and Data Center)
#   BENCH_GITHUB_ONLY=1 scripts/bench.sh     # only the [[github]] figures (500 watched issues and pull requests)
#   BENCH_GITLAB_ONLY=1 scripts/bench.sh     # only the [[gitlab]] figures (500 watched issues and merge requests)
#   BENCH_FORGEJO_ONLY=1 scripts/bench.sh    # only the [[forgejo]] figures (500 watched issues and pull requests)
#   BENCH_ADO_ONLY=1 scripts/bench.sh        # only the [[azure_devops]] figures (~500 watched work items)
#   BENCH_URLWATCH_ONLY=1 scripts/bench.sh   # only trackwatch check side by side with urlwatch (from PyPI, a venv)
#   BENCH_ALL_ONLY=1 scripts/bench.sh        # only one daemon watching all eight kinds at once (idle and peak memory)
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --static-swift-stdlib --product trackwatch > /dev/null
swift build -c release --static-swift-stdlib --product compass-sim > /dev/null
swift build -c release --static-swift-stdlib --product qase-sim > /dev/null
swift build -c release --static-swift-stdlib --product trackwatch-bench > /dev/null
swift build -c release --static-swift-stdlib --product json-sim > /dev/null
swift build -c release --static-swift-stdlib --product jira-sim > /dev/null
swift build -c release --static-swift-stdlib --product github-sim > /dev/null
swift build -c release --static-swift-stdlib --product gitlab-sim > /dev/null
swift build -c release --static-swift-stdlib --product forgejo-sim > /dev/null
swift build -c release --static-swift-stdlib --product ado-sim > /dev/null
bin=$(swift build -c release --show-bin-path)
# A freshly linked binary's pages are dirty in the page cache for ~30 s: written back first, the binary behaves as
# an installed one does.
sync
echo "# trackwatch $(git describe --always --dirty 2> /dev/null || echo '?'), release, static Swift runtime, $(nproc) cores"
if [ -n "${BENCH_URLWATCH_ONLY:-}" ]; then
    python3 scripts/bench-urlwatch.py "$bin"
    exit 0
fi
if [ -n "${BENCH_ALL_ONLY:-}" ]; then
    python3 scripts/bench-all.py "$bin"
    exit 0
fi
if [ -n "${BENCH_FORGEJO_ONLY:-}" ]; then
    python3 scripts/bench-forgejo.py "$bin"
    exit 0
fi
if [ -n "${BENCH_ADO_ONLY:-}" ]; then
    python3 scripts/bench-ado.py "$bin"
    exit 0
fi
if [ -n "${BENCH_GITLAB_ONLY:-}" ]; then
    python3 scripts/bench-gitlab.py "$bin"
    exit 0
fi
if [ -n "${BENCH_GITHUB_ONLY:-}" ]; then
    python3 scripts/bench-github.py "$bin"
    exit 0
fi
if [ -n "${BENCH_JIRA_ONLY:-}" ]; then
    python3 scripts/bench-jira.py "$bin"
    exit 0
fi
if [ -z "${BENCH_QASE_ONLY:-}" ]; then
    # A [[json]] list of 10,000 items: a steady poll and a 304 poll (BENCH_JSON_ONLY=1: only these).
    python3 scripts/bench-json.py "$bin"
    [ -n "${BENCH_JSON_ONLY:-}" ] && exit 0
    "$bin/trackwatch-bench" 100000
    python3 scripts/bench.py "$bin"
fi
# A [[qase]] workspace of 2 projects x 1,000 items: requests and CPU per steady poll (BENCH_QASE_ONLY=1: only these).
python3 scripts/bench-qase.py "$bin"
[ -n "${BENCH_QASE_ONLY:-}" ] && exit 0
# [[jira]] at 1,000 watched issues, Cloud and Data Center: requests, CPU and peak memory per steady poll.
python3 scripts/bench-jira.py "$bin"
# [[github]] at 500 watched issues and pull requests: requests, quota, CPU and peak memory per steady poll.
python3 scripts/bench-github.py "$bin"
# [[gitlab]] at 500 watched issues and merge requests: requests, CPU and peak memory per steady poll.
python3 scripts/bench-gitlab.py "$bin"
# [[forgejo]] at 500 watched issues and pull requests: requests (bar: ceil(N/50) + 4), CPU and memory per steady poll.
python3 scripts/bench-forgejo.py "$bin"
# [[azure_devops]] at ~500 watched work items: requests, CPU and peak memory per steady poll.
python3 scripts/bench-ado.py "$bin"
# One daemon watching all eight kinds at once: a steady poll of all, its peak, and what it holds while idle.
python3 scripts/bench-all.py "$bin"
# Side by side with urlwatch: a whole `trackwatch check` against a whole urlwatch run over the same ~1,000 records.
python3 scripts/bench-urlwatch.py "$bin"
