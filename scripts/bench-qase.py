#!/usr/bin/env python3
"""The Qase source's figures (issue 18): HTTP requests and CPU per steady poll at 2 projects x 1,000 items.
Run by scripts/bench.sh after a release build (`python3 scripts/bench-qase.py BIN`).

Against qase-sim on loopback with `--cases 1000 --defects 1000` (and `--plans`, `--reviews` as given), the daemon
`trackwatch run` with one [[qase]] table: its start-up and baseline poll, then BENCH_QASE_POLLS polls made by
SIGUSR1, each awaited through the daemon's own sd_notify STATUS= (NOTIFY_SOCKET), never by sleeping. Requests are
qase-sim's own count (`GET /sim/stats`, which counts no /sim/ route); CPU is the daemon's user + system time over
all those polls (/proc/PID/stat, which keeps the time of threads that ended; clock ticks, so averaged over many
polls), memory release after each poll included. Back to back, the polls outrun the request pacer's burst (60,
then 2 a second): they take seconds of wall-clock time, not of CPU. Also one whole `trackwatch check` (a process
that looks up "me" again).
"""
import json, os, re, shutil, signal, socket, subprocess, sys, tempfile, time, urllib.request

BIN = sys.argv[1]
ITEMS = int(os.environ.get("BENCH_QASE_ITEMS", "1000"))
POLLS = int(os.environ.get("BENCH_QASE_POLLS", "20"))
TICK = os.sysconf("SC_CLK_TCK")
work = tempfile.mkdtemp(prefix="trackwatch-bench-qase-")


def start_sim(extra):
    out = open(os.path.join(work, "sim.out"), "w+")
    sim = subprocess.Popen([f"{BIN}/qase-sim", "--port", "0", "--cases", str(ITEMS), "--defects", str(ITEMS)] + extra,
                           stdout=out, stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while time.time() < deadline:
        out.seek(0)
        m = re.match(r"listening on (\S+)", out.read())
        if m:
            return sim, m.group(1)
        time.sleep(0.05)
    raise SystemExit("qase-sim did not start")


def stats(root):
    with urllib.request.urlopen(root + "/sim/stats") as r:
        return json.load(r)


def workspace(root):
    home = os.path.join(work, "home")
    os.makedirs(home)
    with open(os.path.join(home, "token"), "w") as f:
        f.write("qase-sim-engineer-token\n")
    os.chmod(os.path.join(home, "token"), 0o600)
    config = os.path.join(home, "config.toml")
    with open(config, "w") as f:
        f.write(f'[[qase]]\nurl = "{root}/v1"\nemail = "engineer@example.com"\ntoken_file = "{home}/token"\n'
                f'[poll]\ninterval = "1h"\n')
    env = dict(os.environ, XDG_STATE_HOME=f"{home}/state", XDG_CONFIG_HOME=f"{home}/config",
               DBUS_SESSION_BUS_ADDRESS="unix:path=/nonexistent", MALLOC_ARENA_MAX="2")
    env.pop("NOTIFY_SOCKET", None)
    return config, env


def cpu_seconds(pid):
    """User + system time of the whole process, ended threads included."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def peak_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        return int(next(line for line in f if line.startswith("VmHWM")).split()[1]) / 1024


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
            return message


def measure(label, extra):
    sim, root = start_sim(extra)
    try:
        config, env = workspace(root)
        daemon = subprocess.Popen([f"{BIN}/trackwatch", "run", "--config", config],
                                  env=dict(env, NOTIFY_SOCKET=notify_path),
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            started = stats(root)["requests"]
            wait_poll()
            baseline_requests = stats(root)["requests"] - started
            baseline_cpu, baseline_peak = cpu_seconds(daemon.pid), peak_mb(daemon.pid)
            before = stats(root)
            time.sleep(0.3)  # the baseline's memory release has finished
            start = cpu_seconds(daemon.pid)
            for _ in range(POLLS):
                daemon.send_signal(signal.SIGUSR1)
                wait_poll()
            time.sleep(0.3)  # the last poll's memory release (malloc_trim, MADV_PAGEOUT)
            cpu = (cpu_seconds(daemon.pid) - start) / POLLS
            after = stats(root)
            peak = peak_mb(daemon.pid)
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
        before = stats(root)["requests"]
        check = subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M", f"{BIN}/trackwatch", "check", "--config", config],
                               env=env, capture_output=True, text=True, check=True)
        wall, user, system, rss = check.stderr.strip().splitlines()[-1].split()
        print(f"qase {label}: a whole `trackwatch check` (finding \"me\" again): {stats(root)['requests'] - before} "
              f"requests, {(float(user) + float(system)) * 1000:.0f} ms CPU, peak RSS {int(rss) / 1024:.1f} MB", flush=True)
    finally:
        sim.terminate()
        sim.wait()
        shutil.rmtree(os.path.join(work, "home"), ignore_errors=True)


try:
    measure(f"2 projects x {ITEMS:,} cases and {ITEMS:,} defects (3 plans, 6 reviews each)", [])
    measure(f"2 projects x {ITEMS:,} cases and {ITEMS:,} defects, 30 plans and 100 reviews each",
            ["--plans", "30", "--reviews", "100"])
    measure(f"2 projects x {ITEMS:,} items without QQL (REST fallback)", ["--search-refusal", "402"])
finally:
    shutil.rmtree(work, ignore_errors=True)
