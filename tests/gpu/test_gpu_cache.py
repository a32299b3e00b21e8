#!/usr/bin/env python3
"""The cache state on a GPU (issue 43): warm leaves the input in the L2
(DRAM read under 10% of the input's bytes at 16 MiB, the L2 holding most
of the sectors read), warm is faster than cold for vectorized at 16 MiB,
the measured L2 ceiling agrees within 15% with an independent read kernel
(tests/lib/l2_read.cu), the L2's counters agree with Nsight Compute cold
and warm, and energy is measured in both states. Skips (77) where no CUDA
device is usable."""
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import EXE, Checks, run, skip_without_gpu  # noqa: E402

print(skip_without_gpu().strip())
check = Checks("test_gpu_cache")
ARGS = ("--variant", "vectorized", "--type", "int32", "--n", "2^22", "--reps", "50")
BYTES = (1 << 22) * 4


def one(cache, *extra):
    rc, out, err = run("run", *ARGS, "--cache", cache, *extra, "--format", "json")
    check(rc == 0, f"run --cache {cache} {' '.join(extra)}: {err}")
    return json.loads(out) if rc == 0 else {}


def value(r, key):
    v = r.get("metrics", {}).get("values", {}).get(key, {})
    return v.get("value") if v.get("valid") else None


cold, warm = one("cold", "--metrics", "default"), one("warm", "--metrics", "default")
if cold and warm:
    tc, tw = cold["time_ms"]["median"], warm["time_ms"]["median"]
    print(f"vectorized int32 2^22 (16 MiB): cold {tc * 1e3:.2f} µs, warm {tw * 1e3:.2f} µs")
    check(tw < tc, f"warm is faster than cold at 16 MiB: {tw} vs {tc} ms")
    check(warm["request"]["cache"] == "warm" and warm.get("ceiling") == "l2_read",
          f"warm within the L2 is held against the L2 read: {warm.get('ceiling')}")
    check(cold.get("ceiling") == "dram_read", f"cold against the DRAM read: {cold.get('ceiling')}")
    dw, dc = value(warm, "dram_read"), value(cold, "dram_read")
    print(f"DRAM read: cold {dc}, warm {dw} bytes of {BYTES}")
    check(dw is not None and dw < 0.10 * BYTES, f"warm reads under 10% of the input from DRAM: {dw}")
    check(dc is not None and dc > 0.90 * BYTES, f"cold reads the input from DRAM: {dc}")
    hw, hc = value(warm, "l2_hit_rate"), value(cold, "l2_hit_rate")
    print(f"L2 hit rate: cold {hc}%, warm {hw}%")
    # a sector the warm read left in the other L2 partition is a lookup miss
    # in the SM's own, yet no DRAM read (H200: 69% hits, 9 KB from DRAM)
    check(hw is not None and hw > 50.0, f"warm: the L2 holds most sectors read: {hw}")
    check(hc is not None and hc < 10.0, f"cold: the L2 holds few: {hc}")
    check(warm["metrics"]["passes"] == 2, f"the default set in two one-pass collections: "
          f"{warm['metrics']['passes']}")

# the L2's ceiling against an independent read kernel
rc, out, err = run("devices", "--measure", "--format", "json")
check(rc == 0, f"devices --measure: {err}")
dev = json.loads(out)[0] if rc == 0 else {}
l2 = dev.get("l2_gbps", 0)
probe = subprocess.run([os.environ["L2_READ"]], capture_output=True, text=True, timeout=120)
m = re.search(r"best (\d+)", probe.stdout)
check(probe.returncode == 0 and m, f"the independent read ran: {probe.stdout[-300:]}")
if m:
    theirs = float(m.group(1))
    print(f"L2 read: redscope {l2:.0f} GB/s, independent kernel {theirs:.0f} GB/s "
          f"(DRAM read {dev.get('measured_gbps', 0):.0f}, L2 {dev.get('l2_bytes', 0)} bytes)")
    check(abs(l2 - theirs) <= 0.15 * theirs, f"within 15%: {l2:.0f} vs {theirs:.0f}")
    check(l2 > dev.get("measured_gbps", 0), "the L2 reads faster than DRAM")

# the L2's counters against Nsight Compute: cold with ncu's cache control
# (it flushes), warm without it and with application replay (each pass
# runs the whole process: redscope's flush and warm read before the kernel,
# as in its own collection; ncu's kernel replay would run the kernel right
# after itself, its own accesses warming the L2 partitions it reads: 97%
# hits on an H200 where redscope's state gives 69%)
ncu = shutil.which("ncu")
check(ncu is not None, "ncu (Nsight Compute) is on PATH for the comparison")
NCU = {"l2_read_sectors": "lts__t_sectors_srcunit_tex_op_read.sum",
       "l2_read_hits": "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum"}
for cache, control, replay in (("cold", "all", "kernel"), ("warm", "none", "application")) \
        if ncu else ():
    ours = one(cache, "--metrics", "l2_read_sectors,l2_read_hits")
    p = subprocess.run([ncu, "--cache-control", control, "--replay-mode", replay,
                        "--clock-control", "none", "--csv",
                        "--print-units", "base", "--kernel-name", "regex:k_vectorized",
                        "--metrics", ",".join(NCU.values()), EXE, "run", *ARGS[:6],
                        "--cache", cache, "--reps", "1", "--warmup", "0"],
                       capture_output=True, text=True, timeout=300)
    check(p.returncode == 0, f"ncu {cache}: {p.stderr[-300:]}")
    theirs = {k: 0.0 for k in NCU}
    for r in csv.DictReader(io.StringIO(p.stdout[p.stdout.find('"ID"'):])):
        for k, name in NCU.items():
            if r.get("Metric Name") == name:
                theirs[k] += float(r["Metric Value"].replace(",", ""))
    sect = value(ours, "l2_read_sectors") or 0
    hits = value(ours, "l2_read_hits") or 0
    rate, their_rate = 100 * hits / max(sect, 1), 100 * theirs["l2_read_hits"] / max(
        theirs["l2_read_sectors"], 1)
    print(f"| {cache} | sectors {sect:,.0f} (ncu {theirs['l2_read_sectors']:,.0f}) | hits "
          f"{hits:,.0f} (ncu {theirs['l2_read_hits']:,.0f}) | hit rate {rate:.1f}% (ncu "
          f"{their_rate:.1f}%) |")
    check(abs(sect - theirs["l2_read_sectors"]) <= 0.02 * theirs["l2_read_sectors"],
          f"{cache}: L2 sectors read within 2% of ncu")
    # cold, both near 0; warm, how much of the input sits in the reading SM's
    # L2 partition depends on what ran just before the kernel: ncu's
    # application replay read 79% where redscope's own collection (its
    # flush and warm read profiled beside the kernel) read 69% (H200,
    # 2026-11-28); both well above half, and DRAM read near 0 (above)
    if cache == "cold":
        check(abs(rate - their_rate) <= 5.0, f"{cache}: hit rate within 5 points of ncu")
    else:
        check(rate > 50.0 and their_rate > 50.0 and abs(rate - their_rate) <= 15.0,
              f"{cache}: both hit rates above half and within 15 points")

# energy in both states
for cache in ("cold", "warm"):
    r = one(cache, "--energy", "--reps", "5")
    e = r.get("energy", {})
    check("j_per_gb" in e, f"energy {cache}: {e}")
    if "j_per_gb" in e:
        print(f"energy {cache}: {e['j_per_gb']:.3g} J/GB, {e['power_w']:.0f} W")
check.finish()
