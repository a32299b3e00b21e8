#!/usr/bin/env python3
"""The all-reduce over several GPUs (redscope allreduce), on a machine with
two or more: every algorithm (NCCL's choice, its ring and tree, the ring by
hand over peer copies) exact on every GPU for int32, float32 and float64
sums and an int32 maximum, at n = 1, 31, 2^20+7 and 2^28 elements; busbw =
algbw x 2(G-1)/G; one process per GPU (--rank, --ranks, --rendezvous)
gives the same exact results, reported by rank 0; more GPUs than the
machine has is refused with the count. Prints the float32 size sweep (the issue's benchmark). Skips (77)
without a CUDA device, and with one GPU (there is nothing to all-reduce
across)."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import EXE, Checks, run, skip_without_gpu  # noqa: E402

devs = skip_without_gpu()
check = Checks("test_gpu_allreduce")
rc, out, _ = run("devices", "--format", "json")
gpus = len(json.loads(out)) if rc == 0 else 0
if gpus < 2:
    print(f"skipped: {gpus} GPU here; an all-reduce needs two")
    sys.exit(77)
print(f"NCCL_NVLS_ENABLE={os.environ.get('NCCL_NVLS_ENABLE')}")

# A fault on the last GPU at the second size: that point named, the GPU
# process replaced, the sizes before and after it measured and exact.
rc, out, err = run("allreduce", "--gpus", str(gpus), "--algo", "ring", "--range", "2^10..2^14:4",
                   "--reps", "3", "--warmup", "1", "--format", "json",
                   env={"REDSCOPE_TEST_FAULT": f"2@{gpus - 1}"})
pts = json.loads(out).get("points", []) if out.strip().startswith("{") else []
print(f"a fault on GPU {gpus - 1} at the second size: exit {rc},", [(p["n"], p["wrong"]) for p in pts])
check(rc != 0 and [p["n"] for p in pts] == [1024, 16384] and not any(p["wrong"] for p in pts),
      f"the fault survived: the first and last sizes exact: {rc} {out[:300]} {err[-300:]}")
check("ring at n 4,096" in err and "illegal memory access" in err,
      f"the faulted point named with its fault: {err[-300:]}")

for t, op in (("int32", "sum"), ("float32", "sum"), ("float64", "sum"), ("int32", "max")):
    rc, out, err = run("allreduce", "--gpus", str(gpus), "--type", t, "--op", op, "--algo", "all",
                       "--range", "1,31,2^20+7,2^28", "--reps", "3", "--warmup", "1",
                       "--format", "json")
    pts = json.loads(out).get("points", []) if rc == 0 else []
    check(rc == 0 and len(pts) == 16, f"{t} {op}: 4 algorithms x 4 sizes ({rc}: {err[-300:]})")
    bad = [(p["algo"], p["n"], p["wrong"]) for p in pts if p["wrong"]]
    check(not bad, f"{t} {op}: every GPU holds the exact result: {bad}")
    g = gpus
    off = [(p["algo"], p["n"]) for p in pts
           if abs(p["busbw_gbps"] - p["algbw_gbps"] * 2 * (g - 1) / g) > 1e-6 * p["algbw_gbps"] + 1e-9]
    check(not off, f"{t} {op}: busbw = algbw x 2(G-1)/G: {off}")

# one process per GPU, as on several nodes: the same exact results as one process
with tempfile.TemporaryDirectory() as d:
    rv = os.path.join(d, "nccl.id")
    args = ["allreduce", "--ranks", str(gpus), "--rendezvous", rv, "--algo", "nccl,ring",
            "--range", "1,31,2^20+7,2^28", "--reps", "3", "--warmup", "1", "--format", "json"]
    procs = [subprocess.Popen([EXE, *args, "--rank", str(r)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for r in range(gpus)]
    outs = []
    for p in procs:  # a rank that waits forever fails the test, never hangs it
        try:
            outs.append(p.communicate(timeout=120))
        except subprocess.TimeoutExpired:
            for q in procs:
                q.kill()
            outs.append(p.communicate())
    codes = [p.returncode for p in procs]
    pts = json.loads(outs[0][0]).get("points", []) if codes[0] == 0 and outs[0][0] else []
    left = os.listdir(d)
    check(not left, f"rank 0 removes the rendezvous files once every rank has joined: {left}")
    check(codes == [0] * gpus and len(pts) == 8 and not any(p["wrong"] for p in pts)
          and json.loads(outs[0][0]).get("gpus") == gpus and not any(o for o, _ in outs[1:]),
          f"{gpus} processes: rank 0 reports 8 exact points, the others stay quiet: {codes} "
          f"{[e[-200:] for _, e in outs]}")
    for p in pts:
        print(f"multi-process {p['algo']} n={p['n']}: {1000 * p['time_mean_ms']:.1f} us, "
              f"busbw {p['busbw_gbps']:.1f} GB/s")

rc, out, err = run("allreduce", "--gpus", str(gpus + 1))
check(rc == 4 and f"needs {gpus + 1}; this machine has {gpus}" in err,
      f"more GPUs than there are: {rc} {err.strip()}")

# the benchmark: float32 from 8 B to 4 GiB, every algorithm, nccl-tests beside
# where it is built (scripts/build-nccl-tests.sh puts it in .nccl-tests/)
NT = os.environ.get("RS_NCCL_TESTS") or os.path.join(os.environ["REDSCOPE_SOURCE"], ".nccl-tests")
beside = ["--nccl-tests", NT] if os.path.exists(os.path.join(NT, "all_reduce_perf")) or \
    os.path.isfile(NT) else []
if not beside:
    print(f"nccl-tests not built ({NT}): its column is left out")
rc, out, err = run("allreduce", "--gpus", str(gpus), "--type", "float32", "--algo", "all",
                   "--range", "2..2^30", "--reps", "20", *beside, "--format", "json")
pts = json.loads(out)["points"] if rc == 0 else []
links = json.loads(out).get("links", "") if rc == 0 else ""
if "NVLink" in links:  # NVML's counters: a ring sends 2(G-1)/G of the size from each GPU
    ring = [p for p in pts if p["algo"] == "ring" and p["bytes"] == 4 << 30]
    want = 2 * (gpus - 1) / gpus * (4 << 30)
    got = ring[0].get("nvlink_tx_bytes", 0) / want if ring else 0
    print(f"NVLink bytes sent per GPU by the 4 GiB ring: {got:.3f} x 2(G-1)/G x the size")
    check(all("nvlink_tx_bytes" in p and "nvlink_rx_bytes" in p for p in pts)
          and 0.95 < got < 1.15, f"NVLink's counters: the ring's bytes per GPU: {got} {ring}")
if beside:
    big = [p for p in pts if p["algo"] == "nccl" and p["bytes"] == 4 << 30]
    check(all(p.get("nccl_tests_time_ms", 0) > 0 for p in pts if p["algo"] != "peer_ring")
          and big and abs(big[0]["busbw_gbps"] / big[0]["nccl_tests_busbw_gbps"] - 1) < 0.10,
          f"nccl-tests beside every NCCL point; at 4 GiB within 10% of ours: {big}")
with tempfile.TemporaryDirectory() as d:  # its table, from the record just made
    rec = os.path.join(d, "ar.json")
    with open(rec, "w") as f:
        f.write(out)
    rc2, out, err2 = run("allreduce", "--replay", rec, "--algo", "all")
print(out)
check(rc == 0 and "bandwidth-bound from" in out, f"the sweep and its crossovers: {err[-300:]}")
check.finish()
