"""What the Python tests share: running redscope and counting checks."""
import os
import subprocess
import sys

EXE = os.environ["REDSCOPE"]


class Checks:
    def __init__(self, name):
        self.name = name
        self.failures = []
        self.count = 0

    def __call__(self, cond, what):
        self.count += 1
        if not cond:
            self.failures.append(what)
            print("FAIL:", what, file=sys.stderr)

    def finish(self):
        print(f"{self.name}: {self.count} checks, {len(self.failures)} failed")
        sys.exit(1 if self.failures else 0)


def run(*args, env=None, timeout=600):
    """(exit code, stdout, stderr) of redscope with args."""
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.run([EXE, *args], capture_output=True, text=True, env=e, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def skip_without_gpu():
    rc, out, err = run("devices")
    if rc != 0:
        print("skipped:", err.strip())
        sys.exit(77)
    return out
