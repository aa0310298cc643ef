#!/usr/bin/env python3
"""trackwatch's performance figures, one line each (issue 5). Run by scripts/bench.sh after a release build.

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
    for task in os.listdir(f"/proc/{pid}/task"):
        pass
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            fields[key] = value.strip()
    return fields


def kb(fields, key):
    return int(fields[key].split()[0])


def switches(pid):
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/status") as f:
                for line in f:
                    if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                        total += int(line.split()[1])
        except FileNotFoundError:
            pass
    return total


def check_once(config, env):
    """One `trackwatch check`: (user+sys CPU seconds, peak RSS in MB) of that process alone."""
    proc = subprocess.Popen([f"{BIN}/trackwatch", "check", "--config", config], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    if status != 0:
        raise SystemExit(f"check failed: {proc.stderr.read().decode()}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


# 2. One poll at each size: the baseline, then a steady-state poll with nothing changed.
for size in SIZES:
    sim, url = start_sim(size)
    try:
        config, env = workspace(url, f"check-{size}")
        cpu0, rss0 = check_once(config, env)
        before = stats(url)
        cpu1, rss1 = check_once(config, env)
        after = stats(url)
        figure(f"poll of {size:>6} records: first (baseline) {cpu0 * 1000:7.0f} ms CPU, peak RSS {rss0:5.1f} MB; "
               f"steady {cpu1 * 1000:7.0f} ms CPU, peak RSS {rss1:5.1f} MB")
        if size == SIZES[0]:
            # A `check` process logs in once per run; the daemon below shows the steady state without login.
            figure(f"requests of one check (new process: login + 2 queries + logoff): {after['requests'] - before['requests'] - 1}")
    finally:
        sim.terminate()
        sim.wait()

# 1, 4, 5. The daemon: idle memory after the first poll and after POLLS polls, requests per poll, wake-ups.
sim, url = start_sim(100)
config, env = workspace(url, "daemon")
notify_path = os.path.join(work, "notify.sock")
listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
listener.bind(notify_path)
listener.settimeout(60)
env["NOTIFY_SOCKET"] = notify_path
daemon = subprocess.Popen([f"{BIN}/trackwatch", "run", "--config", config], env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def wait_poll():
    while True:
        message = listener.recv(4096).decode()
        if "STATUS=Last poll" in message:
            if "failed" in message:
                raise SystemExit(message)
            return


try:
    wait_poll()
    time.sleep(0.5)  # let the post-poll trim and the notifier settle before reading memory
    first = proc_status(daemon.pid)
    figure(f"idle after the first poll: VmRSS {kb(first, 'VmRSS') / 1024:.1f} MB, RssAnon {kb(first, 'RssAnon') / 1024:.1f} MB, "
           f"RssFile {kb(first, 'RssFile') / 1024:.1f} MB, threads {first['Threads']}")
    before = stats(url)
    started = time.time()
    for _ in range(POLLS):
        daemon.send_signal(signal.SIGUSR1)
        wait_poll()
    elapsed = time.time() - started
    after = stats(url)
    polls_rss = proc_status(daemon.pid)
    figure(f"idle after {POLLS} more polls: VmRSS {kb(polls_rss, 'VmRSS') / 1024:.1f} MB "
           f"(growth {(kb(polls_rss, 'VmRSS') - kb(first, 'VmRSS')) / 1024:+.1f} MB), RssAnon {kb(polls_rss, 'RssAnon') / 1024:.1f} MB; "
           f"{elapsed / POLLS * 1000:.1f} ms per poll wall-clock")
    requests = (after["requests"] - before["requests"] - 1) / POLLS
    logins = after["logins"] - before["logins"]
    figure(f"steady-state poll: {requests:.2f} HTTP requests (2 queries x (POST + 1 page)), {logins} logins in {POLLS} polls")
    time.sleep(1)
    s0 = switches(daemon.pid)
    time.sleep(IDLE_SECONDS)
    s1 = switches(daemon.pid)
    figure(f"wake-ups while idle (context switches, all threads, no watchdog): {s1 - s0} in {IDLE_SECONDS} s")
finally:
    daemon.terminate()
    daemon.wait()
    sim.terminate()
    sim.wait()

# After a 100,000-record poll the daemon returns close to idle.
if 100000 in SIZES:
    sim, url = start_sim(100000)
    config, env = workspace(url, "daemon-large")
    env["NOTIFY_SOCKET"] = notify_path
    daemon = subprocess.Popen([f"{BIN}/trackwatch", "run", "--config", config], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_poll()
        daemon.send_signal(signal.SIGUSR1)
        wait_poll()
        time.sleep(0.5)
        large = proc_status(daemon.pid)
        figure(f"idle after polls of 100000 records: VmRSS {kb(large, 'VmRSS') / 1024:.1f} MB, peak VmHWM {kb(large, 'VmHWM') / 1024:.1f} MB, "
               f"RssAnon {kb(large, 'RssAnon') / 1024:.1f} MB")
    finally:
        daemon.terminate()
        daemon.wait()
        sim.terminate()
        sim.wait()

shutil.rmtree(work, ignore_errors=True)
