#!/usr/bin/env python3
"""The GitLab source's figures (issue 26): HTTP requests, CPU and peak memory per steady poll at 500 watched issues
and merge requests, and per poll with one change. Run by scripts/bench.sh after a release build
(`python3 scripts/bench-gitlab.py BIN`).

Against gitlab-sim on loopback, seeded so that engineer is assigned, asked to review or the author of
BENCH_GITLAB_WATCHED open issues and merge requests in three projects, the daemon `trackwatch run` with one [[gitlab]]
table: its start-up and baseline poll (a full read), then BENCH_GITLAB_POLLS polls made by SIGUSR1 0.3 s apart, each
awaited through the daemon's own sd_notify STATUS= (NOTIFY_SOCKET), never by sleeping. Requests are gitlab-sim's own
count (`GET /sim/stats`); CPU is the daemon's user + system time (/proc/PID/stat), memory release included.
"""
import os, subprocess, sys

from benchkit import Bench, cpu_seconds, mb, proc_status, stats, steady_polls

BIN = sys.argv[1]
WATCHED = int(os.environ.get("BENCH_GITLAB_WATCHED", "500"))
POLLS = int(os.environ.get("BENCH_GITLAB_POLLS", "20"))
bench = Bench(BIN, "trackwatch-bench-gitlab-")


def watched(n):
    """Open issues and merge requests n of one project that engineer watches (docs/gitlab-sim.md's seed rules)."""
    assigned = (n - 1) % 4 in (0, 3)
    issue = (assigned or (n % 3 == 2 and n % 10 != 0)) and n % 7 != 0
    mr = (assigned or (n % 3 == 0 and n % 10 != 0) or n % 3 == 1) and n % 7 != 0 and n % 11 != 0
    return int(issue) + int(mr)


def items_for(count):
    n, seen = 0, 0
    while seen < count:
        n += 1
        seen += 3 * watched(n)
    return n


n = str(items_for(WATCHED))
sim, root = bench.start_sim("gitlab-sim", ["--issues", n, "--merge-requests", n])
try:
    config, env = bench.workspace("gitlab", f'[[gitlab]]\nurl = "{root}"\ntoken_file = "{{home}}/token"\n'
                                            f'[poll]\ninterval = "1h"\n', secrets={"token": "glpat-sim-engineer"})
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
        subprocess.run([os.path.join(BIN, "gitlab-sim"), "act", "--url", root, "--as", "alice", "comment",
                        "platform/web#1", "A colleague's comment"], check=True, capture_output=True)
        changed_before = stats(root + "/sim/stats")
        steady_polls(bench, daemon, 1)
        changed_after = stats(root + "/sim/stats")
    finally:
        daemon.terminate()
        daemon.wait()
    routes = {route: (count - before["requestsByRoute"].get(route, 0)) / POLLS
              for route, count in after["requestsByRoute"].items() if count != before["requestsByRoute"].get(route, 0)}
    print(f"gitlab {WATCHED} watched issues and merge requests: {(after['requests'] - before['requests']) / POLLS:.1f} "
          f"HTTP requests per steady poll ({', '.join(f'{r} {c:g}' for r, c in sorted(routes.items()))}), "
          f"{cpu * 1000:.1f} ms CPU (mean of {POLLS}, memory release included), daemon peak RSS {peak:.1f} MB; "
          f"a poll with one colleague's comment {changed_after['requests'] - changed_before['requests']} requests; "
          f"start-up + baseline (a full read) {after_baseline['requests'] - started['requests']} requests, "
          f"{baseline_cpu * 1000:.0f} ms CPU, peak {baseline_peak:.1f} MB", flush=True)
    before = stats(root + "/sim/stats")
    check_cpu, check_rss = bench.check_once(config, env)
    after = stats(root + "/sim/stats")
    print(f"gitlab {WATCHED} watched: a whole `trackwatch check`: {after['requests'] - before['requests']} requests, "
          f"{check_cpu * 1000:.0f} ms CPU, peak RSS {check_rss:.1f} MB", flush=True)
finally:
    sim.terminate()
    sim.wait()
    bench.close()
