#!/usr/bin/env python3
"""The [[json]] source's figures (issue 19), one line each: CPU and peak memory of a steady poll of a 10,000-item
list, and of a poll answered 304 Not Modified, in the daemon and as one `trackwatch check` process. Run by
scripts/bench.sh after a release build (BENCH_JSON_ONLY=1 runs only these), or alone:

    python3 scripts/bench-json.py .build/release [ITEMS]

Against json-sim on loopback: the list at /list/bare (answered whole every poll) and at /conditional/etag (an
ETag, so that an unchanged list is a 304). Polls are awaited through the daemon's sd_notify STATUS= messages,
never by sleeping; the peak of one poll is the process's VmHWM after resetting it (clear_refs 5) before the poll.
"""
import json, os, re, shutil, signal, socket, subprocess, sys, tempfile, time, urllib.request

BIN = sys.argv[1]
ITEMS = int(sys.argv[2]) if len(sys.argv) > 2 else int(os.environ.get("BENCH_JSON_ITEMS", "10000"))
POLLS = 7
work = tempfile.mkdtemp(prefix="trackwatch-bench-json-")
notify_path = os.path.join(work, "notify.sock")
listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
listener.bind(notify_path)
listener.settimeout(300)


def start_sim():
    out = open(os.path.join(work, "sim.out"), "w+")
    sim = subprocess.Popen([f"{BIN}/json-sim", "--port", "0", "--items", str(ITEMS), "--other-host", ""],
                           stdout=out, stderr=subprocess.DEVNULL)
    deadline = time.time() + 60
    while time.time() < deadline:
        out.seek(0)
        m = re.match(r"listening on (\S+)", out.read())
        if m:
            return sim, m.group(1)
        time.sleep(0.05)
    raise SystemExit("json-sim did not start")


def workspace(url, name):
    home = os.path.join(work, name)
    os.makedirs(home)
    config = os.path.join(home, "config.toml")
    with open(config, "w") as f:
        f.write(f'[[json]]\nname = "list"\nurl = "{url}"\ntitle = "{{title}}"\nby = "updated_by"\n'
                f'ignore = ["meta"]\n[poll]\ninterval = "1h"\n')
    env = dict(os.environ, XDG_STATE_HOME=f"{home}/state", XDG_CONFIG_HOME=f"{home}/config",
               DBUS_SESSION_BUS_ADDRESS="unix:path=/nonexistent", MALLOC_ARENA_MAX="2")
    env.pop("NOTIFY_SOCKET", None)
    return config, env


def status_kb(pid, key):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def cpu_seconds(pid):
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                total += int(f.read().split()[0])
        except FileNotFoundError:
            pass
    return total / 1e9


def wait_poll():
    while True:
        message = listener.recv(4096).decode()
        if "STATUS=Last poll" in message:
            if "failed" in message:
                raise SystemExit(message)
            return message


def daemon_polls(config, env):
    """Median CPU seconds and the highest per-poll peak RSS (MB) of POLLS steady polls, and the baseline's."""
    daemon = subprocess.Popen([f"{BIN}/trackwatch", "run", "--config", config], env=dict(env, NOTIFY_SOCKET=notify_path),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_poll()
        baseline = (cpu_seconds(daemon.pid), status_kb(daemon.pid, "VmHWM") / 1024)
        cpu, peaks = [], []
        for _ in range(POLLS):
            time.sleep(0.3)  # the previous poll's memory release has finished
            with open(f"/proc/{daemon.pid}/clear_refs", "w") as f:
                f.write("5")  # VmHWM := VmRSS: what follows is this poll's peak
            before = cpu_seconds(daemon.pid)
            daemon.send_signal(signal.SIGUSR1)
            wait_poll()
            time.sleep(0.3)  # include this poll's memory release (malloc_trim, MADV_PAGEOUT)
            cpu.append(cpu_seconds(daemon.pid) - before)
            peaks.append(status_kb(daemon.pid, "VmHWM") / 1024)
        idle = status_kb(daemon.pid, "VmRSS") / 1024
    finally:
        daemon.terminate()
        daemon.wait()
    return sorted(cpu)[len(cpu) // 2], max(peaks), idle, baseline


def check_once(config, env):
    proc = subprocess.Popen([f"{BIN}/trackwatch", "check", "--config", config], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    if status != 0:
        raise SystemExit(f"check failed: {proc.stderr.read().decode()}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def stats(url):
    with urllib.request.urlopen(url + "/sim/stats") as r:
        return json.load(r)


sim, url = start_sim()
try:
    for path, label in [("/list/bare", "steady poll (200, whole list)"), ("/conditional/etag", "304 poll")]:
        config, env = workspace(url + path, path.strip("/").replace("/", "-"))
        before = stats(url)["notModified"]
        cpu, peak, idle, (base_cpu, base_peak) = daemon_polls(config, env)
        not_modified = stats(url)["notModified"] - before
        figure = (f"[[json]] {ITEMS} items, {label:<29} in the daemon: {cpu * 1000:6.1f} ms CPU (median of {POLLS}), "
                  f"peak RSS {peak:5.1f} MB, idle after {idle:4.1f} MB; start-up + baseline {base_cpu * 1000:.0f} ms, "
                  f"peak {base_peak:.1f} MB; 304s: {not_modified}")
        print(figure, flush=True)
        config, env = workspace(url + path, "check-" + path.strip("/").replace("/", "-"))
        check_once(config, env)
        check_cpu, check_rss = check_once(config, env)
        print(f"{'':>48}one `trackwatch check` process: {check_cpu * 1000:6.1f} ms CPU, peak RSS {check_rss:5.1f} MB",
              flush=True)
finally:
    sim.terminate()
    sim.wait()
    shutil.rmtree(work, ignore_errors=True)
