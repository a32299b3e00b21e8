#!/usr/bin/env python3
"""sweep --cache both: every size cold, then every size warm, in one sweep.

Without a GPU: `both` is the sweep's word alone (run, ladder, the explorer
and a preset refuse it, naming the sweep), a preset is not saved with it,
the cpu runs once (it has no cache), the last --cache given holds; from the
shipped H100 recording (its launch floor recorded) each variant's line of
bounds, the CSV's bound column and the JSON's bounds agree, and the chart's
gnuplot script draws GB/s with the DRAM read across it; a live sweep of
both states on an H200 (tests/data/h200-sweep-both) replays to the CSV it
printed live, byte for byte.

From a real sweep in both states on an H200
(conf/recordings/h200-warm.jsonl; RS_WARM_RECORDING names another): the
replay shows both in every format, as `sweep --replay FILE` alone adopts
them, each figure the recorded one; the ceilings below the table are the
recording's own; a recording made of it replays the same; the chart's
script draws both ceilings and the L2's mark. While that recording is not
shipped these checks are said skipped (SKIP), the others still run."""
import csv
import io
import json
import os
import re
import shutil
import stat
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import Checks, run  # noqa: E402

SRC = os.environ["REDSCOPE_SOURCE"]
RECS = os.path.join(SRC, "conf", "recordings")
ENERGY = os.path.join(RECS, "h100-energy.jsonl")
DEMO = os.path.join(RECS, "h200-demo.jsonl")
WARM = os.environ.get("RS_WARM_RECORDING") or os.path.join(RECS, "h200-warm.jsonl")
TMP = tempfile.mkdtemp(prefix="rs-sweep-cache-")
UTF8 = {"LC_ALL": "C.UTF-8", "NO_COLOR": "1"}
check = Checks("test_sweep_cache")


def csv_rows(text):
    return list(csv.DictReader(io.StringIO(text)))


def fake_gnuplot():
    """A gnuplot that keeps the script it is given and draws an empty SVG:
    the script is checked whether or not gnuplot is installed."""
    d = os.path.join(TMP, "bin")
    os.makedirs(d, exist_ok=True)
    exe = os.path.join(d, "gnuplot")
    with open(exe, "w") as f:
        f.write("#!/bin/sh\ncat > \"$FAKE_GNUPLOT_SCRIPT\"\n"
                "out=$(sed -n \"s/^set output '\\(.*\\)'$/\\1/p\" \"$FAKE_GNUPLOT_SCRIPT\")\n"
                "printf '<svg>\\n</svg>\\n' > \"$out\"\n")
    os.chmod(exe, os.stat(exe).st_mode | stat.S_IXUSR)
    return d


def plot_script(*args):
    """(exit, stderr, the gnuplot script, the chart's data) of sweep ... --plot."""
    script = os.path.join(TMP, "script.gp")
    svg = os.path.join(TMP, "chart.svg")
    env = dict(UTF8, PATH=fake_gnuplot() + os.pathsep + os.environ.get("PATH", ""),
               FAKE_GNUPLOT_SCRIPT=script)
    rc, _, err = run(*args, "--plot", svg, "--force", env=env, cwd=SRC)
    text = open(script).read() if os.path.exists(script) else ""
    data = open(svg[:-4] + ".csv").read() if os.path.exists(svg[:-4] + ".csv") else ""
    return rc, err, text, data


# ---- both is the sweep's alone ----------------------------------------------------

for words in (("run", "--cache", "both", "--variant", "cpu"), ("ladder", "--cache", "both"),
              ("--cache", "both")):
    rc, out, err = run(*words, env=UTF8)
    check(rc == 2 and out == "" and len(err.strip().splitlines()) == 1
          and "'both' is sweep's alone: redscope sweep --cache both" in err,
          f"{' '.join(words)}: refused in one line that names the sweep's --cache both: "
          f"{rc} {err!r}")
preset = os.path.join(TMP, "both.ini")
with open(preset, "w") as f:
    f.write("[run]\ntype = float32\ncache = both\n")
rc, out, err = run("sweep", "--preset", preset, "--variants", "cpu", "--range", "2^10",
                   env=UTF8)
check(rc == 2 and "cache" in err and "both" in err and not out,
      f"a preset holds cold or warm: cache = both is refused, named: {rc} {err!r}")
rc, out, err = run("sweep", "--cache", "both", "--variants", "cpu", "--range", "2^10",
                   "--save-preset", "cache-both-x", env=dict(UTF8, XDG_CONFIG_HOME=TMP))
check(rc == 2 and "--save-preset" in err and "--cache both" in err
      and not os.path.exists(os.path.join(TMP, "redscope", "presets", "cache-both-x.ini")),
      f"--save-preset with --cache both: refused, nothing saved: {rc} {err!r}")
rc, out, _ = run("sweep", "--help")
check(re.search(r"--cache STATE .*: cold warm both \[cold\]", out) is not None,
      f"sweep --help lists both among --cache's values: {out[:0]}"
      f"{[l for l in out.splitlines() if 'cache' in l]}")
check("both" not in next((l for l in run("run", "--help")[1].splitlines() if "--cache" in l), ""),
      "run --help: --cache is cold or warm")

# the CPU has no cache: it runs once in both; the last --cache given holds
rc, out, err = run("sweep", "--cache", "both", "--variants", "cpu", "--range", "2^10..2^11",
                   "--reps", "1", "--format", "csv", env=UTF8)
rows = csv_rows(out)
check(rc == 0 and len(rows) == 2 and {r["cache"] for r in rows} == {"cold"},
      f"sweep --cache both of the cpu alone: each size once: {rc} {err} {rows}")
rc, out, err = run("sweep", "--cache", "both", "--cache", "warm", "--variants", "cpu",
                   "--range", "2^10", "--reps", "1", "--format", "csv", env=UTF8)
check(rc == 0 and [r["cache"] for r in csv_rows(out)] == ["warm"],
      f"--cache both then --cache warm: warm alone: {rc} {err} {out}")

# ---- bounds, from a real H100 sweep (its launch floor recorded) -------------------

rc, table, err = run("sweep", "--replay", ENERGY, env=UTF8)
head = next((l for l in table.splitlines() if l.startswith("bounds (")), "")
lines = [l.strip() for l in table.split("\nbounds (", 1)[-1].splitlines()[1:] if l.startswith("  ")]
check(rc == 0 and "within 1.5x of one launch, 4.0 µs" in head
      and "vectorized: launch-bound to 2^18, DRAM-bound from 2^20" in lines
      and "atomic: DRAM-bound 2^16..2^28" in lines and not any(l.startswith("cpu") for l in lines),
      f"sweep table: a line of bounds per variant, the cpu none: {head!r} {lines}")
rc, out, _ = run("sweep", "--replay", ENERGY, "--format", "csv")
rows = csv_rows(out)
bound = {(r["variant"], int(r["n"])): r["bound"] for r in rows}
check(rc == 0 and bound.get(("vectorized", 2 ** 18)) == "launch"
      and bound.get(("vectorized", 2 ** 20)) == "dram" and set(bound.values()) == {"launch", "dram"},
      f"sweep csv: each row's bound: {bound}")
rc, out, _ = run("sweep", "--replay", ENERGY, "--format", "json")
j = json.loads(out) if rc == 0 else {}
said = [b["said"] for b in j.get("bounds", [])]
check(said == lines, f"sweep json: bounds[].said are the table's lines: {said} {lines}")
ranges = [(b["variant"], x["n_from"], x["n_to"], x["bound"]) for b in j.get("bounds", [])
          for x in b["ranges"]]
check(ranges and all(bound[(v, n)] == k for v, lo, hi, k in ranges for n in j["sizes"]
                     if lo <= n <= hi),
      f"sweep json: bounds[].ranges as the CSV's bound column: {ranges}")
floor = next(r["device"]["floor_launch_ms"] for r in j["rows"] if r["request"]["variant"] != "cpu")
check(abs(j["ceilings"]["floor_launch_ms"] - floor) < 1e-9 and j["ceilings"]["l2_bytes"] == 0,
      f"sweep json: the ceilings the rows carry: {j.get('ceilings')} {floor}")
rc, table, _ = run("sweep", "--replay", DEMO, env=UTF8)
check(rc == 0 and "bounds: not told: the rows hold no launch floor" in table,
      f"a recording without a launch floor: bounds not told, said: {table[-400:]}")

# the chart: GB/s against n, the DRAM read across it (no L2 read in this one)
rc, err, script, data = plot_script("sweep", "--replay", ENERGY)
dram = re.search(r"set arrow from graph 0, first ([\d.]+) to graph 1, first ([\d.]+) nohead",
                 script)
check(rc == 0 and dram and abs(float(dram.group(1)) - j["ceilings"]["dram_read_gbps"]) < 0.01
      and "set label 'DRAM read 3101 GB/s (measured)'" in script and "ylabel 'GB/s" in script
      and "L2 read" not in script and "outgrows" not in script,
      f"sweep --plot: the DRAM read across the chart, no L2 where none was measured: "
      f"{rc} {err} {script}")
check(data.startswith("n,atomic,sequential,vectorized,cpu\n")
      and abs(float(data.splitlines()[-1].split(",")[3]) -
              next(r["gbps"] for r in j["rows"] if r["request"]["variant"] == "vectorized"
                   and r["request"]["n"] == 2 ** 28)) < 0.01,
      f"sweep --plot: the chart's data is GB/s: {data[:200]}")
if shutil.which("gnuplot"):  # and gnuplot draws it (CI installs gnuplot-nox)
    svg = os.path.join(TMP, "real.svg")
    rc, _, err = run("sweep", "--replay", ENERGY, "--plot", svg, cwd=SRC)
    check(rc == 0 and "DRAM read 3101 GB/s" in open(svg).read(), f"gnuplot's chart: {err}")

# ---- a live sweep in both states, and its replay -----------------------------------
# tests/data/h200-sweep-both.jsonl and .csv: one run on an H200 (2026-11-28),
#   redscope sweep --cache both --type float32 --variants atomic,vectorized,cub,cpu
#                  --range 2^16..2^28:2 --format csv --record h200-sweep-both.jsonl
# its CSV as it printed, every figure and the cpu's rows (cold alone) as live
LIVE = os.path.join(SRC, "tests", "data", "h200-sweep-both")
rc, out, err = run("sweep", "--replay", LIVE + ".jsonl", "--format", "csv")
check(rc == 1 and out == open(LIVE + ".csv").read() and "--cache both" in err,
      f"sweep --replay of a live sweep in both states: its CSV as live printed it: {rc} {err}")

# ---- a sweep recorded in both states on an H200 ------------------------------------

if not os.path.exists(WARM):
    print(f"SKIP: {WARM} is not there yet (a sweep --cache both of an H200): the replay of "
          "both states, their ceilings and their chart are not checked")
    check.finish()

rec = [json.loads(l) for l in open(WARM) if l.strip()]
sweep_rows = [r for r in rec if r.get("command") == "sweep"]
last = sweep_rows[-1]["request"] if sweep_rows else {}
# the last sweep recorded, in both states: what `sweep --replay FILE` shows
mine = [r for r in sweep_rows if (r["request"]["type"], r["request"]["range"]) ==
        (last.get("type"), last.get("range"))]
states = {r["request"]["cache"] for r in mine}
check(states == {"cold", "warm"}, f"{WARM}: its last sweep in both cache states: {states}")
variants = sorted({r["request"]["variant"] for r in mine} - {"cpu"})
ARGS = ("sweep", "--replay", WARM, "--type", last["type"], "--range", last["range"],
        "--variants", ",".join(sorted({r["request"]["variant"] for r in mine})))
rc, both, err = run(*ARGS, "--cache", "both", env=UTF8)
check(rc in (0, 1) and "(cold)" in both and "(warm)" in both,
      f"sweep --replay --cache both: both states: {rc} {err} {both[:300]}")

# sweep --replay FILE alone: the recorded sweep in both states, as asked for
rc, alone, err = run("sweep", "--replay", WARM, env=UTF8)
check(rc in (0, 1) and "--cache both" in err and alone == both,
      f"sweep --replay FILE: its last sweep in both states, said: {err}")

# every figure the recorded one: each CSV row is its recorded row
rc, out, err = run(*ARGS, "--cache", "both", "--format", "csv")
rows = csv_rows(out)
recorded = {(r["request"]["variant"], r["request"]["n"], r["request"]["cache"]): r for r in mine}
ran = [r for r in rows if r["status"] == "0"]
check(len(ran) == len(mine) and all(
    abs(float(r["time_median_ms"]) - recorded[(r["variant"], int(r["n"]), r["cache"])]
        ["time_ms"]["median"]) <= 1e-5 * float(r["time_median_ms"]) for r in ran),
      f"sweep --cache both csv: every row the recorded one ({len(ran)} of {len(mine)})")
caches = [r["cache"] for r in rows]
check(caches == sorted(caches) and caches.count("warm") and caches.count("cold"),
      f"sweep --cache both csv: the cold rows, then the warm: {caches}")
floor = {k: r["device"]["floor_launch_ms"] for k, r in recorded.items()}
l2_rows = [r for r in ran if r["cache"] == "warm" and r["ceiling"] == "l2_read" and
           r["correct"] == "yes" and
           float(r["time_median_ms"]) > 1.5 * floor[(r["variant"], int(r["n"]), "warm")]]
check(l2_rows and all(r["bound"] == "l2" for r in l2_rows),
      f"sweep csv: a warm row within the L2 and past the launch floor is L2-bound: {l2_rows[:1]}")

# the ceilings below the table: the recording's own (its first cold row's)
dev = next(r["device"] for r in mine if r["request"]["cache"] == "cold")
dram, l2 = dev.get("measured_gbps", 0), dev.get("l2_gbps", 0)
n_l2 = dev.get("l2_bytes", 0) // {"float32": 4, "int32": 4, "float64": 8, "int64": 8,
                                   "float16": 2, "bfloat16": 2}[last["type"]]
check(f"ceilings (measured): DRAM read {dram:.0f} GB/s, L2 read {l2:.0f} GB/s" in both
      and f"up to n = {n_l2:,} (2^" in both,
      f"the ceilings said below the table: {dram:.0f} {l2:.0f} {n_l2:,}: {both[-1500:]}")
tail = both.split("\nbounds (", 1)[-1].splitlines()[1:]
lines = [l.strip() for l in tail if l.startswith("  ")]
check(sorted(l.split(":")[0] for l in lines) == variants
      and any("L2-bound" in l and "(warm; cold: DRAM-bound)" in l for l in lines),
      f"a line of bounds per variant, L2-bound warm within the L2: {lines}")

# every format shows both
for fmt in ("json", "md", "html"):
    rc, out, err = run(*ARGS, "--cache", "both", "--format", fmt, env=UTF8)
    if fmt == "json":
        j = json.loads(out) if out.strip() else {}
        check(j.get("caches") == ["cold", "warm"] and sorted(j.get("variants", [])) == variants
              and [b["said"] for b in j.get("bounds", [])] == lines
              and j["ceilings"]["n_l2"] == n_l2 and abs(j["ceilings"]["l2_read_gbps"] - l2) < 0.01
              and {r["request"]["cache"] for r in j["rows"]} == {"cold", "warm"},
              f"sweep --cache both json: {rc} {err} {[b['said'] for b in j.get('bounds', [])]}")
    else:
        check(rc in (0, 1) and "(warm)" in out and "ceilings (measured)" in out
              and ("```" in out if fmt == "md" else "<pre>" in out),
              f"sweep --cache both --format {fmt}: the table of both in the document: {rc} {err}")
rc, out, _ = run(*ARGS, "--cache", "warm", env=UTF8)
check("(warm)" not in out and "(cold)" not in out and "cache warm" in out.splitlines()[0],
      f"--cache warm: the warm sweep alone: {out[:200]}")

# --record keeps both; the recording replays the same
again = os.path.join(TMP, "again.jsonl")
rc, out, err = run(*ARGS, "--cache", "both", "--record", again, env=UTF8)
rc2, out2, err2 = run("sweep", "--replay", again, env=UTF8)
check(out == both and out2 == both and "--cache both" in err2,
      f"a recording of the replayed sweep in both states replays the same: {err2}")

# the chart: both ceilings across it and the L2's mark where the input outgrows it
rc, err, script, data = plot_script(*ARGS, "--cache", "both")
check(f"set label 'DRAM read {dram:.0f} GB/s (measured)'" in script
      and f"set label 'L2 read {l2:.0f} GB/s (measured)'" in script
      and len(re.findall(r"set arrow from graph 0, first [\d.]+ to graph 1", script)) == 2
      and f"set arrow from first {n_l2}, graph 0 to first {n_l2}, graph 1" in script
      and "the input outgrows the 60.0 MiB L2" in script,
      f"sweep --cache both --plot: the DRAM and L2 reads and the L2's mark: {rc} {err} {script}")
check("dashtype 2" in script and "title 'vectorized (warm)'" in script
      and re.match(r"n,\w+_cold,\w+_warm,", data),
      f"sweep --cache both --plot: each variant cold (dashed) and warm: {data[:120]}")

# the figures README.md quotes of this sweep are the ones it prints
readme = " ".join(open(os.path.join(SRC, "README.md"), encoding="utf-8").read().split())
m = re.search(r"vectorized at (2\^\d+): ([\d.]+) µs warm against ([\d.]+) µs cold\) .* "
              r"\((\d+) against (\d+) GB/s\)", readme)
if WARM == os.path.join(RECS, "h200-warm.jsonl"):
    row = next((l.split() for l in both.splitlines() if m and l.split()[:1] == [m.group(1)]), [])
    check(m and row[1:3] == [m.group(3), "µs"] and row[3:5] == [m.group(2), "µs"]
          and f"L2 read {m.group(4)} GB/s" in both and f"DRAM read {m.group(5)} GB/s" in both,
          f"README's warm sweep: vectorized's times and the two reads as printed: "
          f"{m.groups() if m else None} {row}")
check.finish()
