#!/usr/bin/env python3
"""The Forgejo source's figures (issue 35): HTTP requests, CPU and peak memory per steady poll at ~500 watched issues
and pull requests, per poll with one change, and per full read. Run by scripts/bench.sh after a release build
(`python3 scripts/bench-forgejo.py BIN`).

Against forgejo-sim on loopback with BENCH_FORGEJO_ISSUES items in each of its two repositories (300: 500 that
engineer watches, docs/forgejo-sim.md's seed rules), the daemon `trackwatch run` with one [[forgejo]] table: its
start-up and baseline poll (a full read), then BENCH_FORGEJO_POLLS polls made by SIGUSR1, each awaited through the
daemon's own sd_notify STATUS= (NOTIFY_SOCKET), never by sleeping. Requests are forgejo-sim's own count
(`GET /sim/stats`). The bar: a steady poll at most ceil(N/50) + 4 requests, and no per-item request.
"""
import json, os, sys, urllib.request

from benchkit import Bench, cpu_seconds, mb, proc_status, stats, steady_polls

BIN = sys.argv[1]
ISSUES = int(os.environ.get("BENCH_FORGEJO_ISSUES", "300"))
POLLS = int(os.environ.get("BENCH_FORGEJO_POLLS", "20"))
bench = Bench(BIN, "trackwatch-bench-forgejo-")


def watched(n):
    """Items n of one repository that engineer watches: assigned (odd), opened (an issue, n % 4 == 2), or awaiting
    a review (an even pull request)."""
    return sum(1 for i in range(1, n + 1) if i % 2 == 1 or (i % 4 == 2 and i % 3 != 0) or (i % 3 == 0 and i % 2 == 0))


def act(root, body):
    request = urllib.request.Request(root + "/sim/act", data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    urllib.request.urlopen(request).read()


WATCHED = 2 * watched(ISSUES)
sim, root = bench.start_sim("forgejo-sim", ["--issues", str(ISSUES)])
try:
    config, env = bench.workspace("forgejo", f'[[forgejo]]\nurl = "{root}"\ntoken_file = "{{home}}/token"\n'
                                             f'[poll]\ninterval = "1h"\n', secrets={"token": "fj_sim_engineer"})
    daemon = bench.start_daemon(config, env)
    try:
        started = stats(root + "/sim/stats")
        bench.wait_poll()
        after_baseline = stats(root + "/sim/stats")
        baseline_cpu, baseline_peak = cpu_seconds(daemon.pid), mb(proc_status(daemon.pid), "VmHWM")
        before = stats(root + "/sim/stats")
        cpu = steady_polls(bench, daemon, POLLS)
        after = stats(root + "/sim/stats")
        peak = mb(proc_status(daemon.pid), "VmHWM")
        act(root, {"as": "alice", "verb": "comment", "item": "acme/web#1", "value": "A colleague's comment"})
        changed_before = stats(root + "/sim/stats")
        steady_polls(bench, daemon, 1)
        changed_after = stats(root + "/sim/stats")
    finally:
        daemon.terminate()
        daemon.wait()
    per_poll = (after["requests"] - before["requests"]) / POLLS
    bar = -(-WATCHED // 50) + 4
    routes = {route: (count - before["requestsByRoute"].get(route, 0)) / POLLS
              for route, count in after["requestsByRoute"].items() if count != before["requestsByRoute"].get(route, 0)}
    print(f"forgejo {WATCHED} watched issues and pull requests: {per_poll:.1f} HTTP requests per steady poll "
          f"({', '.join(f'{r} {c:g}' for r, c in sorted(routes.items()))}; bar ceil(N/50) + 4 = {bar}), "
          f"{cpu * 1000:.1f} ms CPU (mean of {POLLS}, memory release included), daemon peak RSS {peak:.1f} MB; "
          f"a poll with one colleague's comment {changed_after['requests'] - changed_before['requests']} requests; "
          f"start-up + baseline (a full read) {after_baseline['requests'] - started['requests']} requests, "
          f"{baseline_cpu * 1000:.0f} ms CPU, peak {baseline_peak:.1f} MB", flush=True)
    if per_poll > bar or after_baseline["requests"] - started["requests"] > bar:
        sys.exit(f"forgejo: above the bar of {bar} requests a poll")
    before = stats(root + "/sim/stats")
    check_cpu, check_rss = bench.check_once(config, env)
    after = stats(root + "/sim/stats")
    print(f"forgejo {WATCHED} watched: a whole `trackwatch check`: {after['requests'] - before['requests']} requests, "
          f"{check_cpu * 1000:.0f} ms CPU, peak RSS {check_rss:.1f} MB", flush=True)
finally:
    sim.terminate()
    sim.wait()
    bench.close()
