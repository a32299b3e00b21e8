#!/usr/bin/env python3
"""A reduction split over several GPUs, on a machine with two or more: the
ladder over the GPUs (one GPU, then the host, p2p and nccl finishes) right
for int32 sums and maxima (exact) and float32 and float64 sums (within
tolerance) at n = 1, 31, 2^20+7 and 2^28; each GPU's share contiguous and
summing to n (n = 1: the second GPU has none and gives the identity); the
finish a part of the whole time; CUB and an atomic finish on each GPU;
--gpus 0 spans every GPU; a recording of the ladder replays the same
table; each GPU's counters read its own share; the explorer's header names the GPUs and their links, and a run's
result its slowest GPU and its finish. Prints the ladder at 2^28 int32 (the issue's benchmark runs
scripts/bench-gpus.sh). Skips (77) without a CUDA device, and with one GPU
(after checking the message that says so)."""
import json
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import EXE, Checks, run, skip_without_gpu  # noqa: E402
from tuitest import Tmux, run_row  # noqa: E402

skip_without_gpu()
check = Checks("test_gpu_split")
rc, out, _ = run("devices", "--format", "json")
gpus = len(json.loads(out)) if rc == 0 else 0
if gpus < 2:
    rc, out, err = run("run", "--variant", "vectorized", "--gpus", "2", "--n", "2^20")
    check(rc == 4 and "a run over 2 GPUs needs 2; this machine has 1" in err, f"one GPU: {rc} {err}")
    if check.failures:
        check.finish()
    print(f"skipped: {gpus} GPU here; a split needs two")
    sys.exit(77)
print(f"NCCL_NVLS_ENABLE={os.environ.get('NCCL_NVLS_ENABLE')}")
G = str(gpus)


def rows_of(*args):
    rc, out, err = run("ladder", "--gpus", G, "--reps", "3", "--warmup", "1", *args,
                       "--format", "json")
    return rc, (json.loads(out)["rows"] if rc == 0 else []), err


def check_rows(rows, n, what):
    check(len(rows) == 4 and all("error" not in r for r in rows),
          f"{what}: 1 GPU + 3 finishes ran: {[r.get('error') for r in rows]}")
    check(all(r.get("correct") for r in rows),
          f"{what}: every row right: {[(r.get('result'), r.get('expected')) for r in rows]}")
    for r in rows[1:]:
        m = r.get("gpus", {})
        shares = m.get("shares", [])
        at = 0
        for s in shares:
            check(s["offset"] == at, f"{what} {m.get('cross_finish')}: shares contiguous {shares}")
            at += s["count"]
        t = r.get("time_ms", {}).get("median", 0)
        check(m.get("count") == gpus and at == n and len(shares) == gpus
              and 0 <= m.get("finish_ms", -1) <= t and 0 < m.get("slowest_gpu_ms", 0) <= t,
              f"{what} {m.get('cross_finish')}: {gpus} shares of {n}, finish within the time: {m}")


for t, op in (("int32", "sum"), ("int32", "max"), ("float32", "sum"), ("float64", "sum")):
    for n in (1, 31, (1 << 20) + 7, 1 << 28):
        rc, rows, err = rows_of("--variants", "vectorized", "--type", t, "--op", op, "--n", str(n))
        check(rc == 0, f"{t} {op} n {n}: exit {rc} {err[-300:]}")
        check_rows(rows, n, f"{t} {op} n {n}")
        if n == 1 and len(rows) == 4:
            shares = rows[1].get("gpus", {}).get("shares", [])
            check(len(shares) > 1 and shares[1]["count"] == 0 and shares[1]["ms"] == 0,
                  f"n 1: the second GPU has no share, and gives the identity: {shares}")

for args in (("--variants", "cub"), ("--variants", "sequential", "--finish", "atomic")):
    rc, rows, err = rows_of(*args, "--n", str((1 << 20) + 7))
    check(rc == 0, f"{' '.join(args)}: exit {rc} {err[-300:]}")
    check_rows(rows, (1 << 20) + 7, " ".join(args))

# a fault on GPU 1 in the first run over the GPUs (the host finish): that row
# says so, and the next rows, on fresh GPU contexts, are right
rc, out, err = run("ladder", "--gpus", G, "--variants", "vectorized", "--n", "2^20", "--format",
                   "json", env={"REDSCOPE_TEST_FAULT": "2@1"}, timeout=180)
rows = json.loads(out)["rows"] if out.strip().startswith("{") else []
print("fault on GPU 1:", [(r["request"]["gpus"], r["request"]["cross_finish"], r.get("error", "")[:80],
                           r.get("correct")) for r in rows])
check(len(rows) == 4 and rows[0].get("correct") and "error" in rows[1]
      and rows[2].get("correct") and rows[3].get("correct"),
      f"a fault on GPU 1: its row says so, the next ones are right: {rc} {err[-300:]}")

# counters per GPU: each reads about its own share from DRAM
rc, out, err = run("run", "--variant", "vectorized", "--gpus", G, "--n", "2^26", "--metrics",
                   "--format", "json")
shares = json.loads(out)["gpus"]["shares"] if rc == 0 else []
rd = [s.get("metrics", {}).get("dram_read", 0) / (s["count"] * 4) for s in shares]
check(len(rd) == gpus and all(0.9 < x < 1.2 for x in rd),
      f"every GPU's counters: DRAM read about its share's bytes: {rd} {err[-300:]}")
rc, out, err = run("run", "--variant", "vectorized", "--gpus", "0", "--cross", "p2p", "--n", "2^24",
                   "--format", "json")
check(rc == 0 and json.loads(out)["gpus"]["count"] == gpus, f"--gpus 0 spans every GPU: {rc} {err}")

with tempfile.TemporaryDirectory() as d:  # the benchmark's ladder, recorded and replayed
    rec = os.path.join(d, "split.jsonl")
    args = ("ladder", "--gpus", G, "--n", "2^28", "--reps", "10")
    rc, live, err = run(*args, "--record", rec)
    print(live)
    check(rc == 0 and re.search(r"[x\u00d7]\d[\d.]* the ideal", live),
          f"ladder at 2^28: {rc} {err}")
    rc, again, err = run(*args, "--replay", rec)
    check(rc == 0 and again == live, f"its recording replays the same table: {rc} {err}\n{again}")

# the explorer over the GPUs: the header names them, their finish and their
# links; a run's result says how long the slowest GPU and the finish took
t = Tmux(f"{EXE} --gpus {G} --cross p2p", cols=160, rows=40,
         env={"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color"})
try:
    s = t.wait_for(f"{G} GPUs, p2p", 60) or t.screen()
    head = (s.splitlines() or [""])[0]
    check(f"{G} GPUs, p2p" in head, "the explorer's header names the GPUs", s)
    s = run_row(t, 8, "slowest GPU")  # sequential, 8 rows down: vectorized
    check(f"{G} GPUs, p2p" in s and "slowest GPU" in s and "finish" in s,
          "a run over the GPUs: the slowest GPU and the finish", s)
    head = (s.splitlines() or [""])[0]
    check("NVLink" in head or "PCIe" in head,
          "after a run the header says how the GPUs are linked", s)
    print(s)
    t.keys("q")
    check(t.exit_code() == 0 and t.terminal_restored(), "q quits, the terminal restored")
finally:
    t.close()

check.finish()
