#!/usr/bin/env python3
"""trackwatch side by side with urlwatch (issue 28), in one run on one machine: the CPU and peak memory of a whole
`trackwatch check` against compass-sim, and of a whole `urlwatch` run fetching and diffing the same records as one
JSON list. Run by scripts/bench.sh (`BENCH_URLWATCH_ONLY=1 scripts/bench.sh` alone) after a release build.

compass-sim holds BENCH_URLWATCH_RECORDS records (4,000), engineer owning every fourth one but those Submitted (800). The records
urlwatch fetches are exactly those trackwatch compared: after trackwatch's baseline `check`, the snapshot in its
state database is served as one JSON list by a small HTTP server in this process (its CPU counted in neither).
urlwatch comes from PyPI into a private virtual environment (.build/urlwatch-venv, made once). Both take their
baseline first; then BENCH_URLWATCH_RUNS (11) runs of each, alternating, nothing changed in between: the medians,
and the two ratios (urlwatch / trackwatch).
"""
import http.server, json, os, sqlite3, statistics, subprocess, sys, threading

from benchkit import Bench

BIN = sys.argv[1]
RECORDS = int(os.environ.get("BENCH_URLWATCH_RECORDS", "4000"))
RUNS = int(os.environ.get("BENCH_URLWATCH_RUNS", "11"))
VENV = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".build", "urlwatch-venv")


def urlwatch_venv():
    """The urlwatch executable in its private virtual environment, installed from PyPI the first time."""
    program = os.path.join(VENV, "bin", "urlwatch")
    if not os.path.exists(program):
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
        subprocess.run([os.path.join(VENV, "bin", "pip"), "install", "--quiet", "urlwatch"], check=True)
    version = subprocess.run([program, "--version"], capture_output=True, text=True).stdout.strip()
    return program, version


def serve(body):
    """Serves `body` (bytes, JSON) at / on a free loopback port, from a thread of this process: its URL."""
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/records.json"


def measured(argv, env):
    """(user + system CPU seconds, peak RSS in MB) of one whole process."""
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    out, err = proc.stdout.read().decode(), proc.stderr.read().decode()
    if status != 0:
        raise SystemExit(f"{argv[0]} failed: {err or out}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, out


bench = Bench(BIN, "trackwatch-bench-urlwatch-")
program, version = urlwatch_venv()
sim, url = bench.start_sim("compass-sim", ["--records", str(RECORDS),
                                           "--page-size-cap", "100000"])
try:
    config, env = bench.workspace(
        "trackwatch", f'[server]\nurl = "{url}"\nrepo = "2.0.0"\ndatabase = "SAMPL"\nusername = "engineer"\n'
                      f'password_file = "{{home}}/password"\n[poll]\ninterval = "1h"\npage_size = 10000\n',
        secrets={"password": "engineer"})
    check = [f"{BIN}/trackwatch", "check", "--config", config]
    measured(check, env)  # the baseline
    state = os.path.join(env["XDG_STATE_HOME"], "trackwatch")
    database = next(os.path.join(root, name) for root, _, names in os.walk(state) for name in names
                    if name == "state.sqlite")
    with sqlite3.connect(database) as db:
        rows = db.execute("SELECT record_id, fields FROM snapshot WHERE watch = "
                          "(SELECT watch FROM snapshot GROUP BY watch ORDER BY count(*) DESC LIMIT 1) "
                          "ORDER BY record_id").fetchall()
    records = [dict(json.loads(fields), id=record_id) for record_id, fields in rows]
    body = json.dumps(records, indent=1, ensure_ascii=False).encode()
    list_url = serve(body)

    home = os.path.join(bench.work, "urlwatch")
    os.makedirs(home)
    with open(os.path.join(home, "urls.yaml"), "w") as f:
        f.write(f"name: my records\nurl: {list_url}\n")
    urlwatch = [program, "--urls", f"{home}/urls.yaml", "--config", f"{home}/urlwatch.yaml",
                "--hooks", f"{home}/hooks.py", "--cache", f"{home}/cache.db"]
    uenv = dict(os.environ, HOME=home, XDG_CONFIG_HOME=f"{home}/config", XDG_CACHE_HOME=f"{home}/cache")
    open(f"{home}/hooks.py", "w").close()
    measured(urlwatch, uenv)  # writes its default configuration, then the baseline
    measured(urlwatch, uenv)

    ours, theirs = [], []
    for _ in range(RUNS):
        ours.append(measured(check, env)[:2])
        theirs.append(measured(urlwatch, uenv)[:2])
    t_cpu, t_rss = statistics.median(c for c, _ in ours), statistics.median(r for _, r in ours)
    u_cpu, u_rss = statistics.median(c for c, _ in theirs), statistics.median(r for _, r in theirs)
    print(f"side by side with {version}, {len(records)} assigned records of {RECORDS} ({len(body) / 1e6:.2f} MB as "
          f"one JSON list), medians of {RUNS} alternating runs, nothing changed:", flush=True)
    print(f"  trackwatch check: {t_cpu * 1000:6.1f} ms CPU, peak RSS {t_rss:5.1f} MB "
          f"(range {min(c for c, _ in ours) * 1000:.0f}–{max(c for c, _ in ours) * 1000:.0f} ms)")
    print(f"  urlwatch:         {u_cpu * 1000:6.1f} ms CPU, peak RSS {u_rss:5.1f} MB "
          f"(range {min(c for c, _ in theirs) * 1000:.0f}–{max(c for c, _ in theirs) * 1000:.0f} ms)")
    print(f"  trackwatch uses {u_cpu / t_cpu:.1f}x less CPU and {u_rss / t_rss:.1f}x less peak memory than urlwatch")
finally:
    sim.terminate()
    sim.wait()
    bench.close()
