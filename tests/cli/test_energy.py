#!/usr/bin/env python3
"""Energy per reduction without a GPU: read back from the shipped H100
recording exactly as recorded, in every output (table, CSV, JSON, the
sweep's grid, the handout, the Why, the Ladder screen at 80 and 120
columns); refused when a recording's figures are hostile; and said where a
replay asks for energy a recording does not hold."""
import csv
import io
import json
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import Checks, as_written, run  # noqa: E402
from tuitest import UTF8, Tmux  # noqa: E402

SRC = os.environ["REDSCOPE_SOURCE"]
REC = os.path.join(SRC, "conf", "recordings", "h100-energy.jsonl")
DEMO = os.path.join(SRC, "conf", "recordings", "h200-demo.jsonl")
TMP = tempfile.mkdtemp(prefix="rs_energy_")
check = Checks("test_energy")

recorded, swept = {}, {}  # (n, variant) -> the energy object as the file holds it
measured = {}  # n -> the streaming read measured with the ladder recorded there
for line in open(REC):
    j = json.loads(line)
    if j.get("command") == "ladder" and "device" in j:
        measured.setdefault(j["request"]["n"], j["device"]["measured_gbps"])
    if "energy" in j and j.get("request"):
        into = swept if j.get("command") == "sweep" else recorded
        into[(j["request"]["n"], j["request"]["variant"])] = j["energy"]
check(len(recorded) == 28 and len(swept) == 21,
      f"the recording holds 28 ladder rows and 21 sweep rows with energy: {len(recorded)} {len(swept)}")

# JSON and CSV: each figure exactly as recorded.
rc, out, err = run("ladder", "--replay", REC, "--n", "2^28", "--energy", "--format", "json")
rows = json.loads(out)["rows"] if rc == 0 else []
check(rc == 0 and len(rows) == 14, f"ladder json: {err}")
for r in rows:
    want = recorded.get((2 ** 28, r["request"]["variant"]))
    check(as_written(want, r.get("energy")), f"{r['request']['variant']}: energy as recorded")
rc, out, err = run("ladder", "--replay", REC, "--n", "2^28", "--energy", "--format", "csv")
for r in csv.DictReader(io.StringIO(out)):
    want = recorded[(2 ** 28, r["variant"])]
    check(float(r["j_per_gb"]) == float(f"{want['j_per_gb']:.6g}") and
          int(r["energy_reps"]) == want["energy_reps"], f"{r['variant']}: csv as recorded")

# The table: J/GB in place of vs CPU, within 120 columns; --wide both.
rc, out, err = run("ladder", "--replay", REC, "--n", "2^28", "--energy")
lines = out.splitlines()
head = next((l for l in lines if l.startswith("  #")), "")
vec = next((l for l in lines if " vectorized " in l), "")
check(rc == 0 and "J/GB" in head and "vs CPU" not in head and
      f"{recorded[(2 ** 28, 'vectorized')]['j_per_gb']:.2f}" in vec.split(),
      f"ladder table: the J/GB column: {head} / {vec}")
check(max(len(l) for l in lines) <= 120, f"ladder table fits 120 columns: {lines}")
rc, out, err = run("ladder", "--replay", REC, "--n", "2^28", "--energy", "--wide")
head = next((l for l in out.splitlines() if l.startswith("  #")), "")
check(rc == 0 and "energy" in head and "J/GB" in head and "vs CPU" in head, f"--wide: {head}")

# run: the energy line, every figure from the recording.
e = recorded[(2 ** 24, "vectorized")]  # run replays the ladder's row of it, not the sweep's
rc, out, err = run("run", "--replay", REC, "--n", "2^24", "--variant", "vectorized", "--energy")
line = next((l for l in out.splitlines() if l.startswith("energy")), "")
check(rc == 0 and f"{e['energy_j'] * 1e3:.3g} mJ per reduction" in line and
      f"{e['j_per_gb']:.2f} J/GB read" in line and f"{e['power_w']:.0f} W on average" in line and
      f"{e['energy_reps']:,} reductions" in line, f"run's energy line: {line}")

# A configuration recorded twice (the ladder's row with counters, the
# sweep's without): run takes the one that holds what it asks, else the ladder's.
rc, out, err = run("run", "--replay", REC, "--n", "2^28", "--variant", "atomic", "--metrics")
check(rc == 0 and "DRAM read" in out and "6.72 ms median" in out,
      f"run --metrics: the ladder's row, with its counters: {rc} {out[:300]} {err}")

# The sweep: a J/GB grid under the times, one cell per recorded row.
rc, out, err = run("sweep", "--replay", REC, "--energy")
grid = out.split("energy per GB read", 1)[1].splitlines()[2:9] if "energy per GB read" in out else []
check(rc == 0 and len(grid) == 7 and
      f"{swept[(2 ** 28, 'atomic')]['j_per_gb']:.2f}" in grid[-1].split(),
      f"sweep: the J/GB grid: {out}")

# The handout: the J/GB column and the Why's energy sentences.
rc, out, err = run("ladder", "--replay", REC, "--n", "2^24", "--energy", "--format", "md")
check(rc == 0 and "| J/GB |" in out and
      f"Energy {recorded[(2 ** 24, 'interleaved')]['energy_j'] * 1e3:.3g} mJ per reduction" in out
      and "Against atomic: J/GB" in out, f"handout: {out[:1500]}")

# Energy a recording holds shows without --energy, as in the explorer;
# --energy=0 hides it.
rc, out, err = run("ladder", "--replay", REC, "--n", "2^28")
check(rc == 0 and "J/GB" in out and "thrust" in out, f"ladder replayed: the recorded J/GB: {out[:300]}")
rc, out, err = run("ladder", "--replay", REC, "--n", "2^28", "--energy=0")
check(rc == 0 and "J/GB" not in out and "thrust" in out, f"ladder --energy=0: none: {out[:300]}")
rc, out, err = run("sweep", "--replay", REC)
check(rc == 0 and "energy per GB" in out, "sweep replayed: the recorded J/GB grid")
rc, out, err = run("sweep", "--replay", REC, "--energy=0")
check(rc == 0 and "energy per GB" not in out, "sweep --energy=0: no J/GB grid")

# A replay asking for energy a recording lacks: said, exit 2.
rc, out, err = run("ladder", "--replay", DEMO, "--n", "2^24", "--energy")
check(rc == 2 and "holds no energy for 14 of these 14 rows" in err and
      "record them again with --energy on a GPU" in err, f"no energy recorded: {rc} {err}")
rc, out, err = run("run", "--replay", DEMO, "--n", "2^24", "--variant", "atomic", "--energy")
check(rc == 2 and "holds no energy for atomic int32 sum, n 2^24" in err, f"run: {rc} {err}")


# Hostile figures are refused, the field named.
def edited(name, edit):
    path = os.path.join(TMP, name + ".jsonl")
    with open(REC) as f, open(path, "w") as out:
        for line in f:
            j = json.loads(line)
            if j.get("request", {}).get("variant") == "vectorized" and "energy" in j:
                edit(j["energy"])
            out.write(json.dumps(j).replace('"__1e309__"', "1e309") + "\n")
    return path


HOSTILE = {
    "negative": (lambda e: e.update(energy_j=-1), "energy.energy_j is -1"),
    "nan": (lambda e: e.update(power_w="NaN"), "energy.power_w"),
    "huge": (lambda e: e.update(power_w=1e9), "energy.power_w is 1000000000"),
    "zero_reps": (lambda e: e.update(energy_reps=0), "energy.energy_reps is 0"),
    "fraction_reps": (lambda e: e.update(energy_reps=2.5), "energy.energy_reps is 2.5"),
    "missing": (lambda e: e.pop("j_per_gb"), "energy.j_per_gb is missing"),
    "beyond_double": (lambda e: e.update(energy_j="__1e309__"),
                      "energy.energy_j is a number beyond a double's range"),
    "reps_huge": (lambda e: e.update(energy_reps=4294967296),
                  "energy.energy_reps is 4294967296: expected a whole number of reductions from 1 "
                  "to 4294967295"),
    "inconsistent": (lambda e: e.update(energy_j=e["energy_j"] * 2),
                     "energy.energy_j is not power_w x energy_rep_ms"),
    "per_gb": (lambda e: e.update(j_per_gb=e["j_per_gb"] * 3),
               "energy.j_per_gb is not energy_j per GB of the input"),
    "both": (lambda e: e.update(energy_note="no NVML"), "both a measurement and why"),
    "note_number": (lambda e: (e.clear(), e.update(energy_note=3)), "energy.energy_note"),
}
for name, (edit, said) in HOSTILE.items():
    path = edited(name, edit)
    rc, out, err = run("ladder", "--replay", path, "--n", "2^24", "--energy")
    check(rc == 7 and said in err and not out, f"hostile {name}: refused naming it: {rc} {err}")

# The Ladder screen: J/GB as recorded (E hides it; E and Enter show it
# again), at 80 columns (in %rd's place), 110 and 120.
for cols, rows_, pct in ((80, 24, False), (110, 30, True), (120, 32, True)):
    t = Tmux(f"{os.environ['REDSCOPE']} --replay {REC}", cols=cols, rows=rows_, env=UTF8)
    try:
        t.wait_for("REPLAY")
        t.wait_for("reps")
        t.keys("L", "Enter")  # the replay opens on the recorded settings: energy on
        s = t.wait_for("thrust") or t.screen()
        t.keys("E")
        s = t.wait_for("energy off") or t.screen()
        check("J/GB" not in s, f"{cols} columns: E off hides the energy shown", s)
        t.keys("E", "Enter")
        s = t.wait_for("J/GB") or t.screen()
        head = next((l for l in s.splitlines() if " variant " in l), "")
        vec = next((l for l in s.splitlines() if " vectorized " in l), "")
        want = f"{recorded[(2 ** 24, 'vectorized')]['j_per_gb']:.2f}"
        check("J/GB" in head and want in vec.split() and ("%read" in head) == pct,
              f"Ladder screen at {cols} columns: J/GB beside the step", s)
        check(all(len(l) <= cols for l in s.splitlines()), f"{cols} columns hold it", s)
        if cols >= 120:  # the header's limit: the one measured with the rows shown
            check(f"(meas. {measured[2 ** 24]:.0f})" in s.splitlines()[0],
                  "the header's measured limit is the configuration's", s)
        table = [l for l in s.splitlines() if re.search(r"│ +\d+ \w", l)]
        check(len(table) == 14 and all(l.rstrip().endswith("│ │") for l in table),
              f"{cols} columns: no row runs over the box's border", s)
        t.keys("Escape")
        for _ in range(16):  # to vectorized in the explorer's list
            s = t.screen()
            if re.search(r"\u25b6 ?12 vectorized", s):
                break
            t.keys("Down")
        s = t.wait_for("J/GB \u00b7") or t.screen()
        check(f"energy {recorded[(2 ** 24, 'vectorized')]['energy_j'] * 1e3:.3g} mJ" in s,
              f"the result panel's energy at {cols} columns", s)
    finally:
        t.close()
check.finish()
