#!/usr/bin/env python3
"""The cache state as a setting (issue 43), without a GPU: --cache through
the command line, presets and recordings; the recorded warm ladders and
sweeps of an H200 (conf/recordings/h200-warm.jsonl) replayed in every
format, each row held against the ceiling of its state; diff never pairs a
warm row with a cold one; a recording whose ceiling disagrees with its
figures is refused."""
import csv
import io
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import Checks, run  # noqa: E402

check = Checks("test_cache")
SRC = os.environ["REDSCOPE_SOURCE"]
WARM = os.path.join(SRC, "conf", "recordings", "h200-warm.jsonl")
DEMO = os.path.join(SRC, "conf", "recordings", "h200-demo.jsonl")
tmp = tempfile.mkdtemp()

# the command line
rc, out, err = run("run", "--cache", "hot")
check(rc == 2 and "--cache" in err and "cold warm" in err, f"a bad --cache value: {rc} {err}")
rc, out, _ = run("run", "--help")
check(rc == 0 and "--cache STATE" in out and "warm" in out, "run --help names --cache")
rc, out, _ = run("ladder", "--help")
check(rc == 0 and "--cache STATE" in out, "ladder --help names --cache")

# presets: the key read, written back, and refused when wrong
good = os.path.join(tmp, "warm.ini")
with open(good, "w") as f:
    f.write("[run]\ntype = float32\nn = 2^22\ncache = warm\n")
bad = os.path.join(tmp, "bad.ini")
with open(bad, "w") as f:
    f.write("[run]\ncache = lukewarm\n")
rc, out, err = run("run", "--preset", bad, "--variant", "cpu")
check(rc == 2 and "cache" in err and "bad.ini:2:" in err, f"cache = lukewarm refused by line: {err}")
env = {"XDG_CONFIG_HOME": tmp}
rc, _, err = run("run", "--preset", good, "--variant", "cpu", "--save-preset", "mine", env=env)
saved = open(os.path.join(tmp, "redscope", "presets", "mine.ini")).read() if rc == 0 else ""
check(rc == 0 and "cache = warm" in saved, f"a saved preset keeps cache = warm: {err} {saved}")
for name, state in (("leetgpu-reduction", "warm"), ("gpumode-vectorsum", "warm"),
                    ("harris-2007", "cold")):
    p = os.path.join(SRC, "conf", "presets", name + ".ini")
    text = open(p).read() if os.path.exists(p) else ""
    check(("cache = warm" in text) == (state == "warm"), f"the shipped {name} is {state}")

# old recordings: every row cold, held against the DRAM read
rc, out, err = run("ladder", "--replay", DEMO, "--n", "2^24", "--format", "json")
rows = json.loads(out)["rows"] if rc == 0 else []
check(rc == 0 and rows and all(r["request"]["cache"] == "cold" for r in rows),
      f"a recording from before the field replays cold: {err}")
check(all(r.get("ceiling") == "dram_read" for r in rows if r["request"]["variant"] != "cpu"),
      "cold rows are held against the DRAM read")
rc, out, err = run("ladder", "--replay", DEMO, "--n", "2^24", "--cache", "warm")
check(rc != 0 and "not" in err and "--cache cold" in err,
      f"a warm ladder the demo does not hold is said so, and what it holds: {rc} {err}")

# a row whose ceiling disagrees with its figures is refused
with open(DEMO) as f:
    lines = f.readlines()
k = next(i for i, l in enumerate(lines) if '"ceiling"' not in l and '"result"' in l and
         '"variant": "vectorized"' in l.replace('":"', '": "'))
for edit, what in (('"pct_measured":', '"ceiling": "l2_read", "pct_ceiling": 50, "pct_measured":'),
                   ('"pct_measured":', '"ceiling": "dram_read", "pct_ceiling": 1, "pct_measured":')):
    p = os.path.join(tmp, "edited.jsonl")
    with open(p, "w") as f:
        f.writelines(lines[:k] + [lines[k].replace(edit, what, 1)] + lines[k + 1:])
    rc, out, err = run("recording", p)
    check(rc != 0 and ("ceiling" in err), f"a row's {what[:30]}... refused: {rc} {err[-200:]}")

if not os.path.exists(WARM):
    print(f"SKIP: {WARM} is not recorded yet")
    check.finish()

# the recorded warm ladder: every format, each row against the L2 read
rc, out, err = run("ladder", "--replay", WARM, "--preset", "leetgpu-reduction")
check(rc == 0 and "cache warm" in out and "% L2" in out and "% L2: of the L2 read" in out,
      f"the warm ladder's table names the L2 read: {err}\n{out[:600]}")
rc, out, err = run("ladder", "--replay", WARM, "--preset", "leetgpu-reduction", "--cache",
                   "cold")
check(rc == 0 and "% DRAM" in out and "cache warm" not in out, f"and the cold one the DRAM read")
rc, out, err = run("ladder", "--replay", WARM, "--preset", "leetgpu-reduction", "--format", "csv")
table = list(csv.DictReader(io.StringIO(out))) if rc == 0 else []
gpu = [r for r in table if r["variant"] != "cpu"]
check(gpu and all(r["cache"] == "warm" and r["ceiling"] == "l2_read" for r in gpu),
      f"CSV: cache and ceiling per row: {err}")
check(all(0 < float(r["pct_ceiling"]) < 100 for r in gpu), "CSV: each row's share of the L2 read")
rc, out, err = run("ladder", "--replay", WARM, "--preset", "leetgpu-reduction", "--format", "json")
doc = json.loads(out) if rc == 0 else {"rows": []}
for r in doc["rows"]:
    if r["request"]["variant"] == "cpu":
        continue
    want = 100 * r["gbps"] / r["device"]["l2_gbps"]
    check(abs(r["pct_ceiling"] - want) <= 1e-6 * want, f"{r['request']['variant']}: pct_ceiling")
    d = r["metrics"]["values"].get("dram_read", {})
    if d.get("valid") and r["request"]["variant"] in ("vectorized", "cub"):
        check(d["value"] < 0.10 * 4194304 * 4, f"{r['request']['variant']}: warm DRAM read "
              f"{d['value']} under 10% of the input")
for fmt in ("md", "html"):
    rc, out, err = run("ladder", "--replay", WARM, "--preset", "leetgpu-reduction", "--format", fmt)
    check(rc == 0 and "cache warm" in out and "L2" in out, f"the handout ({fmt}) says warm: {err}")
rc, out, err = run("sweep", "--replay", WARM, "--preset", "gpumode-vectorsum", "--format", "csv")
table = list(csv.DictReader(io.StringIO(out))) if rc == 0 else []
check(table and {r["cache"] for r in table} == {"warm"}, f"the warm sweep replays warm: {err}")
fits = {r["ceiling"] for r in table if int(r["n"]) * 4 <= 60 * 2**20}
out_of = {r["ceiling"] for r in table if int(r["n"]) * 4 > 60 * 2**20}
check(fits == {"l2_read"} and out_of == {"dram_read"},
      f"within the L2 the L2 read, beyond it the DRAM read: {fits} {out_of}")

# both states of GPU MODE's sizes: where warm stops gaining, as measured
rc, out, err = run("sweep", "--replay", WARM, "--preset", "gpumode-vectorsum", "--cache", "both")
check(rc == 0 and "warm stops gaining (within 5% of cold): multi_element from 13107200" in out,
      f"the L2's edge as measured: {err} {out[-600:]}")
rc, out, err = run("sweep", "--replay", WARM, "--preset", "gpumode-vectorsum", "--cache", "both",
                   "--format", "json")
edges = json.loads(out).get("warm_edges", []) if rc == 0 else []
check({e["variant"]: e["n"] for e in edges}.get("vectorized") == 13107200 and
      all(e["best_speedup"] >= 1.15 for e in edges), f"warm_edges in JSON: {edges}")

# diff: a warm row is never paired with a cold one (Harris 2007 is in both
# files: cold in the demo, warm here)
rc, out, err = run("diff", DEMO, WARM, "--format", "json")
pairs = json.loads(out).get("pairs", []) if out.strip() else []
check(rc in (0, 1) and pairs, f"diff of the demo and the warm recording: {rc} {err}")
harris = [p for p in pairs if p["type"] == "int32" and p["n"] == 2**22 and p["block"] == 128]
check(harris and all(not (p["a"] and p["b"]) for p in harris),
      f"Harris cold (A) and warm (B) are not paired: {[(p['cache'], bool(p['a']), bool(p['b'])) for p in harris]}")
check({p["cache"] for p in harris} == {"cold", "warm"}, "each side says its state")
rc, out, err = run("diff", DEMO, WARM)
check("warm" in out, f"the table names the warm rows: {out[-400:]}")

# a run over two GPUs is held against their ceiling together: written so,
# and read back so (found on two H200s: its recording was refused)
X2 = os.path.join(SRC, "conf", "recordings", "h200x2-ladder.jsonl")
again = os.path.join(tmp, "x2-again.jsonl")
rc, first, err = run("ladder", "--replay", X2, "--record", again)
rows = [json.loads(l) for l in open(again)] if rc == 0 else []
split = [r for r in rows if r.get("gpus", {}).get("count", 1) == 2]
check(split and all(abs(r["pct_ceiling"] - 100 * r["gbps"] / (2 * r["device"]["measured_gbps"]))
                    < 1e-6 for r in split),
      f"two GPUs: pct_ceiling against twice the DRAM read: {[r.get('pct_ceiling') for r in split]}")
rc, second, err = run("ladder", "--replay", again)
check(rc == 0 and second == first, f"the recording of two GPUs replays as it was: {rc} {err}")
check.finish()
