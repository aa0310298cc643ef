#!/usr/bin/env python3
"""One daemon watching every kind of tracker at once (issue 33): its CPU per steady poll of all of them, its peak
memory during such a poll (the polls run side by side, so their peaks add), and what it holds while idle between
polls (private memory, `RssAnon`, and PSS). Run by scripts/bench.sh after a release build
(`python3 scripts/bench-all.py BIN`; BENCH_ALL_ONLY=1 scripts/bench.sh runs only this).

Eight local servers on loopback, each seeded at its own benchmark's size (1,000 Compass records; 2 Qase projects x
1,000 items; ~1,000 watched Jira issues; ~500 watched GitHub, GitLab, Forgejo and Azure DevOps items; a JSON list of
BENCH_ALL_JSON_ITEMS items, 1,000 by default: the 10,000-item list is measured on its own by bench-json.py), and one
`trackwatch run` with a table for each. Polls are made by SIGUSR1 and awaited through the daemon's STATUS= line,
the one that names no poll still under way (each source's poll sends one as it ends).
"""
import os, sys, time

from benchkit import Bench, cpu_seconds, major_faults, mb, proc_status, reset_peak, steady_polls

BIN = sys.argv[1]
POLLS = int(os.environ.get("BENCH_ALL_POLLS", "10"))
JSON_ITEMS = int(os.environ.get("BENCH_ALL_JSON_ITEMS", "1000"))
IDLE_SECONDS = float(os.environ.get("BENCH_ALL_IDLE_SECONDS", "7"))

SERVERS = [
    ("compass-sim", ["--records", "1000", "--owner", "engineer", "--page-size-cap", "100000"]),
    ("qase-sim", ["--cases", "1000", "--defects", "1000"]),
    ("jira-sim", ["--projects", "WEB", "--issues", "1500"]),
    ("github-sim", ["--issues", "620", "--search-rate", "10000"]),  # polls back to back outrun 30 a minute
    ("gitlab-sim", ["--issues", "180", "--merge-requests", "180"]),
    ("forgejo-sim", ["--issues", "330"]),
    ("ado-sim", ["--work-items", "430"]),
    ("json-sim", ["--items", str(JSON_ITEMS), "--other-host", ""]),
]


class AllPolls(Bench):
    def wait_poll(self):
        """The STATUS= line sent when the last source's poll has ended: none is under way."""
        while True:
            message = super().wait_poll()
            if "under way" not in message:
                return message


def smaps_pss(pid):
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            if line.startswith("Pss:"):
                return int(line.split()[1]) / 1024
    return 0.0


TABLES = {
    "compass-sim": '[server]\nurl = "{url}"\nrepo = "2.0.0"\ndatabase = "SAMPL"\nusername = "engineer"\n'
                   'password_file = "{{home}}/password"\n',
    "qase-sim": '[[qase]]\nurl = "{url}/v1"\nemail = "engineer@example.com"\ntoken_file = "{{home}}/qase"\n',
    "jira-sim": '[[jira]]\nurl = "{url}"\nemail = "engineer@example.com"\ntoken_file = "{{home}}/jira"\n',
    "github-sim": '[[github]]\nurl = "{url}"\ntoken_file = "{{home}}/github"\n',
    "gitlab-sim": '[[gitlab]]\nurl = "{url}"\ntoken_file = "{{home}}/gitlab"\n',
    "forgejo-sim": '[[forgejo]]\nurl = "{url}"\ntoken_file = "{{home}}/forgejo"\n',
    "ado-sim": '[[azure_devops]]\nurl = "{url}/acme"\ntoken_file = "{{home}}/ado"\n',
    "json-sim": '[[json]]\nname = "list"\nurl = "{url}/list/bare"\ntitle = "{{title}}"\nby = "updated_by"\n'
                'ignore = ["meta"]\n',
}
# BENCH_ALL_KINDS="compass-sim jira-sim": only those (to see what one kind adds).
KINDS = os.environ.get("BENCH_ALL_KINDS", " ".join(TABLES)).split()
SERVERS = [(program, args) for program, args in SERVERS if program in KINDS]


def configuration(urls):
    return "".join(TABLES[program].format(url=url) for program, url in urls.items()) + \
        '[poll]\ninterval = "1h"\npage_size = 10000\n'


SECRETS = {"password": "engineer", "qase": "qase-sim-engineer-token", "jira": "jira-sim-engineer-token",
           "github": "ghp_sim_engineer", "gitlab": "glpat-sim-engineer", "forgejo": "fj_sim_engineer",
           "ado": "adosim-pat-engineer"}

bench = AllPolls(BIN, "trackwatch-bench-all-")
sims, urls = [], {}
try:
    for program, args in SERVERS:
        sim, url = bench.start_sim(program, args)
        sims.append(sim)
        urls[program] = url
    config, env = bench.workspace("all", configuration(urls), secrets=SECRETS)
    daemon = bench.start_daemon(config, env)
    try:
        bench.wait_poll()
        baseline_cpu, baseline_peak = cpu_seconds(daemon.pid), mb(proc_status(daemon.pid), "VmHWM")
        steady_polls(bench, daemon, 2)  # the first delta polls learn ETags and checkpoints
        peaks = []

        def next_peak():
            peaks.append(mb(proc_status(daemon.pid), "VmHWM"))
            reset_peak(daemon.pid)

        reset_peak(daemon.pid)
        faults = major_faults(daemon.pid)
        cpu = steady_polls(bench, daemon, POLLS, per_poll=next_peak)
        faults = (major_faults(daemon.pid) - faults) / POLLS
        time.sleep(IDLE_SECONDS)  # idle as between two polls: memory handed back, the poll's threads ended
        idle = proc_status(daemon.pid)
        pss = smaps_pss(daemon.pid)
        if os.environ.get("BENCH_ALL_SMAPS"):  # where the idle daemon's memory is, for a profile
            with open(f"/proc/{daemon.pid}/smaps") as f, open(os.environ["BENCH_ALL_SMAPS"], "w") as out:
                out.write(f.read())
        if os.environ.get("BENCH_ALL_HOLD"):  # the idle daemon kept for a look (gdb, /proc) that long
            print(f"idle daemon: pid {daemon.pid}", flush=True)
            time.sleep(float(os.environ["BENCH_ALL_HOLD"]))
    finally:
        daemon.terminate()
        daemon.wait()
    print(f"{len(SERVERS)} kinds in one daemon: a steady poll of all {cpu * 1000:.1f} ms CPU (mean of {POLLS}, memory "
          f"release included), peak RSS during it {max(peaks):.1f} MB, {faults:.1f} major faults a poll; idle "
          f"{IDLE_SECONDS:.0f} s after: RssAnon {mb(idle, 'RssAnon'):.1f} MB, PSS {pss:.1f} MB, VmRSS "
          f"{mb(idle, 'VmRSS'):.1f} MB, threads {idle['Threads']}; start-up + baseline {baseline_cpu * 1000:.0f} ms, "
          f"peak {baseline_peak:.1f} MB", flush=True)
finally:
    for sim in sims:
        sim.terminate()
        sim.wait()
    bench.close()
