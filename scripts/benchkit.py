"""What the benchmarks (bench.py, bench-json.py, bench-qase.py) share: a work folder, a local server started on a
free port, one private home per configuration, the daemon's polls awaited through its own sd_notify STATUS=
messages (NOTIFY_SOCKET), never by sleeping, and readings of /proc.

CPU is read from /proc/PID/stat (user + system time of the whole process): unlike the threads' own counters it keeps
the time of threads that have ended, and the daemon ends its HTTP event-loop thread after every poll. Its unit is
the clock tick (10 ms), so a figure per poll is the mean over several polls.
"""
import json, os, re, shutil, signal, socket, subprocess, tempfile, time, urllib.request

TICK = os.sysconf("SC_CLK_TCK")


class Bench:
    def __init__(self, bin_path, prefix):
        self.bin = bin_path
        self.work = tempfile.mkdtemp(prefix=prefix)
        self.notify_path = os.path.join(self.work, "notify.sock")
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.listener.bind(self.notify_path)
        self.listener.settimeout(300)

    def close(self):
        self.listener.close()
        shutil.rmtree(self.work, ignore_errors=True)

    def start_sim(self, program, args, timeout=120):
        """Starts a local server (`compass-sim`, `qase-sim`, `json-sim`) on a free port: (process, its URL)."""
        out = open(os.path.join(self.work, f"{program}.out"), "w+")
        sim = subprocess.Popen([f"{self.bin}/{program}", "--port", "0"] + args, stdout=out, stderr=subprocess.DEVNULL)
        deadline = time.time() + timeout
        while time.time() < deadline:
            out.seek(0)
            match = re.match(r"listening on (\S+)", out.read())
            if match:
                return sim, match.group(1)
            if sim.poll() is not None:
                break
            time.sleep(0.05)
        sim.kill()
        raise SystemExit(f"{program} did not start")

    def workspace(self, name, config, secrets=None):
        """A home of its own: the secrets (file name: content, mode 0600) and config.toml, in whose text `{home}`
        stands for the folder. (path of config.toml, environment for trackwatch)."""
        home = os.path.join(self.work, name)
        os.makedirs(home)
        for file, content in (secrets or {}).items():
            path = os.path.join(home, file)
            with open(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
                f.write(content + "\n")
        path = os.path.join(home, "config.toml")
        with open(path, "w") as f:
            f.write(config.replace("{home}", home))
        env = dict(os.environ, XDG_STATE_HOME=f"{home}/state", XDG_CONFIG_HOME=f"{home}/config",
                   DBUS_SESSION_BUS_ADDRESS="unix:path=/nonexistent", MALLOC_ARENA_MAX="1")
        env.pop("NOTIFY_SOCKET", None)
        return path, env

    def start_daemon(self, config, env):
        return subprocess.Popen([f"{self.bin}/trackwatch", "run", "--config", config],
                                env=dict(env, NOTIFY_SOCKET=self.notify_path),
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def wait_poll(self):
        """The daemon's next `STATUS=Last poll …`; a failed poll ends the benchmark."""
        while True:
            message = self.listener.recv(4096).decode()
            if "STATUS=Last poll" in message:
                if "failed" in message:
                    raise SystemExit(message)
                return message

    def check_once(self, config, env):
        """One `trackwatch check`: (user + system CPU seconds, peak RSS in MB) of that process alone."""
        proc = subprocess.Popen([f"{self.bin}/trackwatch", "check", "--config", config], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        if status != 0:
            raise SystemExit(f"check failed: {proc.stderr.read().decode()}")
        return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def stats(url):
    """A simulator's own request counts (`/ccmweb/sim/stats` or `/sim/stats`, which count no /sim/ route)."""
    with urllib.request.urlopen(url) as answer:
        return json.load(answer)


def proc_stat(pid):
    """The fields of /proc/PID/stat after the command name (which may hold spaces), numbered from 0 = state."""
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()


def cpu_seconds(pid):
    """User + system time of the whole process, ended threads included."""
    fields = proc_stat(pid)
    return (int(fields[11]) + int(fields[12])) / TICK


def major_faults(pid):
    """Major page faults of the whole process, ended threads included: each one a wait for a page read from disk,
    e.g. code dropped from the page cache since the previous poll (MADV_PAGEOUT did that until issue 28)."""
    return int(proc_stat(pid)[9])


def proc_status(pid):
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            fields[key] = value.strip()
    return fields


def mb(fields, key):
    """A /proc/PID/status size (`VmRSS`, `VmHWM`, …) in MB."""
    return int(fields[key].split()[0]) / 1024


def reset_peak(pid):
    """VmHWM := VmRSS: what follows is the next peak (clear_refs 5)."""
    with open(f"/proc/{pid}/clear_refs", "w") as f:
        f.write("5")


def steady_polls(bench, daemon, polls, per_poll=None):
    """Mean CPU seconds of `polls` polls by SIGUSR1, each with its memory release (malloc_trim, MADV_DONTNEED: they
    run right after the poll's STATUS line, and each poll is followed by 0.3 s of rest); `per_poll()` runs after each."""
    time.sleep(0.3)  # the previous poll's memory release has finished
    start = cpu_seconds(daemon.pid)
    for _ in range(polls):
        daemon.send_signal(signal.SIGUSR1)
        bench.wait_poll()
        time.sleep(0.3)
        if per_poll:
            per_poll()
    return (cpu_seconds(daemon.pid) - start) / polls
