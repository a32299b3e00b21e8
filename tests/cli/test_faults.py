#!/usr/bin/env python3
"""Faults survived without a GPU: a recording that hits RLIMIT_FSIZE (a full
disk) leaves no file behind and never a half one over an old one; SIGTERM
and SIGHUP during a batch run keep what was measured in a whole recording;
a signal during a preset save never leaves a temporary file or half a
preset."""
import glob
import json
import os
import random
import resource
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import EXE, Checks, run  # noqa: E402

check = Checks("test_faults")
tmp = tempfile.mkdtemp(prefix="rs_faults_")
demo = os.path.join(os.environ["REDSCOPE_SOURCE"], "conf", "recordings", "h200-demo.jsonl")


def limited(limit, *args):
    def cap():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    p = subprocess.run([EXE, *args], capture_output=True, text=True, preexec_fn=cap, timeout=120)
    return p.returncode, p.stdout, p.stderr


def leftovers(path):
    """Temporary files a write left beside path (formats/files.c names them .NAME.XXXXXX)."""
    d, name = os.path.split(path)
    return glob.glob(os.path.join(d, "." + name + ".*")) + glob.glob(path + ".*")


# A full disk while recording: refused with why, nothing left, the old file kept.
rec = os.path.join(tmp, "full.jsonl")
rc, out, err = limited(100, "run", "--variant", "cpu", "--n", "1000", "--record", rec)
check(rc == 7 and "File too large" in err, f"the header does not fit: exit {rc} {err!r}")
check(not os.path.exists(rec) and not leftovers(rec), f"nothing left: {os.listdir(tmp)}")
with open(rec, "w") as f:
    f.write("OLD\n")
rc, out, err = limited(3000, "ladder", "--replay", demo, "--record", rec, "--force")
check(rc == 7 and "File too large" in err, f"rows do not fit: exit {rc} {err!r}")
check(open(rec).read() == "OLD\n" and not leftovers(rec),
      "a recording that failed leaves the old file as it was")

# SIGTERM and SIGHUP during a long batch run's first row: exit 130, and with
# nothing measured nothing written (an old file would stay as it was).
for sig in (signal.SIGTERM, signal.SIGHUP):
    rec = os.path.join(tmp, f"sig{int(sig)}.jsonl")
    p = subprocess.Popen([EXE, "ladder", "--variants", "cpu", "--n", "2^27", "--reps", "200",
                          "--record", rec], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    time.sleep(1.5)
    p.send_signal(sig)
    out, err = p.communicate(timeout=60)
    check(p.returncode == 130 and "interrupted" in err,
          f"{sig.name}: exit {p.returncode}, says so: {err!r}")
    check(not os.path.exists(rec) and "not written" in err and not leftovers(rec),
          f"{sig.name}: no row, no recording, no temporary file: {err!r} {os.listdir(tmp)}")

# A signal at any moment of a preset save: the old preset or the new one, whole.
cfg = os.path.join(tmp, "cfg")
env = dict(os.environ, XDG_CONFIG_HOME=cfg)
subprocess.run([EXE, "run", "--variant", "cpu", "--n", "1000", "--save-preset", "p"], env=env,
               capture_output=True, timeout=60)
path = os.path.join(cfg, "redscope", "presets", "p.ini")
check(os.path.exists(path), f"the preset is saved: {path}")
random.seed(7)
broken = []
for i in range(40):
    p = subprocess.Popen([EXE, "run", "--variant", "cpu", "--n", str(1000 + i), "--save-preset",
                          "p", "--force"], env=env, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    time.sleep(random.uniform(0.0, 0.03))
    p.send_signal(random.choice((signal.SIGTERM, signal.SIGHUP, signal.SIGINT)))
    p.wait(timeout=60)
    text = open(path).read() if os.path.exists(path) else ""
    if not text.endswith("\n") or "[run]" not in text or leftovers(path):
        broken.append((i, len(text), leftovers(path)))
check(not broken, f"40 saves under signals: always a whole preset, no temporary file: {broken}")
check.finish()
