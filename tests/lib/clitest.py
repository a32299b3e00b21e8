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

    def __call__(self, cond, what, screen=None):
        self.count += 1
        if not cond:
            self.failures.append(what)
            print("FAIL:", what, file=sys.stderr)
            if screen:  # a TUI test shows the screen it read
                print(screen, file=sys.stderr)

    def finish(self):
        print(f"{self.name}: {self.count} checks, {len(self.failures)} failed")
        sys.exit(1 if self.failures else 0)


def run(*args, env=None, timeout=600, cwd=None):
    """(exit code, stdout, stderr) of redscope with args."""
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.run([EXE, *args], capture_output=True, text=True, env=e, timeout=timeout,
                       cwd=cwd)
    return p.returncode, p.stdout, p.stderr


NO_DRIVER, NO_DEVICE = 3, 4


def line_of(path, text):
    """The 1-based line of the source tree's file `path` holding `text` (0: none)."""
    with open(os.path.join(os.environ["REDSCOPE_SOURCE"], path)) as f:
        return next((n for n, l in enumerate(f, 1) if text in l), 0)


def skip_without_gpu():
    """Skip (77) only where there is no NVIDIA driver or no CUDA device;
    any other failure to open the GPU fails the test."""
    rc, out, err = run("devices")
    if rc in (NO_DRIVER, NO_DEVICE):
        print("skipped:", err.strip())
        sys.exit(77)
    if rc != 0:
        print(f"FAIL: 'redscope devices' exited {rc}, not a missing driver or device: {err.strip()}")
        sys.exit(1)
    return out
