#!/usr/bin/env python3
"""The [[json]] source's figures (issue 19), one line each: CPU and peak memory of a steady poll of a 10,000-item
list, and of a poll answered 304 Not Modified, in the daemon and as one `trackwatch check` process. Run by
scripts/bench.sh after a release build (BENCH_JSON_ONLY=1 runs only these), or alone:

    python3 scripts/bench-json.py .build/release [ITEMS]

Against json-sim on loopback: the list at /list/bare (answered whole every poll) and at /conditional/etag (an
ETag, so that an unchanged list is a 304). Polls are awaited through the daemon's sd_notify STATUS= messages,
never by sleeping; CPU is the mean of POLLS polls, the peak of one poll the process's VmHWM after resetting it
(clear_refs 5) before the poll.
"""
import os, sys

from benchkit import Bench, cpu_seconds, mb, proc_status, reset_peak, stats, steady_polls

BIN = sys.argv[1]
ITEMS = int(sys.argv[2]) if len(sys.argv) > 2 else int(os.environ.get("BENCH_JSON_ITEMS", "10000"))
POLLS = 10
bench = Bench(BIN, "trackwatch-bench-json-")


def workspace(url, name):
    return bench.workspace(name, f'[[json]]\nname = "list"\nurl = "{url}"\ntitle = "{{title}}"\nby = "updated_by"\n'
                                 f'ignore = ["meta"]\n[poll]\ninterval = "1h"\n')


def daemon_polls(config, env):
    """Mean CPU seconds and the highest per-poll peak RSS (MB) of POLLS steady polls, the idle RSS after them,
    and the baseline's CPU and peak."""
    daemon = bench.start_daemon(config, env)
    try:
        bench.wait_poll()
        baseline = (cpu_seconds(daemon.pid), mb(proc_status(daemon.pid), "VmHWM"))
        peaks = []

        def next_peak():
            peaks.append(mb(proc_status(daemon.pid), "VmHWM"))
            reset_peak(daemon.pid)

        reset_peak(daemon.pid)
        cpu = steady_polls(bench, daemon, POLLS, per_poll=next_peak)
        idle = mb(proc_status(daemon.pid), "VmRSS")
    finally:
        daemon.terminate()
        daemon.wait()
    return cpu, max(peaks), idle, baseline


sim, url = bench.start_sim("json-sim", ["--items", str(ITEMS), "--other-host", ""], timeout=60)
try:
    for path, label in [("/list/bare", "steady poll (200, whole list)"), ("/conditional/etag", "304 poll")]:
        config, env = workspace(url + path, path.strip("/").replace("/", "-"))
        before = stats(url + "/sim/stats")["notModified"]
        cpu, peak, idle, (base_cpu, base_peak) = daemon_polls(config, env)
        not_modified = stats(url + "/sim/stats")["notModified"] - before
        print(f"[[json]] {ITEMS} items, {label:<29} in the daemon: {cpu * 1000:6.1f} ms CPU (mean of {POLLS}), "
              f"peak RSS {peak:5.1f} MB, idle after {idle:4.1f} MB; start-up + baseline {base_cpu * 1000:.0f} ms, "
              f"peak {base_peak:.1f} MB; 304s: {not_modified}", flush=True)
        config, env = workspace(url + path, "check-" + path.strip("/").replace("/", "-"))
        bench.check_once(config, env)
        check_cpu, check_rss = bench.check_once(config, env)
        print(f"{'':>48}one `trackwatch check` process: {check_cpu * 1000:6.1f} ms CPU, peak RSS {check_rss:5.1f} MB",
              flush=True)
finally:
    sim.terminate()
    sim.wait()
    bench.close()
