#!/usr/bin/env python3
"""One GPU of a node starts one GPU (issue 44): a run, a ladder and
`metrics` on device d start their GPU process with CUDA_VISIBLE_DEVICES
naming d's UUID alone, and that UUID is the one CUDA gives device d with
every GPU visible (read here through the driver API, not through
redscope); the result still says device d. CUDA_VISIBLE_DEVICES set by the
user (an index, a UUID) is honoured; REDSCOPE_EVERY_GPU=1 keeps every GPU
visible; `--gpus 2`, `devices` and the explorer's second GPU still reach
every GPU. With one GPU: nothing narrowed, the run as before. Skips (77)
without a CUDA device."""
import ctypes
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import EXE, Checks, run, skip_without_gpu  # noqa: E402
from tuitest import Tmux, run_row  # noqa: E402

skip_without_gpu()
check = Checks("test_gpu_alone")

UUIDS = r"""
import ctypes, sys
cu = ctypes.CDLL("libcuda.so.1")
assert cu.cuInit(0) == 0
n = ctypes.c_int()
cu.cuDeviceGetCount(ctypes.byref(n))
for i in range(n.value):
    d = ctypes.c_int()
    cu.cuDeviceGet(ctypes.byref(d), i)
    b = (ctypes.c_ubyte * 16)()
    cu.cuDeviceGetUuid_v2(b, d)
    h = bytes(b).hex()
    print(f"GPU-{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}")
"""


def cuda_uuids(visible=None):
    """CUDA's devices in its order, as a process with this CUDA_VISIBLE_DEVICES sees them."""
    env = {k: v for k, v in os.environ.items() if k != "CUDA_VISIBLE_DEVICES"}
    if visible is not None:
        env["CUDA_VISIBLE_DEVICES"] = visible
    p = subprocess.run([sys.executable, "-c", UUIDS], capture_output=True, text=True, env=env,
                       timeout=120)
    return p.stdout.split()


def traced(*args, env=None):
    e = {"REDSCOPE_TRACE": "1"}
    e.update(env or {})
    rc, out, err = run(*args, env=e)
    alone = re.findall(r"gpu process: alone, device (\d+) is (GPU-[0-9a-f-]+)", err)
    every = re.findall(r"gpu process: every GPU visible: (.*)", err)
    return rc, out, err, alone, every


ALL = cuda_uuids()
print(f"CUDA's devices: {ALL}")
check(len(ALL) >= 1, f"the driver API lists the devices: {ALL}")
ONE = ["run", "--variant", "sequential", "--n", "2^20", "--reps", "3", "--format", "json"]

for d in range(min(len(ALL), 4)):
    rc, out, err, alone, every = traced(*ONE, "--device", str(d))
    check(rc == 0, f"device {d}: the run ran: {err[-400:]}")
    dev = json.loads(out)["device"] if rc == 0 else {}
    check(dev.get("index") == d, f"device {d}: the result says device {d}: {dev.get('index')}")
    if len(ALL) >= 2:
        check(alone == [(str(d), ALL[d])],
              f"device {d}: its process sees {ALL[d]} alone: {alone} {every}")
    else:
        check(not alone and every and "one GPU" in every[0],
              f"one GPU here: nothing narrowed: {alone} {every}")

if len(ALL) < 2:
    print("one GPU here: the narrowing has nothing to narrow; the rest needs two")
    check.finish()

# a ladder with counters and `metrics` (the counter facts) alone too
rc, out, err, alone, _ = traced("ladder", "--variants", "sequential,vectorized", "--n", "2^20",
                                "--metrics", "default", "--device", "1")
check(rc == 0 and alone and all(a == ("1", ALL[1]) for a in alone),
      f"ladder --metrics on device 1: alone: {alone} {err[-300:]}")
rc, out, err, alone, _ = traced("metrics", "--device", "1")
check(rc == 0 and alone == [("1", ALL[1])], f"metrics on device 1: alone: {alone} {err[-300:]}")

# the user's CUDA_VISIBLE_DEVICES: one GPU named (an index, a UUID) is kept as it is;
# of two named, device 0 is the first named
for cvd in ("1", ALL[1]):
    rc, out, err, alone, every = traced(*ONE, env={"CUDA_VISIBLE_DEVICES": cvd})
    check(rc == 0 and not alone and every == ["CUDA sees one GPU"],
          f"CUDA_VISIBLE_DEVICES={cvd}: one GPU already, kept: {alone} {every} {err[-300:]}")
    check(cuda_uuids(cvd) == [ALL[1]], f"CUDA agrees: {cvd} is {ALL[1]}")
rc, out, err, alone, every = traced(*ONE, env={"CUDA_VISIBLE_DEVICES": "1,0"})
check(rc == 0 and alone == [("0", ALL[1])], f"CUDA_VISIBLE_DEVICES=1,0: device 0 is {ALL[1]}: "
      f"{alone} {every}")

# opted out
rc, out, err, alone, every = traced(*ONE, env={"REDSCOPE_EVERY_GPU": "1"})
check(rc == 0 and not alone and every == ["REDSCOPE_EVERY_GPU is set"],
      f"REDSCOPE_EVERY_GPU=1: every GPU visible: {alone} {every}")

# several GPUs: every GPU seen, both reached
rc, out, err, alone, every = traced(*ONE[:-2], "--gpus", "2", "--format", "json")
gpus = json.loads(out).get("gpus", {}) if rc == 0 else {}
check(rc == 0 and not alone and gpus.get("count") == 2 and len(gpus.get("shares", [])) == 2,
      f"--gpus 2: both GPUs reached: {gpus} {alone} {every} {err[-300:]}")
rc, out, err = run("devices", "--format", "json")
check(rc == 0 and len(json.loads(out)) == len(ALL), f"devices lists every GPU: {out[:200]}")

# the explorer: starts on its GPU alone, and a run over two GPUs (G) still reaches both
# (--gpus N spans GPUs 0 to N-1: the explorer starts on device 0)
t = Tmux(f"{EXE}", cols=160, rows=40, env={"LANG": "C.UTF-8"})
try:
    s = t.wait_for("GB/s", 90) or t.screen()
    check("NVIDIA" in s, "the explorer's header names the GPU", s)
    s = run_row(t, 3, "µs", 120)
    t.keys("G")
    s = t.wait_for("2 GPUs", 20) or t.screen()
    check("2 GPUs" in s, "G steps to two GPUs: the count is every GPU's, not the one seen", s)
    s = run_row(t, 0, "slowest GPU", 180)
    check("slowest GPU" in s, "a run over two GPUs from a process started on one", s)
finally:
    t.close()
check.finish()
