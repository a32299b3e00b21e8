#!/usr/bin/env python3
"""redscope --version for a bug report (issue 44): the version, the commit
the source was at when built (or `unknown`), the build type, the CUDA
runtime built in, and a line per library found here or why not; the same
as one JSON object (--format json) whose keys are all there, null where a
library is absent; after a command too; quick, and no GPU process started
(no CUDA context: the trace names none)."""
import json
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import Checks, run  # noqa: E402

check = Checks("test_version")
SRC = os.environ["REDSCOPE_SOURCE"]

t0 = time.time()
rc, text, err = run("--version", env={"REDSCOPE_TRACE": "1"})
took = time.time() - t0
lines = text.splitlines()
m = re.match(r"redscope (\d+\.\d+\.\d+) \(commit ([0-9a-f]{7}(-dirty)?|unknown), (\w+) build\)$",
             lines[0] if lines else "")
check(rc == 0 and m, f"first line: version, commit, build type: {rc} {text!r} {err[-200:]}")
check(took < 2.0, f"--version is quick: {took:.2f} s")
check("gpu process" not in err and "CUDA context" not in err,
      f"no GPU process started for --version: {err[-300:]}")
check(any(re.match(r"CUDA runtime \d+\.\d+ \(built in\)$", l) for l in lines),
      f"the CUDA runtime built in: {lines}")
for lib in ("CUDA driver API", "NVIDIA driver", "CUPTI API", "NVRTC"):
    check(any(l.startswith(lib + " ") or l.startswith(lib + ": none found (") for l in lines),
          f"a line for {lib}, its version or why none: {lines}")

rc, out, err = run("--version", "--format", "json")
try:
    j = json.loads(out) if rc == 0 else {}
except ValueError:
    j = None
check(isinstance(j, dict) and j, f"--version --format json: one JSON object: {rc} {out[:200]!r}")
j = j if isinstance(j, dict) else {}
keys = {"version", "commit", "build_type", "cuda_runtime", "cuda_driver", "driver", "cupti",
        "cupti_lib", "nvrtc", "nvrtc_lib"}
check(set(j) == keys, f"--version --format json: every key: {sorted(j)}")
if m:
    check(j.get("version") == m.group(1) and j.get("commit") == m.group(2) and
          j.get("build_type") == m.group(4), f"JSON and text agree: {j}")
for k, lib in (("cuda_driver", "CUDA driver API"), ("cupti", "CUPTI API"), ("nvrtc", "NVRTC")):
    shown = next((l for l in lines if l.startswith(lib)), "")
    check((j.get(k) is None) == ("none found" in shown),
          f"{k}: null exactly where the text says none found: {j.get(k)!r} {shown!r}")
# the toolkit the build used is on this machine: NVRTC and CUPTI load
check(j.get("nvrtc") and j.get("cupti"), f"NVRTC and CUPTI found from the build machine: {j}")

# the commit is the source's, where git can tell
git = subprocess.run(["git", "-C", SRC, "rev-parse", "--short=7", "HEAD"], capture_output=True,
                     text=True)
if git.returncode == 0 and j.get("commit", "unknown") != "unknown":
    check(j["commit"].split("-")[0] == git.stdout.strip() or not os.environ.get("CI"),
          f"the commit built is HEAD: {j['commit']} {git.stdout.strip()}")

rc, out, err = run("run", "--version")
check(rc == 0 and out.splitlines()[:1] == lines[:1], f"after a command too: {out[:100]!r} {err}")
rc, out, err = run("--version", "--format", "bogus")
check(rc == 2 and "bogus" in err, f"an unknown format is refused: {rc} {err}")
rc, out, err = run("--version", "--replay", "x.jsonl")
check(rc == 2 and "--format alone" in err, f"--version takes --format alone: {rc} {err}")
check.finish()
