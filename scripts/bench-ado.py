#!/usr/bin/env python3
"""The Azure DevOps source's figures (issue 34): HTTP requests, CPU and peak memory per steady poll at ~500 watched
work items and pull requests, and per poll with one change. Run by scripts/bench.sh after a release build
(`python3 scripts/bench-ado.py BIN`).

Against ado-sim on loopback, seeded so that engineer is assigned, the creator or a follower of BENCH_ADO_WATCHED
work items in the two projects it reads (7 in 12: docs/azure-devops-sim.md's seed rules) and has its default pull
requests (2 active of its own and 2 to review per project), the daemon `trackwatch run` with one [[azure_devops]]
table: its start-up and baseline poll (a full read), then BENCH_ADO_POLLS polls made by SIGUSR1, each awaited
through the daemon's own sd_notify STATUS= (NOTIFY_SOCKET), never by sleeping. Requests are ado-sim's own count
(`GET /sim/stats`); CPU is the daemon's user + system time (/proc/PID/stat), memory release included.
"""
import json, os, sys, urllib.request

from benchkit import Bench, cpu_seconds, mb, proc_status, stats, steady_polls

BIN = sys.argv[1]
WATCHED = int(os.environ.get("BENCH_ADO_WATCHED", "500"))
POLLS = int(os.environ.get("BENCH_ADO_POLLS", "20"))
bench = Bench(BIN, "trackwatch-bench-ado-")


def act(origin, body):
    request = urllib.request.Request(origin + "/sim/act", data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    urllib.request.urlopen(request).read()


per_project = -(-WATCHED * 12 // (2 * 7))  # 7 of every 12 work items are engineer's, in 2 readable projects
sim, origin = bench.start_sim("ado-sim", ["--work-items", str(per_project)])
try:
    config, env = bench.workspace("ado", f'[[azure_devops]]\nurl = "{origin}/acme"\ntoken_file = "{{home}}/token"\n'
                                         f'[poll]\ninterval = "1h"\n', secrets={"token": "adosim-pat-engineer"})
    daemon = bench.start_daemon(config, env)
    try:
        started = stats(origin + "/sim/stats")
        bench.wait_poll()
        after_baseline = stats(origin + "/sim/stats")
        baseline_cpu, baseline_peak = cpu_seconds(daemon.pid), mb(proc_status(daemon.pid), "VmHWM")
        before = stats(origin + "/sim/stats")
        cpu = steady_polls(bench, daemon, POLLS)
        after = stats(origin + "/sim/stats")
        peak = mb(proc_status(daemon.pid), "VmHWM")
        act(origin, {"as": "alice", "verb": "comment", "workItem": 1, "text": "A colleague's comment"})
        changed_before = stats(origin + "/sim/stats")
        steady_polls(bench, daemon, 1)
        changed_after = stats(origin + "/sim/stats")
    finally:
        daemon.terminate()
        daemon.wait()
    routes = {route: (count - before["requestsByRoute"].get(route, 0)) / POLLS
              for route, count in after["requestsByRoute"].items() if count != before["requestsByRoute"].get(route, 0)}
    print(f"azure_devops {WATCHED} watched work items (+8 pull requests): "
          f"{(after['requests'] - before['requests']) / POLLS:.1f} HTTP requests per steady poll "
          f"({', '.join(f'{r} {c:g}' for r, c in sorted(routes.items()))}), {cpu * 1000:.1f} ms CPU (mean of {POLLS}, "
          f"memory release included), daemon peak RSS {peak:.1f} MB; a poll with one colleague's comment "
          f"{changed_after['requests'] - changed_before['requests']} requests; start-up + baseline (a full read) "
          f"{after_baseline['requests'] - started['requests']} requests, {baseline_cpu * 1000:.0f} ms CPU, "
          f"peak {baseline_peak:.1f} MB", flush=True)
finally:
    sim.terminate()
    sim.wait()
    bench.close()
