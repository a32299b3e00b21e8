#!/usr/bin/env python3
"""The paths over several GPUs, on any GPU machine: the test-only
REDSCOPE_TEST_GPUS=K counts K GPUs, every one CUDA device 0
(docs/architecture.md), each with its own engine, stream, share and events.
So what differs from one GPU runs where one is lent: uneven shares (K = 3),
the host finish adding K partials, the p2p finish's tree of copies and
adds over K, each GPU's counters on its own share, a fault on the last
GPU and the run after it, the ladder over GPUs recorded and replayed, the
explorer's GPU count (G up to K) and header, and the all-reduce's ring over
K (chunks with remainders). Right for int32 sums and maxima (exact) and
float32 and float64 sums (within tolerance) at n = 1, 31, 2^20+7 and 2^28.
NCCL refuses GPUs that are one device, and says so. Not a measurement:
the K "GPUs" share one GPU's SMs and memory. Skips (77) without a CUDA
device."""
import json
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import EXE, Checks, run, skip_without_gpu  # noqa: E402
from tuitest import Tmux, run_row, status_line  # noqa: E402

skip_without_gpu()
check = Checks("test_gpu_multi_virtual")
K = 3
VIRT = {"REDSCOPE_TEST_GPUS": str(K)}
QUICK = ("--reps", "3", "--warmup", "1", "--format", "json")


def split_of(n, g, i):
    q, r = divmod(n, g)
    return i * q + min(i, r), q + (1 if i < r else 0)


def ladder(*args, env=None):
    rc, out, err = run("ladder", "--gpus", str(K), *args, *QUICK, env={**VIRT, **(env or {})},
                       timeout=300)
    return rc, (json.loads(out)["rows"] if out.strip().startswith("{") else []), err


def check_finish(row, n, what):
    m = row.get("gpus", {})
    shares = m.get("shares", [])
    want = [split_of(n, K, g) for g in range(K)]
    got = [(s["offset"], s["count"]) for s in shares]
    t = row.get("time_ms", {}).get("median", 0)
    check(row.get("correct"), f"{what}: right: {row.get('result')} {row.get('expected')} "
          f"{row.get('error', '')}")
    check(m.get("count") == K and got == want,
          f"{what}: {K} shares of {n}, the remainder on the first: {got} (want {want})")
    check(t > 0 and 0 <= m.get("finish_ms", -1) <= t and 0 < m.get("slowest_gpu_ms", 0) <= t,
          f"{what}: the slowest GPU and the finish within the whole {t}: {m}")
    empty = [s["ms"] for s in shares if s["count"] == 0]
    check(all(ms == 0 for ms in empty), f"{what}: a GPU without elements has no time: {shares}")


for t, op in (("int32", "sum"), ("int32", "max"), ("float32", "sum"), ("float64", "sum")):
    for n in (1, 31, (1 << 20) + 7, 1 << 28):
        what = f"{t} {op} n {n}"
        rc, rows, err = ladder("--variants", "vectorized", "--type", t, "--op", op, "--n", str(n))
        check(rc == 0 and len(rows) == 4, f"{what}: 1 GPU and 3 finishes: {rc} {err[-300:]}")
        if len(rows) != 4:
            continue
        check(rows[0].get("correct") and rows[0].get("request", {}).get("gpus") == 1,
              f"{what}: the one-GPU row first, right: {rows[0].get('error')}")
        for row, cross in zip(rows[1:3], ("host", "p2p")):
            check(row.get("gpus", {}).get("cross_finish") == cross, f"{what}: {cross}'s row")
            check_finish(row, n, f"{what} {cross}")
        check(f"NCCL needs {K} distinct GPUs" in rows[3].get("error", ""),
              f"{what}: NCCL refuses GPUs that are one device: {rows[3].get('error')}")

for args in (("--variants", "cub"), ("--variants", "sequential", "--finish", "atomic")):
    rc, rows, err = ladder(*args, "--cross", "p2p", "--n", str((1 << 20) + 7))
    check(rc == 0 and len(rows) == 2, f"{' '.join(args)}: 1 GPU and p2p: {rc} {err[-300:]}")
    for row in rows[1:]:
        check_finish(row, (1 << 20) + 7, " ".join(args) + " p2p")

# every GPU's counters on its own share: DRAM read about its bytes
rc, out, err = run("run", "--variant", "vectorized", "--gpus", str(K), "--n", "2^26+1",
                   "--metrics", "--format", "json", env=VIRT, timeout=300)
shares = json.loads(out)["gpus"]["shares"] if rc == 0 else []
rd = [s.get("metrics", {}).get("dram_read", 0) / (s["count"] * 4) for s in shares]
check(len(rd) == K and all(0.9 < x < 1.2 for x in rd),
      f"each GPU's counters: DRAM read about its share's bytes: {rd} {err[-300:]}")
rc, out, err = run("run", "--variant", "vectorized", "--gpus", str(K), "--n", "1", "--metrics",
                   "--format", "json", env=VIRT, timeout=300)
shares = json.loads(out)["gpus"]["shares"] if rc == 0 else []
check(len(shares) == K and "metrics" in shares[0] and not any("metrics" in s for s in shares[1:]),
      f"n 1: only the GPU with an element has counters: {shares} {err[-300:]}")

# a fault on the last GPU in the first run over the GPUs (host): that row
# says so; the next rows, on fresh contexts, are right (one context here:
# which GPU is blamed is test_gpu_split's, on several)
rc, rows, err = ladder("--variants", "vectorized", "--n", "2^20",
                       env={"REDSCOPE_TEST_FAULT": f"2@{K - 1}"})
check(len(rows) == 4 and rows[0].get("correct")
      and "illegal memory access" in rows[1].get("error", "") and rows[2].get("correct"),
      f"a fault on GPU {K - 1}: its row errs, the next is right: "
      f"{[(r.get('correct'), r.get('error', '')[:60]) for r in rows]} {err[-300:]}")

# more GPUs than counted, and --gpus 0 for every one
rc, out, err = run("run", "--variant", "vectorized", "--gpus", str(K + 1), "--n", "2^20", env=VIRT)
check(rc == 4 and f"needs {K + 1}; this machine has {K}" in err, f"--gpus {K + 1}: {rc} {err}")
rc, out, err = run("run", "--variant", "vectorized", "--gpus", "0", "--cross", "p2p", "--n", "2^20",
                   "--format", "json", env=VIRT)
check(rc == 0 and json.loads(out)["gpus"]["count"] == K, f"--gpus 0 spans all {K}: {rc} {err}")

with tempfile.TemporaryDirectory() as d:  # the ladder over the GPUs, recorded and replayed
    rec = os.path.join(d, "virt.jsonl")
    args = ("ladder", "--gpus", str(K), "--variants", "vectorized,cub", "--n", "2^26", "--reps",
            "5")
    rc, live, err = run(*args, "--record", rec, env=VIRT, timeout=300)
    rc2, again, err2 = run(*args, "--replay", rec)
    print(live)
    check(rc == 0 and re.search(r"[x\u00d7]\d[\d.]* the ideal", live)
          and f"{K} GPUs" in live,
          f"the ladder over {K} GPUs with its footer: {rc} {err[-300:]}")
    check(rc2 == 0 and again == live, f"its recording replays the same table: {err2}\n{again}")

# the all-reduce's ring by hand over K, then 4 (even): exact on every GPU
for gpus, t, op in ((K, "int32", "sum"), (K, "int32", "max"), (K, "float32", "sum"),
                    (K, "float64", "sum"), (4, "int32", "sum")):
    rc, out, err = run("allreduce", "--gpus", str(gpus), "--algo", "peer_ring", "--type", t,
                       "--op", op, "--range", "1,31,2^20+7,2^28", *QUICK,
                       env={"REDSCOPE_TEST_GPUS": str(gpus)}, timeout=300)
    pts = json.loads(out).get("points", []) if rc == 0 else []
    g = gpus
    check(len(pts) == 4 and not any(p["wrong"] for p in pts)
          and all(abs(p["busbw_gbps"] - p["algbw_gbps"] * 2 * (g - 1) / g)
                  <= 1e-6 * p["algbw_gbps"] + 1e-9 for p in pts),
          f"peer ring over {g}, {t} {op}: 4 sizes exact, busbw = algbw x 2(G-1)/G: "
          f"{[(p['n'], p['wrong']) for p in pts]} {rc} {err[-300:]}")
rc, out, err = run("allreduce", "--gpus", str(K), "--algo", "nccl", "--n", "2^20", env=VIRT)
check(rc != 0 and f"NCCL needs {K} distinct GPUs" in err,
      f"NCCL's all-reduce refuses GPUs that are one device: {rc} {err.strip()}")

# the explorer: G steps the GPU count up to the K counted, then back to one;
# the header names them; a run over them says its slowest GPU and finish
t = Tmux(f"{EXE} --cross p2p", cols=160, rows=40,
         env={**VIRT, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color"})
try:
    check(t.wait_for(" SMs ", 60) is not None, "the explorer starts, the GPU's facts read")
    seen = []
    for want in [f"{g} GPUs: n split evenly" for g in range(2, K + 1)] + ["one GPU"]:
        t.keys("G")
        seen.append(t.wait_for(want, 10) is not None and want in status_line(t.screen()))
    check(all(seen), f"G: 2 to {K} GPUs, then one again: {seen}", t.screen())
    t.keys(*["G"] * (K - 1))
    s = t.screen()
    check(f"{K} GPUs, p2p" in (s.splitlines() or [""])[0], "the header names the GPUs", s)
    s = run_row(t, 8, "slowest GPU")  # sequential, 8 rows down: vectorized
    check("slowest GPU" in s and "finish" in s and "CUDA device 0" in (s.splitlines() or [""])[0],
          "a run over the GPUs: the slowest GPU, the finish, and what the GPUs are", s)
    print(s)
    t.keys("q")
    check(t.exit_code() == 0 and t.terminal_restored(), "q quits, the terminal restored")
finally:
    t.close()

check.finish()
