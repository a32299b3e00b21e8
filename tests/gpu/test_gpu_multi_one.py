#!/usr/bin/env python3
"""The multi-GPU paths on any GPU machine, one GPU enough. The split: with
the test-only REDSCOPE_TEST_SPLIT, a one-GPU request runs through split.c
over one GPU (docs/architecture.md). Its gate and ungated warm-up, its events,
every cross-GPU finish (host, p2p, nccl: ncclReduce over one rank), the
check against the CPU reference, the counters read on the share, a fault
and the next run, and a recording replayed. Right for int32 sums and
maxima (exact) and float32 and float64 sums (within tolerance) at n = 1,
31, 2^20+7 and 2^28. The all-reduce over one GPU: every algorithm exact,
busbw 0 (2(G-1)/G), one process of one rank alike, what a waiting rank
finds at the rendezvous path after its wait named (nothing, a past job's
file, another program's file; a folder, a FIFO or a link is refused before
the wait, in test_hostile.py; unreadable is not tried: as root it reads),
and nccl-tests' time beside ours where .nccl-tests is built. What needs two GPUs (peer copies,
NCCL between ranks, the shares' split) is tests/gpu/test_gpu_split.py and
test_gpu_allreduce.py. Skips (77) without a CUDA device."""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import EXE, Checks, run, skip_without_gpu  # noqa: E402

skip_without_gpu()
check = Checks("test_gpu_multi_one")
SPLIT = {"REDSCOPE_TEST_SPLIT": "1"}


def split_run(*args, env=None):
    rc, out, err = run("run", "--reps", "3", "--warmup", "1", *args, "--format", "json",
                       env={**SPLIT, **(env or {})}, timeout=300)
    return rc, (json.loads(out) if rc == 0 and out.strip().startswith("{") else {}), err


def check_split(res, n, cross, what):
    m = res.get("gpus", {})
    shares = m.get("shares", [])
    t = res.get("time_ms", {}).get("median", 0)
    check(m.get("count") == 1 and m.get("cross_finish") == cross and len(shares) == 1
          and shares[0]["offset"] == 0 and shares[0]["count"] == n,
          f"{what}: went through the split, one share of all {n}: {m}")
    check(t > 0 and 0 < m.get("slowest_gpu_ms", 0) <= t and 0 <= m.get("finish_ms", -1) <= t,
          f"{what}: the GPU's own time and the finish within the whole {t}: {m}")


for t, op in (("int32", "sum"), ("int32", "max"), ("float32", "sum"), ("float64", "sum")):
    for n in (1, 31, (1 << 20) + 7, 1 << 28):
        for cross in ("host", "p2p", "nccl"):
            what = f"{t} {op} n {n} {cross}"
            rc, res, err = split_run("--variant", "vectorized", "--type", t, "--op", op,
                                     "--n", str(n), "--cross", cross)
            check(rc == 0 and res.get("correct"),
                  f"{what}: right: {rc} {res.get('result')} {res.get('expected')} {err[-300:]}")
            check_split(res, n, cross, what)
            if n == 1 << 28 and t == "int32" and op == "sum":
                print(f"{what}: {res['time_ms']['median']:.3f} ms, finish "
                      f"{res['gpus']['finish_ms'] * 1000:.1f} us")

for args in (("--variant", "cub"), ("--variant", "sequential", "--finish", "atomic")):
    rc, res, err = split_run(*args, "--n", str((1 << 20) + 7), "--cross", "nccl")
    check(rc == 0 and res.get("correct"), f"{' '.join(args)}: right: {rc} {err[-300:]}")
    check_split(res, (1 << 20) + 7, "nccl", " ".join(args))

# the counters read on the share: DRAM read about its bytes
rc, res, err = split_run("--variant", "vectorized", "--n", "2^26", "--metrics")
shares = res.get("gpus", {}).get("shares", [])
rd = [s.get("metrics", {}).get("dram_read", 0) / (s["count"] * 4) for s in shares]
check(len(rd) == 1 and 0.9 < rd[0] < 1.2, f"the share's counters: DRAM read its bytes: {rd} {err}")
row = res.get("metrics", {}).get("values", {}).get("dram_read", {}).get("value")
check(row is not None and row == shares[0].get("metrics", {}).get("dram_read"),
      f"the row's counters are GPU 0's: {row} {shares}")

# a fault inside the split (N@0: on its GPU 0, after its input and plans are
# made): that run says so, the next (a fresh GPU process) is right
rc, out, err = run("ladder", "--variants", "vectorized,cub,warp_shuffle", "--cross", "p2p",
                   "--n", "2^20", "--format", "json", env={**SPLIT, "REDSCOPE_TEST_FAULT": "2@0"},
                   timeout=180)
rows = json.loads(out)["rows"] if out.strip().startswith("{") else []
check(len(rows) == 3 and rows[0].get("correct") and "error" in rows[1] and rows[2].get("correct")
      and rows[2].get("gpus", {}).get("count") == 1,
      f"a fault: its row says so, the next runs through the split again, right: {rc} {rows}")

with tempfile.TemporaryDirectory() as d:  # recorded and replayed alike
    rec = os.path.join(d, "one.jsonl")
    args = ("ladder", "--variants", "vectorized,cub", "--cross", "nccl", "--n", "2^24", "--reps",
            "5")
    rc, live, err = run(*args, "--record", rec, env=SPLIT)
    rc2, again, err2 = run(*args, "--replay", rec)
    check(rc == 0 and rc2 == 0 and again == live, f"replayed the same: {err} {err2}\n{live}\n{again}")

# the all-reduce over one GPU: every algorithm exact, busbw 0
SIZES = ("--range", "1,31,2^20+7,2^28", "--reps", "3", "--warmup", "1", "--format", "json")
rc, out, err = run("allreduce", "--gpus", "1", "--algo", "all", *SIZES)
pts = json.loads(out)["points"] if rc == 0 else []
nvl = [p.get("nvlink_tx_bytes") for p in pts]
print("NVLink counters on one GPU:", "none" if all(v is None for v in nvl) else nvl)
check(all(v is None for v in nvl) or all(v is not None and v < 0.01 * p["bytes"] + 4096
                                         for v, p in zip(nvl, pts)),
      f"one GPU: NVLink counters on every point or none, and nothing crosses: {nvl}")
check(len(pts) == 16 and not any(p["wrong"] for p in pts)
      and all(p["busbw_gbps"] == 0 and p["algbw_gbps"] > 0 for p in pts),
      f"all-reduce over one GPU: 4 algorithms x 4 sizes exact, busbw 0: {rc} {err[-300:]}")
with tempfile.TemporaryDirectory() as d:  # one process of one rank, through the rendezvous
    rv = os.path.join(d, "nccl.id")
    p = subprocess.run([EXE, "allreduce", "--rank", "0", "--ranks", "1", "--rendezvous", rv,
                        "--algo", "nccl,ring", *SIZES], capture_output=True, text=True,
                       timeout=300)
    got = json.loads(p.stdout)["points"] if p.returncode == 0 else []
    check(len(got) == 8 and not any(q["wrong"] for q in got) and not os.listdir(d),
          f"--ranks 1: 8 exact points, the rendezvous files removed: {p.returncode} "
          f"{p.stderr[-300:]} {os.listdir(d)}")


def rank1(rv, timeout="1"):
    """Rank 1 of 2 on this GPU, waiting at rv.nccl for rank 0, which never comes."""
    p = subprocess.run([EXE, "allreduce", "--rank", "1", "--ranks", "2", "--rendezvous", rv,
                        "--algo", "nccl", "--n", "2^10"], capture_output=True, text=True,
                       timeout=120, env={**os.environ, "REDSCOPE_RENDEZVOUS_TIMEOUT": timeout})
    return p.returncode, p.stderr


with tempfile.TemporaryDirectory() as d:  # what a waiting rank finds at the path, named
    rc, err = rank1(os.path.join(d, "none.id"))
    check(rc == 7 and "no rendezvous in" in err and "after 1 s" in err,
          f"nothing at the path: the wait ends at its bound, exit 7: {rc} {err[-300:]}")
    old = os.path.join(d, "old.id.nccl")
    with open(old, "wb") as f:
        f.write(b"x" * 128)
    os.utime(old, (1, 1))
    rc, err = rank1(os.path.join(d, "old.id"))
    check(rc == 7 and "older than this rank" in err, f"a past job's file: {rc} {err[-300:]}")
    with open(os.path.join(d, "short.id.nccl"), "wb") as f:
        f.write(b"x" * 5)
    rc, err = rank1(os.path.join(d, "short.id"))
    check(rc == 7 and "holds 5 bytes" in err, f"another program's file: {rc} {err[-300:]}")

with tempfile.TemporaryDirectory() as d:  # Ctrl-C while rank 0 waits in NCCL for rank 1
    p = subprocess.Popen([EXE, "allreduce", "--rank", "0", "--ranks", "2", "--rendezvous",
                          os.path.join(d, "job.id"), "--algo", "nccl", "--n", "2^10"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(6)  # published; inside ncclCommInitRank, which never returns alone
    waiting = p.poll() is None
    t0 = time.time()
    p.send_signal(signal.SIGINT)
    try:
        out, err = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
    took = time.time() - t0
    check(waiting and p.returncode == 130 and took < 10 and "interrupted" in err,
          f"Ctrl-C ends a rank stuck in NCCL within seconds, exit 130: waiting {waiting}, "
          f"exit {p.returncode} after {took:.1f} s: {err[-300:]}")

NT = os.environ.get("RS_NCCL_TESTS") or os.path.join(os.environ["REDSCOPE_SOURCE"], ".nccl-tests")
if os.path.exists(os.path.join(NT, "all_reduce_perf")):
    rc, out, err = run("allreduce", "--gpus", "1", "--algo", "nccl", "--range", "2^10..2^28:16",
                       "--nccl-tests", NT, "--format", "json", timeout=300)
    pts = json.loads(out)["points"] if rc == 0 else []
    big = pts[-1] if pts else {}
    print("nccl-tests beside:", [(p["bytes"], round(1000 * p["time_mean_ms"], 1),
                                  round(1000 * p.get("nccl_tests_time_ms", 0), 1)) for p in pts])
    check(len(pts) == 5 and all(p.get("nccl_tests_time_ms", 0) > 0 for p in pts)
          and abs(big["time_mean_ms"] / big["nccl_tests_time_ms"] - 1) < 0.15,
          f"nccl-tests' time beside each point; at 256 MiB within 15% of ours: {rc} {err[-300:]}")
else:
    print(f"nccl-tests not built ({NT}): not compared")

check.finish()
