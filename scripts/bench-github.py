#!/usr/bin/env python3
"""The GitHub source's figures (issue 25): HTTP requests, hourly quota used, CPU and peak memory per steady poll at
500 watched issues and pull requests, and per poll with one change. Run by scripts/bench.sh after a release build
(`python3 scripts/bench-github.py BIN`).

Against github-sim on loopback, seeded so that engineer watches (is assigned, asked to review, or the author of)
BENCH_GITHUB_WATCHED items, the daemon `trackwatch run` with one [[github]] table: its start-up and baseline poll (a
full read), then BENCH_GITHUB_POLLS polls made by SIGUSR1 0.3 s apart, each awaited through the daemon's own
sd_notify STATUS= (NOTIFY_SOCKET), never by sleeping. Requests, 304s and the core quota are github-sim's own count
(`GET /sim/stats`); CPU is the daemon's user + system time (/proc/PID/stat), memory release after each poll
included.
"""
import os, subprocess, sys

from benchkit import Bench, cpu_seconds, mb, proc_status, stats, steady_polls

BIN = sys.argv[1]
WATCHED = int(os.environ.get("BENCH_GITHUB_WATCHED", "500"))
# Back to back, polls outrun GitHub's search limit of 30 a minute (the seed's review requests take 2 pages a poll).
POLLS = int(os.environ.get("BENCH_GITHUB_POLLS", "10"))
bench = Bench(BIN, "trackwatch-bench-github-")


def watched(n):
    """Whether engineer watches item n of a repository (docs/github-sim.md's seed rules), open or not."""
    k = n // 3
    pull = n % 3 == 0
    author = "dependabot" if n % 10 == 0 else (["engineer", "alice", "lead"][k % 3] if pull else
                                                ("alice" if n % 3 == 1 else "engineer"))
    assigned = (n - 1) % 4 in (0, 3)
    review = pull and k % 3 in (1, 2)
    return (assigned or review or author == "engineer") and n % 7 != 0


def issues_for(count):
    """Items per repository such that engineer watches `count` open ones across the two repositories."""
    n, seen = 0, 0
    while seen < count:
        n += 1
        seen += 2 if watched(n) else 0
    return n


def quota(snapshot):
    return snapshot.get("coreQuotaUsed", {}).get("ghp_sim_engineer", 0)


sim, root = bench.start_sim("github-sim", ["--issues", str(issues_for(WATCHED))])
try:
    config, env = bench.workspace("github", f'[[github]]\nurl = "{root}"\ntoken_file = "{{home}}/token"\n'
                                            f'[poll]\ninterval = "1h"\n', secrets={"token": "ghp_sim_engineer"})
    daemon = bench.start_daemon(config, env)
    try:
        started = stats(root + "/sim/stats")
        bench.wait_poll()
        after_baseline = stats(root + "/sim/stats")
        baseline_cpu, baseline_peak = cpu_seconds(daemon.pid), mb(proc_status(daemon.pid), "VmHWM")
        steady_polls(bench, daemon, 1)  # the first delta poll learns the lists' ETags
        before = stats(root + "/sim/stats")
        cpu = steady_polls(bench, daemon, POLLS)
        after = stats(root + "/sim/stats")
        peak = mb(proc_status(daemon.pid), "VmHWM")
        subprocess.run([os.path.join(BIN, "github-sim"), "act", "--url", root, "--as", "alice", "comment",
                        "acme/web#1", "A colleague's comment"], check=True, capture_output=True)
        changed_before = stats(root + "/sim/stats")
        steady_polls(bench, daemon, 1)
        changed_after = stats(root + "/sim/stats")
    finally:
        daemon.terminate()
        daemon.wait()
    per = lambda key: (after[key] - before[key]) / POLLS
    print(f"github {WATCHED} watched issues and pull requests: {per('requests'):.1f} HTTP requests per steady poll "
          f"({per('notModified'):.1f} answered 304), {(quota(after) - quota(before)) / POLLS:.1f} of the hourly core "
          f"quota, {cpu * 1000:.1f} ms CPU (mean of {POLLS}, memory release included), daemon peak RSS {peak:.1f} MB; "
          f"a poll with one colleague's comment {changed_after['requests'] - changed_before['requests']} requests, "
          f"{quota(changed_after) - quota(changed_before)} of the quota; start-up + baseline (a full read) "
          f"{after_baseline['requests'] - started['requests']} requests, {baseline_cpu * 1000:.0f} ms CPU, "
          f"peak {baseline_peak:.1f} MB", flush=True)
    before = stats(root + "/sim/stats")
    check_cpu, check_rss = bench.check_once(config, env)
    after = stats(root + "/sim/stats")
    print(f"github {WATCHED} watched: a whole `trackwatch check`: {after['requests'] - before['requests']} requests, "
          f"{quota(after) - quota(before)} of the quota, {check_cpu * 1000:.0f} ms CPU, peak RSS {check_rss:.1f} MB",
          flush=True)
finally:
    sim.terminate()
    sim.wait()
    bench.close()
