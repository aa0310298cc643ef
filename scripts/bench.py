#!/usr/bin/env python3
"""trackwatch's performance figures, one line each (issue 5). Run by scripts/bench.sh after a release build.
BENCH_HISTORY_ONLY=1 prints only the cost of the zone-independent history window (issue 11).

Against compass-sim on loopback: idle memory of `trackwatch run` after its first poll and after N polls,
CPU and peak memory of one `trackwatch check` at 100 … 100,000 assigned records, HTTP requests and logins
per steady-state poll, and wake-ups of the idle daemon. Polls are awaited through the daemon's own
sd_notify STATUS= messages (NOTIFY_SOCKET), never by sleeping.
"""
import json, os, re, shutil, signal, socket, subprocess, sys, tempfile, time, urllib.request

BIN = sys.argv[1]
POLLS = int(os.environ.get("BENCH_POLLS", "1000"))
IDLE_SECONDS = int(os.environ.get("BENCH_IDLE_SECONDS", "60"))
SIZES = [int(n) for n in os.environ.get("BENCH_SIZES", "100 1000 10000 100000").split()]
work = tempfile.mkdtemp(prefix="trackwatch-bench-")


def figure(text):
    print(text, flush=True)


def start_sim(records):
    out = open(os.path.join(work, "sim.out"), "w+")
    sim = subprocess.Popen([f"{BIN}/compass-sim", "--port", "0", "--records", str(records), "--owner", "engineer",
                            "--page-size-cap", "100000"], stdout=out, stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while time.time() < deadline:
        out.seek(0)
        m = re.match(r"listening on (\S+)", out.read())
        if m:
            return sim, m.group(1)
        time.sleep(0.05)
    raise SystemExit("compass-sim did not start")


def stats(url):
    with urllib.request.urlopen(url + "/ccmweb/sim/stats") as r:
        return json.load(r)


def workspace(url, name):
    home = os.path.join(work, name)
    os.makedirs(home)
    with open(os.path.join(home, "password"), "w") as f:
        f.write("engineer\n")
    os.chmod(os.path.join(home, "password"), 0o600)
    config = os.path.join(home, "config.toml")
    with open(config, "w") as f:
        f.write(f'[server]\nurl = "{url}"\nrepo = "2.0.0"\ndatabase = "SAMPL"\nusername = "engineer"\n'
                f'password_file = "{home}/password"\n[poll]\ninterval = "1h"\npage_size = 10000\n')
    env = dict(os.environ, XDG_STATE_HOME=f"{home}/state", XDG_CONFIG_HOME=f"{home}/config",
               DBUS_SESSION_BUS_ADDRESS="unix:path=/nonexistent", MALLOC_ARENA_MAX="2")
    env.pop("NOTIFY_SOCKET", None)
    return config, env


def proc_status(pid):
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            fields[key] = value.strip()
    return fields


def kb(fields, key):
    return int(fields[key].split()[0])


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


def major_faults(pid):
    """Major page faults of the whole process, exited threads included (/proc/PID/stat): each one a wait for
    a page read from disk, e.g. code that MADV_PAGEOUT handed back after the previous poll."""
    with open(f"/proc/{pid}/stat") as f:
        return int(f.read().rsplit(")", 1)[1].split()[9])


def cpu_seconds(pid):
    """CPU time of all the process's threads, in seconds, at nanosecond resolution (schedstat), plus the
    threads that already exited (utime + stime in /proc/PID/stat counts those, at clock-tick resolution)."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                total += int(f.read().split()[0])
        except FileNotFoundError:
            pass
    return total / 1e9


def check_once(config, env):
    """One `trackwatch check`: (user+sys CPU seconds, peak RSS in MB) of that process alone."""
    proc = subprocess.Popen([f"{BIN}/trackwatch", "check", "--config", config], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    if status != 0:
        raise SystemExit(f"check failed: {proc.stderr.read().decode()}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


notify_path = os.path.join(work, "notify.sock")
listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
listener.bind(notify_path)
listener.settimeout(300)


def wait_poll():
    while True:
        message = listener.recv(4096).decode()
        if "STATUS=Last poll" in message:
            if "failed" in message:
                raise SystemExit(message)
            return


def start_daemon(config, env):
    env = dict(env, NOTIFY_SOCKET=notify_path)
    return subprocess.Popen([f"{BIN}/trackwatch", "run", "--config", config], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def daemon_poll_cpu(config, env, polls=5):
    """The daemon's steady-state poll: median CPU seconds (memory release included) and peak RSS in MB; and the
    CPU seconds and peak RSS of its start-up and baseline poll."""
    daemon = start_daemon(config, env)
    try:
        wait_poll()
        baseline_cpu = cpu_seconds(daemon.pid)
        baseline_hwm = kb(proc_status(daemon.pid), "VmHWM") / 1024
        cpu = []
        for _ in range(polls):
            time.sleep(0.3)  # the previous poll's memory release has finished
            before = cpu_seconds(daemon.pid)
            daemon.send_signal(signal.SIGUSR1)
            wait_poll()
            time.sleep(0.3)  # include this poll's memory release (malloc_trim, MADV_PAGEOUT)
            cpu.append(cpu_seconds(daemon.pid) - before)
        hwm = kb(proc_status(daemon.pid), "VmHWM") / 1024
    finally:
        daemon.terminate()
        daemon.wait()
    return sorted(cpu)[len(cpu) // 2], hwm, baseline_cpu, baseline_hwm


# 0. The zone-independent history window (docs/performance.md): what reading 15 h of history back from the
#    checkpoint costs per poll, at 0, 10, 100 and 1,000 colleagues' actions per hour on 50 records of mine.
for activity in [int(n) for n in os.environ.get("BENCH_ACTIVITY", "0 10 100 1000").split()]:
    out = open(os.path.join(work, "sim.out"), "w+")
    sim = subprocess.Popen([f"{BIN}/compass-sim", "--port", "0", "--records", "50", "--owner", "engineer",
                            "--activity", str(activity)], stdout=out, stderr=subprocess.DEVNULL)
    try:
        for _ in range(2400):
            out.seek(0)
            m = re.match(r"listening on (\S+)", out.read())
            if m:
                break
            time.sleep(0.05)
        url = m.group(1)
        config, env = workspace(url, f"history-{activity}")
        subprocess.run([f"{BIN}/trackwatch", "check", "--config", config], env=env, check=True, capture_output=True)
        before = stats(url)["requests"]
        run = subprocess.run([f"{BIN}/trackwatch", "check", "-v", "--config", config], env=env, check=True,
                             capture_output=True, text=True)
        requests = stats(url)["requests"] - before - 3  # less the check's login and logoff, and this stats call
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
    shutil.rmtree(work, ignore_errors=True)
    raise SystemExit(0)

# 2. One poll at each size, inside the daemon (CPU of the process across the poll; VmHWM is its peak RSS so
#    far), and one whole `trackwatch check` process (start-up, login and logoff included).
for size in SIZES:
    sim, url = start_sim(size)
    try:
        config, env = workspace(url, f"poll-{size}")
        cpu, hwm, baseline_cpu, baseline_hwm = daemon_poll_cpu(config, env)
        figure(f"poll of {size:>6} records in the daemon: {cpu * 1000:6.0f} ms CPU (median of 5, memory release included), peak RSS {hwm:5.1f} MB; "
               f"start-up + baseline poll {baseline_cpu * 1000:.0f} ms CPU, peak {baseline_hwm:.1f} MB")
        config, env = workspace(url, f"check-{size}")
        check_once(config, env)
        check_cpu, check_rss = check_once(config, env)
        figure(f"           one `trackwatch check` process: {check_cpu * 1000:6.0f} ms CPU, peak RSS {check_rss:5.1f} MB")
    finally:
        sim.terminate()
        sim.wait()

# 1, 4, 5. The daemon: idle memory after the first poll and after POLLS polls, requests per poll, wake-ups.
sim, url = start_sim(100)
config, env = workspace(url, "daemon")
daemon = start_daemon(config, env)
try:
    wait_poll()
    time.sleep(0.5)  # let the post-poll trim and the notifier settle before reading memory
    first = proc_status(daemon.pid)
    figure(f"idle after the first poll: VmRSS {kb(first, 'VmRSS') / 1024:.1f} MB, RssAnon {kb(first, 'RssAnon') / 1024:.1f} MB, "
           f"RssFile {kb(first, 'RssFile') / 1024:.1f} MB, threads {first['Threads']}")
    before = stats(url)
    faults = major_faults(daemon.pid)
    started = time.time()
    for _ in range(POLLS):
        daemon.send_signal(signal.SIGUSR1)
        wait_poll()
    elapsed = time.time() - started
    faults = major_faults(daemon.pid) - faults
    after = stats(url)
    time.sleep(0.5)  # as above: the poll's memory release runs after its STATUS line
    polls_rss = proc_status(daemon.pid)
    figure(f"idle after {POLLS} more polls: VmRSS {kb(polls_rss, 'VmRSS') / 1024:.1f} MB "
           f"(growth {(kb(polls_rss, 'VmRSS') - kb(first, 'VmRSS')) / 1024:+.1f} MB), RssAnon {kb(polls_rss, 'RssAnon') / 1024:.1f} MB; "
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
    daemon = start_daemon(config, env)
    wait_poll()
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
    daemon = start_daemon(config, env)
    try:
        wait_poll()
        daemon.send_signal(signal.SIGUSR1)
        wait_poll()
        time.sleep(5)  # idle: the memory release has run, libdispatch's idle workers have retired
        large = proc_status(daemon.pid)
        figure(f"idle after polls of 100000 records: VmRSS {kb(large, 'VmRSS') / 1024:.1f} MB, peak VmHWM {kb(large, 'VmHWM') / 1024:.1f} MB, "
               f"RssAnon {kb(large, 'RssAnon') / 1024:.1f} MB")
    finally:
        daemon.terminate()
        daemon.wait()
        sim.terminate()
        sim.wait()

shutil.rmtree(work, ignore_errors=True)
