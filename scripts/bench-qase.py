#!/usr/bin/env python3
"""The Qase source's figures (issue 18): HTTP requests and CPU per steady poll at 2 projects x 1,000 items.
Run by scripts/bench.sh after a release build (`python3 scripts/bench-qase.py BIN`).

Against qase-sim on loopback with `--cases 1000 --defects 1000` (and `--plans`, `--reviews` as given), the daemon
`trackwatch run` with one [[qase]] table: its start-up and baseline poll, then BENCH_QASE_POLLS polls made by
SIGUSR1 0.3 s apart, each awaited through the daemon's own sd_notify STATUS= (NOTIFY_SOCKET), never by sleeping. Requests are
qase-sim's own count (`GET /sim/stats`, which counts no /sim/ route); CPU is the daemon's user + system time over
all those polls (/proc/PID/stat, which keeps the time of threads that ended; clock ticks, so averaged over many
polls), memory release after each poll included. So close together, the polls outrun the request pacer's burst (60,
then 2 a second): they take seconds of wall-clock time, not of CPU. Also one whole `trackwatch check` (a process
that looks up "me" again).
"""
import os, sys

from benchkit import Bench, cpu_seconds, mb, proc_status, stats, steady_polls

BIN = sys.argv[1]
ITEMS = int(os.environ.get("BENCH_QASE_ITEMS", "1000"))
POLLS = int(os.environ.get("BENCH_QASE_POLLS", "20"))
bench = Bench(BIN, "trackwatch-bench-qase-")


def measure(label, extra, name):
    sim, root = bench.start_sim("qase-sim", ["--cases", str(ITEMS), "--defects", str(ITEMS)] + extra)

    def requests():
        return stats(root + "/sim/stats")

    try:
        config, env = bench.workspace(name, f'[[qase]]\nurl = "{root}/v1"\nemail = "engineer@example.com"\n'
                                            f'token_file = "{{home}}/token"\n[poll]\ninterval = "1h"\n',
                                      secrets={"token": "qase-sim-engineer-token"})
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
        finally:
            daemon.terminate()
            daemon.wait()
        steady = (after["requests"] - before["requests"]) / POLLS
        routes = {route: (count - before["requestsByRoute"].get(route, 0)) / POLLS
                  for route, count in after["requestsByRoute"].items()
                  if count != before["requestsByRoute"].get(route, 0)}
        print(f"qase {label}: {steady:.1f} HTTP requests per steady poll "
              f"({', '.join(f'{r} {n:g}' for r, n in sorted(routes.items()))}), "
              f"{cpu * 1000:.1f} ms CPU (mean of {POLLS}, memory release included), "
              f"daemon peak RSS {peak:.1f} MB; start-up + baseline poll {baseline_requests} requests, "
              f"{baseline_cpu * 1000:.0f} ms CPU, peak {baseline_peak:.1f} MB", flush=True)
        before = requests()["requests"]
        check_cpu, check_rss = bench.check_once(config, env)
        print(f"qase {label}: a whole `trackwatch check` (finding \"me\" again): {requests()['requests'] - before} "
              f"requests, {check_cpu * 1000:.0f} ms CPU, peak RSS {check_rss:.1f} MB", flush=True)
    finally:
        sim.terminate()
        sim.wait()


try:
    measure(f"2 projects x {ITEMS:,} cases and {ITEMS:,} defects (3 plans, 6 reviews each)", [], "default")
    measure(f"2 projects x {ITEMS:,} cases and {ITEMS:,} defects, 30 plans and 100 reviews each",
            ["--plans", "30", "--reviews", "100"], "plans")
    measure(f"2 projects x {ITEMS:,} items without QQL (REST fallback)", ["--search-refusal", "402"], "no-qql")
finally:
    bench.close()
