"""What the simulator checks (check-*-sim.py) share: the binary under test, one line per check, starting the
simulator on a free port, and the closing count. Each check drives a simulator with its tracker's own client
library from PyPI, so that the simulator answers as the tracker does.
"""
import subprocess
import sys

results = {"passed": 0, "failed": 0}


def binary(program):
    """The simulator named on the command line, or the debug build's."""
    return sys.argv[1] if len(sys.argv) > 1 else f".build/debug/{program}"


def check(name, condition, detail=""):
    results["passed" if condition else "failed"] += 1
    print(("ok   " if condition else "FAIL ") + name + ("" if condition else f"  ({detail})"))


def starter(path):
    """`start(*arguments)` for the simulator at `path`: (its process, its origin), once it says where it listens."""
    def start(*arguments):
        process = subprocess.Popen([path, "--port", "0", *arguments], stdout=subprocess.PIPE, text=True)
        line = process.stdout.readline().strip()
        if not line.startswith("listening on "):
            process.kill()
            raise SystemExit(f"{path.rsplit('/', 1)[-1]} did not start: {line!r}")
        return process, line.removeprefix("listening on ")
    return start


def summary():
    """The closing line, and the exit status: 1 when any check failed."""
    print(f"{results['passed']} passed, {results['failed']} failed")
    return 1 if results["failed"] else 0
