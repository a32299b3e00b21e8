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


def have_tool(check, name):
    """Whether the tool is on PATH; in CI (CI set) its absence fails the
    check, since build.sh test installs every tool the tests use."""
    import shutil
    if shutil.which(name):
        return True
    check(not os.environ.get("CI"), f"{name} is installed (CI: build.sh test installs it)")
    print(f"skipped the {name} checks: {name} is not installed")
    return False


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


def as_written(a, b):
    """Whether b is a as redscope's JSON writes it: equal, but a figure that
    is exactly a float (a cudaEvent time) may be its shortest decimal."""
    import struct
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(as_written(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(as_written(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, (int, float)) and not isinstance(b, bool):
        def f32(v):
            return struct.unpack("f", struct.pack("f", v))[0]
        return a == b or (f32(a) == a and f32(b) == a)
    return a == b
