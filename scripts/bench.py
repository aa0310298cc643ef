#!/usr/bin/env python3
"""trackwatch's performance figures, one line each (issue 5). Run by scripts/bench.sh after a release build.
BENCH_HISTORY_ONLY=1 prints only the cost of the zone-independent history window (issue 11).

Against compass-sim on loopback: idle memory of `trackwatch run` after its first poll and after N polls,
CPU and peak memory of one `trackwatch check` at 100 … 100,000 assigned records, HTTP requests and logins
per steady-state poll, and wake-ups of the idle daemon. Polls are awaited through the daemon's own
sd_notify STATUS= messages (NOTIFY_SOCKET), never by sleeping.
"""
import os, re, signal, subprocess, sys, time

from benchkit import Bench, cpu_seconds, major_faults, mb, proc_status, stats, steady_polls

BIN = sys.argv[1]
POLLS = int(os.environ.get("BENCH_POLLS", "1000"))
IDLE_SECONDS = int(os.environ.get("BENCH_IDLE_SECONDS", "60"))
SIZES = [int(n) for n in os.environ.get("BENCH_SIZES", "100 1000 10000 100000").split()]
STEADY_POLLS = 10
bench = Bench(BIN, "trackwatch-bench-")


def figure(text):
    print(text, flush=True)


def start_sim(records):
    return bench.start_sim("compass-sim", ["--records", str(records), "--owner", "engineer",
                                           "--page-size-cap", "100000"])


def sim_stats(url):
    return stats(url + "/ccmweb/sim/stats")


def workspace(url, name):
    return bench.workspace(name, f'[server]\nurl = "{url}"\nrepo = "2.0.0"\ndatabase = "SAMPL"\nusername = "engineer"\n'
                                 f'password_file = "{{home}}/password"\n[poll]\ninterval = "1h"\npage_size = 10000\n',
                           secrets={"password": "engineer"})


def switches(pid):
    """Context switches per thread id (voluntary + involuntary)."""
    counts = {}
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/status") as f:
                counts[task] = sum(int(line.split()[1]) for line in f
                                   if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")))
        except FileNotFoundError:
            pass
    return counts


def daemon_poll_cpu(config, env):
    """The daemon's steady-state poll: mean CPU seconds of STEADY_POLLS (memory release included) and peak RSS in
    MB; and the CPU seconds and peak RSS of its start-up and baseline poll."""
    daemon = bench.start_daemon(config, env)
    try:
        bench.wait_poll()
        baseline_cpu = cpu_seconds(daemon.pid)
        baseline_hwm = mb(proc_status(daemon.pid), "VmHWM")
        cpu = steady_polls(bench, daemon, STEADY_POLLS)
        hwm = mb(proc_status(daemon.pid), "VmHWM")
    finally:
        daemon.terminate()
        daemon.wait()
    return cpu, hwm, baseline_cpu, baseline_hwm


# 0. The zone-independent history window (docs/performance.md): what reading 15 h of history back from the
#    checkpoint costs per poll, at 0, 10, 100 and 1,000 colleagues' actions per hour on 50 records of mine.
for activity in [int(n) for n in os.environ.get("BENCH_ACTIVITY", "0 10 100 1000").split()]:
    sim, url = bench.start_sim("compass-sim", ["--records", "50", "--owner", "engineer", "--activity", str(activity)])
    try:
        config, env = workspace(url, f"history-{activity}")
        subprocess.run([f"{BIN}/trackwatch", "check", "--config", config], env=env, check=True, capture_output=True)
        before = sim_stats(url)["requests"]
        run = subprocess.run([f"{BIN}/trackwatch", "check", "-v", "--config", config], env=env, check=True,
                             capture_output=True, text=True)
        requests = sim_stats(url)["requests"] - before - 3  # less the check's login and logoff, and this stats call
        rows = re.search(r"part=window rows=(\d+)|rows=(\d+) part=window", run.stderr)
        rows = int(rows.group(1) or rows.group(2)) if rows else -1
        cpu, hwm, _, _ = daemon_poll_cpu(config, env)
        figure(f"history window at {activity:>4} colleague actions/hour on my 50 records: {rows:>5} history rows, "
               f"{requests} HTTP requests, {cpu * 1000:5.1f} ms CPU per steady-state poll, daemon peak RSS {hwm:.1f} MB "
               f"(a 10-minute window: ~{activity * 10 // 60} rows)")
    finally:
        sim.terminate()
        sim.wait()
if os.environ.get("BENCH_HISTORY_ONLY"):
    bench.close()
    raise SystemExit(0)

# 2. One poll at each size, inside the daemon (CPU of the process across the poll; VmHWM is its peak RSS so
#    far), and one whole `trackwatch check` process (start-up, login and logoff included).
for size in SIZES:
    sim, url = start_sim(size)
    try:
        config, env = workspace(url, f"poll-{size}")
        cpu, hwm, baseline_cpu, baseline_hwm = daemon_poll_cpu(config, env)
        figure(f"poll of {size:>6} records in the daemon: {cpu * 1000:6.0f} ms CPU (mean of {STEADY_POLLS}, memory release included), peak RSS {hwm:5.1f} MB; "
               f"start-up + baseline poll {baseline_cpu * 1000:.0f} ms CPU, peak {baseline_hwm:.1f} MB")
        config, env = workspace(url, f"check-{size}")
        bench.check_once(config, env)
        check_cpu, check_rss = bench.check_once(config, env)
        figure(f"           one `trackwatch check` process: {check_cpu * 1000:6.0f} ms CPU, peak RSS {check_rss:5.1f} MB")
    finally:
        sim.terminate()
        sim.wait()

# 1, 4, 5. The daemon: idle memory after the first poll and after POLLS polls, requests per poll, wake-ups.
sim, url = start_sim(100)
config, env = workspace(url, "daemon")
daemon = bench.start_daemon(config, env)
try:
    bench.wait_poll()
    time.sleep(0.5)  # let the post-poll trim and the notifier settle before reading memory
    first = proc_status(daemon.pid)
    figure(f"idle after the first poll: VmRSS {mb(first, 'VmRSS'):.1f} MB, RssAnon {mb(first, 'RssAnon'):.1f} MB, "
           f"RssFile {mb(first, 'RssFile'):.1f} MB, threads {first['Threads']}")
    before = sim_stats(url)
    faults = major_faults(daemon.pid)
    started = time.time()
    for _ in range(POLLS):
        daemon.send_signal(signal.SIGUSR1)
        bench.wait_poll()
    elapsed = time.time() - started
    faults = major_faults(daemon.pid) - faults
    after = sim_stats(url)
    time.sleep(0.5)  # as above: the poll's memory release runs after its STATUS line
    polls_rss = proc_status(daemon.pid)
    figure(f"idle after {POLLS} more polls: VmRSS {mb(polls_rss, 'VmRSS'):.1f} MB "
           f"(growth {mb(polls_rss, 'VmRSS') - mb(first, 'VmRSS'):+.1f} MB), RssAnon {mb(polls_rss, 'RssAnon'):.1f} MB; "
           f"{elapsed / POLLS * 1000:.1f} ms per poll wall-clock, {faults / POLLS:.0f} major page faults per poll")
    requests = (after["requests"] - before["requests"] - 1) / POLLS
    logins = after["logins"] - before["logins"]
    figure(f"steady-state poll: {requests:.2f} HTTP requests (2 queries x (POST + 1 page)), {logins} logins in {POLLS} polls")
    def wakeups(pid, label):
        """Context switches of the threads alive at the end, plus one for each thread that ended meanwhile (a
        libdispatch worker retires 5 s after its last work: it wakes once to exit; its own counts vanish)."""
        s0, f0 = switches(pid), major_faults(pid)
        time.sleep(IDLE_SECONDS)
        s1, f1 = switches(pid), major_faults(pid)
        woken = sum(count - s0.get(task, 0) for task, count in s1.items())
        ended = len(set(s0) - set(s1))
        figure(f"wake-ups while idle {label} (no watchdog): {woken + ended} in {IDLE_SECONDS} s = {woken} context switches "
               f"of the {len(s1)} threads + {ended} threads ended; {f1 - f0} major page faults")
        return s0, s1

    time.sleep(1)
    s0, s1 = wakeups(daemon.pid, f"right after {POLLS} back-to-back polls")
    if os.environ.get("BENCH_THREADS"):
        for task, count in s1.items():
            name = open(f"/proc/{daemon.pid}/task/{task}/comm").read().strip()
            print(f"   thread {task} {name}: {count - s0.get(task, 0)}")
    daemon.terminate()
    daemon.wait()
    # The everyday case: a poll, then minutes of nothing; counted from as soon after the poll as above (a
    # connection closed by a timer 3 s after the poll used to wake the daemon unseen after a 5 s wait).
    config, env = workspace(url, "daemon-idle")
    daemon = bench.start_daemon(config, env)
    bench.wait_poll()
    time.sleep(1.5)
    wakeups(daemon.pid, "after an ordinary poll")
finally:
    daemon.terminate()
    daemon.wait()
    sim.terminate()
    sim.wait()

# After a 100,000-record poll the daemon returns close to idle.
if 100000 in SIZES:
    sim, url = start_sim(100000)
    config, env = workspace(url, "daemon-large")
    daemon = bench.start_daemon(config, env)
    try:
        bench.wait_poll()
        daemon.send_signal(signal.SIGUSR1)
        bench.wait_poll()
        time.sleep(5)  # idle: the memory release has run, libdispatch's idle workers have retired
        large = proc_status(daemon.pid)
        figure(f"idle after polls of 100000 records: VmRSS {mb(large, 'VmRSS'):.1f} MB, peak VmHWM {mb(large, 'VmHWM'):.1f} MB, "
               f"RssAnon {mb(large, 'RssAnon'):.1f} MB")
    finally:
        daemon.terminate()
        daemon.wait()
        sim.terminate()
        sim.wait()

bench.close()
