#!/usr/bin/env python3
"""On the GPU, under compute-sanitizer: memcheck and initcheck over the
variant tests (every variant; types, ops, odd n, blockDims and unaligned
starts sampled), racecheck through `run --check race` on every GPU variant
(hazards exactly where the catalogue says the step is racy), `--check memory`
clean on a sample and catching a real fault at its source line, and the
message where compute-sanitizer is missing. Skips (77) only without a
driver or device."""
import json
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import EXE, Checks, run, skip_without_gpu  # noqa: E402
from tuitest import Tmux  # noqa: E402

skip_without_gpu()
SRC = os.environ["REDSCOPE_SOURCE"]
check = Checks("test_gpu_sanitize")
san = shutil.which("compute-sanitizer") or "/usr/local/cuda/bin/compute-sanitizer"
check(os.access(san, os.X_OK), f"compute-sanitizer is installed ({san})")

# 1. memcheck and initcheck over the variant tests, sampled
for tool in ("memcheck", "initcheck"):
    t0 = time.time()
    p = subprocess.run([san, "--tool", tool, "--error-exitcode", "9", "--print-limit", "20",
                        os.environ["TEST_GPU_VARIANTS"]], capture_output=True, text=True,
                       timeout=900, env=dict(os.environ, RS_TEST_SAMPLE="7"))
    tail = "\n".join(p.stdout.splitlines()[-4:])
    print(f"{tool} over test_gpu_variants (sample 7): exit {p.returncode} in "
          f"{time.time() - t0:.0f} s\n{tail}")
    check(p.returncode == 0 and "ERROR SUMMARY: 0 errors" in p.stdout,
          f"{tool}: no error in the variant tests:\n{p.stdout[-3000:]}{p.stderr[-1000:]}")

# 2. racecheck on every GPU variant: hazards exactly on the steps labelled racy
variants = json.loads(run("variants", "--format", "json")[1])
print("racecheck, n 100,003, int32 sum:")
for v in variants:
    if v["id"] in ("cpu", "kernel"):  # user kernels: below
        continue
    rc, out, err = run("run", "--variant", v["id"], "--n", "100003", "--check", "race",
                       "--format", "json")
    # exit 9 when the check finds hazards, 0 when it finds none
    c = json.loads(out)["check"] if rc in (0, 9) else {}
    print(f"  {v['id']:22} {c.get('total', '-'):>8} hazards")
    check(rc in (0, 9) and c["ran"], f"{v['id']}: --check race ran: {rc} {err}")
    check(rc == (9 if v["racy"] else 0) and (c["total"] > 0) == v["racy"],
          f"{v['id']}: exit {rc}, hazards {c.get('total')} but racy is {v['racy']}")
    if rc == 9 and v["racy"]:
        check(all(f["file"] == "classic.cu" and f["line"] > 0 for f in c["findings"]),
              f"{v['id']}: every hazard at a line of classic.cu: {c['findings']}")
        check(c["sentence"].startswith("The result is right on this GPU, but threads of one "
                                       "warp read shared memory") or c["correct"] != 1,
              f"{v['id']}: the sentence: {c['sentence']}")

# 3. the command of the issue, as a user types it (default n)
for v in ("unroll_warp_volatile", "unroll_warp"):
    t0 = time.time()
    rc, out, err = run("run", "--variant", v, "--check", "race")
    print(f"$ redscope run --variant {v} --check race   ({time.time() - t0:.0f} s)\n{out}")
    racy = v == "unroll_warp_volatile"
    check(rc == (9 if racy else 0) and ("hazards on lines" in out) == racy,
          f"{v} --check race: {rc} {out} {err}")
    if v == "unroll_warp_volatile":
        check("vs[tid] = op(vs[tid], vs[tid + 16]);" in out, "the racing line's text is shown")

# 4. --check memory: clean on a sample, odd n and small types included
for args in (["--variant", "vectorized", "--type", "float16", "--op", "max", "--n", "1000003"],
             ["--variant", "cub", "--type", "float64", "--n", "33"],
             ["--variant", "warp_shuffle", "--type", "int64", "--op", "min", "--block", "96",
              "--n", "65537"],
             # the shipped user kernels (conf/kernels), every finish
             ["--kernel", os.path.join(SRC, "conf/kernels/template.cu"), "--type", "float16",
              "--op", "max", "--n", "1000003"],
             ["--kernel", os.path.join(SRC, "conf/kernels/template.cu"), "--finish",
              "single_pass", "--n", "65537"],
             ["--kernel", os.path.join(SRC, "conf/kernels/fast.cu"), "--type", "float64",
              "--n", "1000003"],
             ["--kernel", os.path.join(SRC, "conf/kernels/fast.cu"), "--finish", "atomic",
              "--type", "int64", "--op", "min", "--block", "96", "--n", "65537"]):
    rc, out, err = run("run", *args, "--check", "memory")
    check(rc == 0 and "No invalid or uninitialized device-memory access" in out,
          f"--check memory {' '.join(args)}: {rc} {out} {err}")

# 5. a real fault (the test-only switch): memcheck names the kernel's line
rc, out, err = run("run", "--variant", "sequential", "--n", "4096", "--check", "memory",
                   env={"REDSCOPE_TEST_FAULT": "1"})
print(f"$ REDSCOPE_TEST_FAULT=1 redscope run --variant sequential --n 4096 --check memory\n{out}")
check(rc == 9 and "bandwidth.cu:" in out and "Invalid __global__ write" in out,
      f"--check memory on a faulting kernel: {rc} {out} {err}")

# 6. the explorer: x on the racy step quotes racecheck in Why; on the next, none
t = Tmux(f"{EXE} --n 2^20", cols=140, rows=44,
         env={"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color"})
try:
    t.wait_for("counters default", 60)
    t.keys("Down", "Down", "x")
    s = t.wait_for("hazards on lines", 120) or t.screen()
    print(s)
    check("racecheck (n 2^20): The result is right on this GPU" in s.replace("\n", " ")
          or "racecheck (n 2^20)" in s, "x: the Why panel quotes racecheck's finding")
    t.keys("Down", "x")
    s = t.wait_for("No shared-memory hazard", 120) or t.screen()
    check("No shared-memory hazard" in s, "x on unroll_warp: no hazard, said")
    t.keys("q")
    if t.wait_for("q again", 2):
        t.keys("q")
    check(t.exit_code(30) == 0, "the explorer quits after checks")
finally:
    t.close()

# 7. without compute-sanitizer: said, with how to get it
rc, out, err = run("run", "--variant", "sequential", "--check", "race",
                   env={"PATH": "/usr/bin:/bin", "CUDA_HOME": "/nonexistent"})
check(rc == 2 and "needs compute-sanitizer" in err and "PATH" in err,
      f"--check without compute-sanitizer: {rc} {err!r}")
check.finish()
