#!/usr/bin/env python3
"""The Jira source's figures (issue 24): HTTP requests, CPU and peak memory per steady poll at 1,000 watched
issues, Jira Cloud and Data Center. Run by scripts/bench.sh after a release build (`python3 scripts/bench-jira.py BIN`).

Against jira-sim on loopback with one project seeded so that engineer watches (is assignee, reporter or watcher of)
BENCH_JIRA_WATCHED issues, the daemon `trackwatch run` with one [[jira]] table: its start-up and baseline poll (a
full read), then BENCH_JIRA_POLLS polls made by SIGUSR1 0.3 s apart, each awaited through the daemon's own sd_notify
STATUS= (NOTIFY_SOCKET), never by sleeping. Requests are jira-sim's own count (`GET /sim/stats`); CPU is the
daemon's user + system time over those polls (/proc/PID/stat), memory release after each poll included. Then one
poll with a colleague's change (one more request: its changelog), and one whole `trackwatch check`.
"""
import json, os, subprocess, sys, urllib.request

from benchkit import Bench, cpu_seconds, mb, proc_status, stats, steady_polls

BIN = sys.argv[1]
WATCHED = int(os.environ.get("BENCH_JIRA_WATCHED", "1000"))
POLLS = int(os.environ.get("BENCH_JIRA_POLLS", "20"))
bench = Bench(BIN, "trackwatch-bench-jira-")


def issues_for(watched):
    """Issues per project such that engineer watches `watched` of them (docs/jira-sim.md's seed rules)."""
    count, n = 0, 0
    while count < watched:
        n += 1
        if (n - 1) % 4 == 0 or (n - 1) % 3 == 1 or n % 5 == 0:
            count += 1
    return n


def measure(label, flavour):
    dc = flavour == "dc"
    extra = ["--flavor", "dc", "--context-path", "/jira"] if dc else []
    sim, root = bench.start_sim("jira-sim", ["--projects", "WEB", "--issues", str(issues_for(WATCHED))] + extra)
    url = root + ("/jira" if dc else "")

    def requests():
        return stats(root + "/sim/stats")

    try:
        sign_in = 'token_file = "{home}/token"\n' if dc else 'email = "engineer@example.com"\ntoken_file = "{home}/token"\n'
        config, env = bench.workspace(flavour, f'[[jira]]\nurl = "{url}"\n{sign_in}[poll]\ninterval = "1h"\n',
                                      secrets={"token": "jira-sim-engineer-pat" if dc else "jira-sim-engineer-token"})
        daemon = bench.start_daemon(config, env)
        try:
            started = requests()["requests"]
            bench.wait_poll()
            baseline_requests = requests()["requests"] - started
            baseline_cpu, baseline_peak = cpu_seconds(daemon.pid), mb(proc_status(daemon.pid), "VmHWM")
            before = requests()
            cpu = steady_polls(bench, daemon, POLLS)
            after = requests()
            peak = mb(proc_status(daemon.pid), "VmHWM")
            subprocess.run([os.path.join(BIN, "jira-sim"), "act", "--url", url, "--as", "alice", "comment", "WEB-1",
                            "A colleague's comment"], check=True, capture_output=True)
            changed_before = requests()["requests"]
            steady_polls(bench, daemon, 1)
            changed = requests()["requests"] - changed_before
        finally:
            daemon.terminate()
            daemon.wait()
        steady = (after["requests"] - before["requests"]) / POLLS
        routes = {route: (count - before["requestsByRoute"].get(route, 0)) / POLLS
                  for route, count in after["requestsByRoute"].items()
                  if count != before["requestsByRoute"].get(route, 0)}
        print(f"jira {label}: {steady:.1f} HTTP requests per steady poll "
              f"({', '.join(f'{r} {n:g}' for r, n in sorted(routes.items()))}), "
              f"{cpu * 1000:.1f} ms CPU (mean of {POLLS}, memory release included), daemon peak RSS {peak:.1f} MB; "
              f"a poll with one colleague's comment {changed} requests; start-up + baseline (a full read) "
              f"{baseline_requests} requests, {baseline_cpu * 1000:.0f} ms CPU, peak {baseline_peak:.1f} MB", flush=True)
        before = requests()["requests"]
        check_cpu, check_rss = bench.check_once(config, env)
        print(f"jira {label}: a whole `trackwatch check`: {requests()['requests'] - before} requests, "
              f"{check_cpu * 1000:.0f} ms CPU, peak RSS {check_rss:.1f} MB", flush=True)
    finally:
        sim.terminate()
        sim.wait()


try:
    measure(f"Cloud, {WATCHED:,} watched issues", "cloud")
    measure(f"Data Center, {WATCHED:,} watched issues", "dc")
finally:
    bench.close()
