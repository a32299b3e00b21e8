#!/usr/bin/env python3
"""One schema (issue 29, points 7 and 8): every command's CSV and JSON against
docs/formats.md, from the shipped recordings and the commands that need no
GPU. Each column and field the program writes must be documented for that
command, each documented one must appear in some output, each with a unit
of the page's list; and the schema's decisions hold: run --stalls is one CSV
table, the ladder's CSV carries the hottest line, the sweep's crossovers are
data, allreduce's device is run's object, one name per figure, one number
rule."""
import csv
import io
import json
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import Checks, run  # noqa: E402

SRC = os.environ.get("REDSCOPE_SOURCE", os.path.join(os.path.dirname(__file__), "..", ".."))
DOC = os.path.join(SRC, "docs", "formats.md")
RECS = os.path.join(SRC, "conf", "recordings")
DEMO = os.path.join(RECS, "h200-demo.jsonl")
KERNELS = os.path.join(RECS, "h100-kernels.jsonl")
CHECKS = os.path.join(RECS, "h100-checks.jsonl")
ENERGY = os.path.join(RECS, "h100-energy.jsonl")
AR1 = os.path.join(RECS, "h100-allreduce-1gpu.json")
AR2 = os.path.join(RECS, "h200x2-allreduce.json")
GPUS2 = os.path.join(SRC, "tests", "data", "h100-test-gpus2-ladder.jsonl")
check = Checks("test_formats")
TMP = tempfile.mkdtemp(prefix="rs-formats-")

UNITS = {"ms", "µs", "ns", "s", "bytes", "GB/s", "J", "W", "J/GB", "%", "kHz", "bits", "count", "lanes", "ratio",
         "index", "version", "date", "status", "name", "text", "value", "bool", "yes/no",
         "number", "object", "array"}


# ---- the page ---------------------------------------------------------------------

VOCAB = {}  # (Keys section, key): (name, column title)


def read_doc(path):
    """{heading: [(name, unit, meaning)]} of every '### ' section's table."""
    sections, heading = {}, None
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("### "):
            heading = line[4:].strip()
            sections[heading] = []
        elif line.startswith("## "):
            heading = None
        elif heading and line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if set(cells[0]) <= set("-: ") or cells[0] in ("field", "column", "key", "figure"):
                continue
            if heading.startswith("Keys: ") and len(cells) == 5:  # key, name, column, unit
                VOCAB[(heading, cells[0].strip("`"))] = (cells[1], cells[2])
                cells = [cells[0], cells[3], cells[4]]
            check(len(cells) == 3, f"{DOC}: '{heading}': a row of three cells: {line}")
            name = cells[0][1:-1] if cells[0].startswith("`") and cells[0].endswith("`") else cells[0]
            sections[heading].append((name, cells[1] if len(cells) > 1 else "",
                                      cells[2] if len(cells) > 2 else ""))
    return sections


DOCS = read_doc(DOC)
OBJECTS = {h[len("JSON object: "):]: rows for h, rows in DOCS.items()
           if h.startswith("JSON object: ")}
KEYS = {h[len("Keys: "):]: {r[0] for r in rows} for h, rows in DOCS.items() if h.startswith("Keys: ")}

for heading, rows in DOCS.items():
    check(rows, f"{DOC}: '{heading}' has a table")
    names = [r[0] for r in rows]
    check(len(names) == len(set(names)), f"{DOC}: '{heading}': each name once: {names}")
    for name, unit, meaning in rows:
        ref = re.fullmatch(r"(object|array): (\w+)", unit)
        check(unit in UNITS or (ref and ref.group(2) in OBJECTS),
              f"{DOC}: '{heading}': {name}: the unit '{unit}' is none of the page's")
        check(meaning, f"{DOC}: '{heading}': {name} has a meaning")


def pattern(name):
    """A documented name as a regex: <metric>, <reason>, <variant>, <algo> stand
    for their keys."""
    out = ""
    for part in re.split(r"(<\w+>)", name):
        m = re.fullmatch(r"<(\w+)>", part)
        keys = sorted(KEYS.get(m.group(1), ())) if m else ()
        out += "(?:" + "|".join(map(re.escape, keys)) + ")" if m else re.escape(part)
    return re.compile(out)


def expand(heading, prefix="", seen_objects=()):
    """[(regex, origin)] of a JSON section: its fields under prefix, and the
    fields of the objects it names (origin: (section, field) to mark seen)."""
    out = []
    check(heading in DOCS, f"{os.path.relpath(DOC, SRC)} has no section '{heading}'")
    for name, unit, _ in DOCS.get(heading, []):
        ref = re.fullmatch(r"(object|array): (\w+)", unit)
        path = prefix[:-1] if name == "(root)" else prefix + name
        if name != "(root)":
            out.append((pattern(path), (heading, name)))
        if ref and ref.group(2) not in seen_objects:
            sub = path + ("[]" if ref.group(1) == "array" and name != "(root)" else "")
            sub = sub + "." if sub else ""
            out += expand("JSON object: " + ref.group(2), sub, seen_objects + (ref.group(2),))
    return out


SEEN = set()  # (section, name) met in some output


def documented(pats, name, what):
    hits = [origin for rx, origin in pats if rx.fullmatch(name)]
    SEEN.update(hits)
    check(hits, f"{what}: '{name}' is not in {os.path.relpath(DOC, SRC)}")


def flatten(v, path, out):
    """Every field's path: a.b, a[].b; an array of plain values is one field."""
    if path:
        out.add(path)
    if isinstance(v, dict):
        for k, x in v.items():
            flatten(x, f"{path}.{k}" if path else k, out)
    elif isinstance(v, list):
        for x in v:
            if isinstance(x, dict):
                for k, y in x.items():
                    flatten(y, f"{path}[].{k}" if path else k, out)
    return out


def json_out(sections, args, rcs=(0,)):
    """The command's JSON, each field checked against the sections."""
    rc, out, err = run(*args, "--format", "json")
    what = " ".join(args[:1] + ("--format", "json"))
    check(rc in rcs and out.strip(), f"{' '.join(args)} --format json: {rc} {err[-300:]}")
    try:
        j = json.loads(out)
    except ValueError:
        check(False, f"{what}: not JSON: {out[:200]}")
        return None
    pats = [p for s in sections for p in expand(s)]
    for path in sorted(flatten(j, "", set())):
        documented(pats, path, f"{what} ({' '.join(args[1:4])}...)")
    return j


def csv_out(sections, args, rcs=(0,)):
    """The command's CSV, one table: each column checked, every row as wide
    as the header."""
    rc, out, err = run(*args, "--format", "csv")
    check(rc in rcs and out.strip(), f"{' '.join(args)} --format csv: {rc} {err[-300:]}")
    return csv_text(sections, out, " ".join(args))


def csv_text(sections, out, what):
    table = list(csv.reader(io.StringIO(out)))
    check(table and all(table) and len({len(r) for r in table}) == 1,
          f"{what} csv: one table, one header, every row as wide: {out[:300]}")
    for s in sections:
        check(s in DOCS, f"{os.path.relpath(DOC, SRC)} has no section '{s}'")
    pats = [(pattern(name), (s, name)) for s in sections for name, _, _ in DOCS.get(s, [])]
    units = [(pattern(name), unit) for s in sections for name, unit, _ in DOCS.get(s, [])]
    for column in table[0] if table else []:
        documented(pats, column, f"{what} csv")
    for row in table[1:]:
        for column, cell in zip(table[0], row):
            unit = next((u for rx, u in units if rx.fullmatch(column)), "")
            number(unit, column, cell, what)
    return [dict(zip(table[0], r)) for r in table[1:]] if table else []


FIGURE = re.compile(r"-?(\d+)(\.\d+)?(e[-+]\d+)?")


def number(unit, column, cell, what):
    """One rule: a whole quantity in full, any other figure with at most 6
    significant digits (%.6g)."""
    if unit in ("count", "bytes", "ns", "index") and cell not in ("", "n/a"):
        check(re.fullmatch(r"-?\d+", cell), f"{what} csv: {column} {cell}: a whole number in full")
    elif unit in ("ms", "µs", "GB/s", "J", "W", "J/GB", "%", "ratio", "lanes", "number") and cell:
        m = FIGURE.fullmatch(cell)
        digits = (m.group(1) + (m.group(2) or "")[1:]).lstrip("0") if m else ""
        check(m and len(digits.rstrip("0") if not m.group(2) else digits) <= 6,
              f"{what} csv: {column} {cell}: a figure with at most 6 significant digits")


def recording_with(src, path, edit):
    """A copy of a recording with each JSON line passed through edit (None: dropped)."""
    with open(src) as f, open(path, "w") as out:
        for line in f:
            j = edit(json.loads(line)) if line.strip() else None
            if j is not None:
                out.write(json.dumps(j) + "\n")
    return path


# ---- run and ladder ---------------------------------------------------------------

RUN = ("--replay", DEMO, "--type", "int32", "--n", "2^24")
R_CSV, S_CSV = ["CSV: run, ladder"], ["CSV: run, ladder", "CSV: run --stalls"]
# a replay shows the stall view its recording holds (the run's table, then its
# lines and functions); --stalls=0 hides it
rows = csv_out(S_CSV, ("run", *RUN, "--variant", "sequential"))
check({r["table"] for r in rows} == {"run", "line", "function"},
      f"run --replay csv: the recorded stall view shown without --stalls: {rows[:1]}")
rows = csv_out(R_CSV, ("run", *RUN, "--variant", "sequential", "--stalls=0"))
check(len(rows) == 1 and "table" not in rows[0], f"run --replay --stalls=0 csv: the run alone: {rows}")
rows = csv_out(S_CSV, ("run", *RUN, "--variant", "sequential", "--metrics", "full", "--stalls"))
kinds = [r["table"] for r in rows]
check(kinds[:1] == ["run"] and set(kinds) == {"run", "line", "function"},
      f"run --stalls csv: one table, the run then its lines and functions: {kinds}")
lines = [r for r in rows if r["table"] == "line"]
hot = max(lines, key=lambda r: int(r["samples"])) if lines else {}
check(rows and all(rows[0][k] == hot.get(k[4:]) for k in ("hot_file", "hot_line", "hot_text"))
      and rows[0]["hot_share_pct"] == hot.get("share_pct"),
      f"run --stalls csv: the run's hottest line is its line row with the most samples: {rows[:1]}")
check(all(r["variant"] == "" and r["step"] == "" for r in rows[1:]),
      "run --stalls csv: a line's row leaves the run's columns empty")
rows = csv_out(S_CSV, ("run", *RUN, "--variant", "sequential", "--stalls", "--against",
                       "interleaved"))
against = [r for r in rows if r["table"] == "against"]
check(against and all(r["compared_with"] == "interleaved, same settings" for r in against)
      and any(r["line"] == "" for r in against) and any(r["line_before"] == "" for r in against),
      f"run --stalls --against csv: the lines of both views, one table: {against[:2]}")
json_out(["JSON: run"], ("run", *RUN, "--variant", "sequential", "--metrics", "full", "--stalls"))
json_out(["JSON: run"], ("run", *RUN, "--variant", "sequential", "--stalls", "--against",
                         "interleaved"))
# counters asked for and not recorded: each says why (exit 2: none recorded)
json_out(["JSON: run"], ("run", "--replay", DEMO, "--type", "float32", "--n", "2^24",
                         "--variant", "sequential", "--metrics", "full"), rcs=(2,))
csv_out(S_CSV, ("run", "--replay", DEMO, "--type", "float32", "--n", "2^24", "--variant",
                "sequential", "--metrics", "full"), rcs=(2,))
# a WRONG the arithmetic explains: the float32 running sum at 2^24, said in JSON
j = json_out(["JSON: run"], ("run", "--replay", DEMO, "--type", "float32", "--n", "2^28",
                             "--variant", "atomic"), rcs=(1,)) or {}
check("2^24" in j.get("wrong_reason", ""), f"atomic at 2^28: its wrong_reason: {j.get('wrong_reason')}")
# a user kernel's build; a run over two GPUs with each GPU's counters
LAB = ("run", "--replay", KERNELS, "--kernel", "conf/kernels/lab-tail.cu", "--n", "1000",
       "--input", "ones")
json_out(["JSON: run"], LAB, rcs=(1,))  # the lab's kernel is wrong at 1000, as recorded
csv_out(R_CSV, LAB, rcs=(1,))
TWO = ("--replay", GPUS2, "--n", "2^24", "--reps", "10", "--metrics", "default")
json_out(["JSON: run"], ("run", *TWO, "--variant", "vectorized", "--gpus", "2"))
csv_out(R_CSV, ("run", *TWO, "--variant", "vectorized", "--gpus", "2"))


# a stall view without causes traced, and a run whose sampling failed
def sampled(j, how):
    if j.get("request", {}).get("variant") != "sequential" or "stalls" not in j:
        return j if "request" not in j or j.get("stalls") is None else None
    j["request"]["stalls"] = 1
    how(j["stalls"])
    return j


def no_causes(s):
    s["causes"] = False
    s.pop("links", None)


def failed(s):
    s.clear()
    s.update({"valid": False, "why": "PC sampling needs the profiling permission here"})


for name, how in (("no-causes", no_causes), ("failed", failed)):
    rec = recording_with(DEMO, os.path.join(TMP, name + ".jsonl"), lambda j: sampled(j, how))
    args = ("run", "--replay", rec, "--type", "int32", "--n", "2^24", "--variant", "sequential",
            "--stalls")
    j = json_out(["JSON: run"], args)
    rows = csv_out(S_CSV, args)
    if how is failed:
        check(rows and rows[0]["stall_note"] == "PC sampling needs the profiling permission here"
              and [r["table"] for r in rows] == ["run"],
              f"run --stalls csv without a view: the run's row says why: {rows}")

LADDER = ("ladder", *RUN, "--metrics", "full", "--stalls")
rows = csv_out(R_CSV, LADDER)
rc, table, _ = run(*LADDER)
waits = []  # each step's waits line, its continuation lines (wrapped at 120 columns) joined
for l in table.splitlines():
    if "waits:" in l:
        waits.append(l)
    elif waits and l.startswith(" " * 27) and l.strip():
        waits[-1] += " " + l.strip()
check(all(len(l) <= 120 for l in table.splitlines()), "ladder --stalls: the table keeps to 120 columns")
pairs = list(zip(rows, waits))
check(len(rows) == 14 and len(waits) == 14 and all(
    f"{r['hot_file']}:{r['hot_line']}" in w and f"holds {float(r['hot_share_pct']):.0f}% of the samples, "
    f"{float(r['hot_reason_share_pct']):.0f}% " in w and f"({r['hot_reason'].replace('_', ' ')})" in w
    and (r["hot_text"] != "") == (f"{r['hot_file']}:{r['hot_line']} (" in w)
    for r, w in pairs if r["stall_samples"]),
      f"ladder --stalls csv: each step's hottest line, share, reason and text, as the table's waits "
      f"line: {waits[:1]} {rows[:1]}")
check(pairs and all(r["stall_note"] and r["stall_note"] in w for r, w in pairs if not r["stall_samples"])
      and sum(1 for r in rows if r["stall_samples"]) == 13,
      f"ladder --stalls csv: a step without a view says why, as the table: {waits[-1:]}")
json_out(["JSON: ladder"], LADDER)
K = ("ladder", "--replay", KERNELS, "--kernel", "conf/kernels/fast.cu")
json_out(["JSON: ladder"], K)
csv_out(R_CSV, K)
G = ("ladder", "--gpus", "2", "--variants", "vectorized,cub", "--replay", DEMO, "--n", "2^24")
rows = csv_out(R_CSV, G)
check(any(r["status"] != "0" and r["error"] for r in rows), f"ladder csv: a refused row: {rows}")
json_out(["JSON: ladder"], G)
json_out(["JSON: ladder"], ("ladder", *TWO, "--variants", "vectorized,cub", "--gpus", "2"))

# energy per reduction, measured; and asked for where NVML was missing
E = ("--replay", ENERGY, "--n", "2^24", "--energy")
rows = csv_out(R_CSV, ("ladder", *E))
check(len(rows) == 14 and all(float(r["j_per_gb"]) > 0 and not r["energy_note"] for r in rows),
      f"ladder --energy csv: every step's energy: {rows[:1]}")
json_out(["JSON: ladder"], ("ladder", *E))
csv_out(R_CSV, ("run", *E, "--variant", "vectorized"))
json_out(["JSON: run"], ("run", *E, "--variant", "vectorized"))


def no_nvml(j):
    if j.get("request", {}).get("variant") == "vectorized" and "energy" in j:
        j["energy"] = {"energy_note": "NVML is not here (libnvidia-ml.so.1): it comes with the "
                                      "NVIDIA driver"}
    return j


rec = recording_with(ENERGY, os.path.join(TMP, "no-nvml.jsonl"), no_nvml)
args = ("run", "--replay", rec, "--n", "2^24", "--variant", "vectorized", "--energy")
rows = csv_out(R_CSV, args)
check(rows and rows[0]["energy_note"].startswith("NVML is not here") and rows[0]["energy_j"] == "",
      f"run --energy csv without NVML: the note, no figures: {rows}")
json_out(["JSON: run"], args)

# ---- run --check ------------------------------------------------------------------

for variant, kind, rc in (("unroll_warp_volatile", "race", 9), ("vectorized", "memory", 0)):
    args = ("run", "--variant", variant, "--n", "2^20", "--check", kind, "--replay", CHECKS)
    csv_out(["CSV: run --check"], args, rcs=(rc,))
    json_out(["JSON: run --check"], args, rcs=(rc,))


def more(j):
    if j.get("command") == "check" and j["check"]["findings"]:
        j["check"].update(note="the sanitizer's note", more_groups=2)
    return j


rec = recording_with(CHECKS, os.path.join(TMP, "checks.jsonl"), more)
json_out(["JSON: run --check"], ("run", "--variant", "unroll_warp_volatile", "--n", "2^20",
                                 "--check", "race", "--replay", rec), rcs=(9,))

# ---- sweep ------------------------------------------------------------------------

rows = csv_out(["CSV: sweep"], ("sweep", "--replay", DEMO))
check(rows and "pct_measured" in rows[0], "sweep csv: pct_measured, as run and ladder name it")
j = json_out(["JSON: sweep"], ("sweep", "--replay", DEMO)) or {}
leads, cross = j.get("leads", []), j.get("crossings", [])
check(len(leads) == 3 and len(cross) == 2 and [c["to"] for c in cross] == [l["variant"] for l in leads[1:]]
      and all(c["n"] in j["sizes"] and c["n_last_before"] < c["n"] for c in cross)
      and leads[0]["n_from"] == j["sizes"][0] and leads[-1]["n_to"] == j["sizes"][-1]
      and all(l["variant"] in j["crossovers"] or l["variant"] == "cpu" for l in leads),
      f"sweep json: the crossovers as data, beside the sentence: {leads} {cross} {j.get('crossovers')}")
SW = ("sweep", "--replay", DEMO, "--type", "float64", "--variants", "first_add,sequential",
      "--range", "2^10,2^12")
rows = csv_out(["CSV: sweep"], SW)
check(any(r["status"] != "0" and r["error"] for r in rows), f"sweep csv: a row not recorded: {rows}")
json_out(["JSON: sweep"], SW)
SE = ("sweep", "--replay", ENERGY, "--energy")
rows = csv_out(["CSV: sweep"], SE)
check(len(rows) == 21 and all(float(r["energy_j"]) > 0 for r in rows),
      f"sweep --energy csv: every cell's energy: {rows[:1]}")
json_out(["JSON: sweep"], SE)
plot = os.path.join(TMP, "sweep.svg")
rc, _, err = run("sweep", "--replay", DEMO, "--plot", plot)
check(rc == 0, f"sweep --plot: {rc} {err[-300:]}")
if rc == 0:
    KEYS["variant"] = {v["id"] for v in json.loads(run("variants", "--format", "json")[1])}
    csv_text(["CSV: sweep --plot"], open(plot[:-4] + ".csv").read(), "sweep --plot")
# a sweep in both cache states, from an H200 (sweep --cache both): the columns
# only such a sweep writes; without that recording they are said skipped, not
# failed (tests/cli/test_sweep_cache.py does the same)
WARM = os.path.join(RECS, "h200-warm.jsonl")
BOTH_ONLY = {("CSV: sweep --plot", "<variant>_cold"), ("CSV: sweep --plot", "<variant>_warm")}
if os.path.exists(WARM):
    SB = ("sweep", "--replay", WARM, "--cache", "both")
    rows = csv_out(["CSV: sweep"], SB, rcs=(0, 1))  # 1: a row recorded wrong
    check({r["cache"] for r in rows} == {"cold", "warm"}, f"sweep --cache both csv: both: {rows[:1]}")
    j = json_out(["JSON: sweep"], SB, rcs=(0, 1)) or {}
    check(j.get("caches") == ["cold", "warm"], f"sweep --cache both json: caches {j.get('caches')}")
    plot = os.path.join(TMP, "both.svg")
    rc, _, err = run(*SB, "--plot", plot)
    check(rc in (0, 1) and os.path.exists(plot[:-4] + ".csv"), f"sweep --cache both --plot: {err}")
    if os.path.exists(plot[:-4] + ".csv"):
        csv_text(["CSV: sweep --plot"], open(plot[:-4] + ".csv").read(), "sweep --cache both --plot")
else:
    print(f"SKIP: {os.path.relpath(WARM, SRC)} is not shipped yet: "
          f"{', '.join(n for _, n in sorted(BOTH_ONLY))} unchecked")
    SEEN.update(BOTH_ONLY)

# ---- allreduce --------------------------------------------------------------------

AR_CSV, AR_JSON = ["CSV: allreduce"], ["JSON: allreduce"]
for rec in (AR1, AR2):
    rows = csv_out(AR_CSV, ("allreduce", "--replay", rec, "--algo", "all"))
    check(rows and all(float(r["algbw_gbps"]) > 0 for r in rows),
          f"allreduce csv: algbw a real value at every size: {[r['algbw_gbps'] for r in rows[:3]]}")
    j = json_out(AR_JSON, ("allreduce", "--replay", rec, "--algo", "all")) or {}
    algos = {p["algo"] for p in j.get("points", [])}
    check(algos == KEYS.get("algo"), f"Keys: algo are --algo all's: {algos} {KEYS.get('algo')}")
    check(isinstance(j.get("device"), dict) and j["device"].get("name", "").startswith("NVIDIA H"),
          f"allreduce json: the device an object, the recorded name in it: {j.get('device')}")
    plot = os.path.join(TMP, "ar.svg")
    rc, _, err = run("allreduce", "--replay", rec, "--algo", "all", "--plot", plot, "--force")
    check(rc == 0, f"allreduce --plot: {rc} {err[-300:]}")
    if rc == 0:
        csv_text(["CSV: allreduce --plot"], open(plot[:-4] + ".csv").read(), "allreduce --plot")
run_dev = json.loads(run("run", *RUN, "--variant", "sequential", "--format", "json")[1])["device"]
check(j and set(j["device"]) == set(run_dev),
      f"allreduce json: its device has run's fields: {sorted(j.get('device', {}))} {sorted(run_dev)}")


def nvlink(j):
    for p in j["points"]:
        p.update(nvlink_tx_bytes=2 * p["bytes"], nvlink_rx_bytes=2 * p["bytes"])
    return j


with open(AR2) as f:
    edited = nvlink(json.load(f))
rec = os.path.join(TMP, "nvlink.json")
with open(rec, "w") as f:
    json.dump(edited, f)
csv_out(AR_CSV, ("allreduce", "--replay", rec, "--algo", "all"))
json_out(AR_JSON, ("allreduce", "--replay", rec, "--algo", "all"))
# recorded again, the device an object; it replays the same
again = os.path.join(TMP, "again.json")
rc, _, err = run("allreduce", "--replay", AR2, "--algo", "all", "--record", again)
rc2, out, err2 = run("allreduce", "--replay", again, "--algo", "all", "--format", "json")
j = json.loads(out) if rc2 == 0 else {}
check(rc == 0 and rc2 == 0 and j.get("device", {}).get("name") == "NVIDIA H200"
      and j == json.loads(run("allreduce", "--replay", AR2, "--algo", "all", "--format", "json")[1]),
      f"allreduce: a recording with the device object replays as the one it came from: {err} {err2}")

# the object's figures are checked as a run's device's are
bad = dict(j, device=dict(j.get("device", {}), sm_count=-3))
with open(os.path.join(TMP, "bad.json"), "w") as f:
    json.dump(bad, f)
rc, out, err = run("allreduce", "--replay", os.path.join(TMP, "bad.json"), "--algo", "all")
check(rc == 7 and "device.sm_count is -3: expected a whole number of SMs" in err and out == "",
      f"allreduce: a recorded device's figure out of range is refused, named: {rc} {err}")

# ---- the commands that need no GPU ------------------------------------------------

for fast in ("fast.cu", "template.cu"):
    csv_out(["CSV: compile"], ("compile", os.path.join(SRC, "conf", "kernels", fast)))
json_out(["JSON: compile"], ("compile", os.path.join(SRC, "conf", "kernels", "fast.cu")))
json_out(["JSON: compile"], ("compile", os.path.join(SRC, "tests", "data", "kernels", "syntax.cu")),
         rcs=(1, 2, 6))
json_out(["JSON: compile"], ("compile", os.path.join(SRC, "conf", "kernels", "fast.cu"),
                             os.path.join(SRC, "conf", "kernels", "template.cu")))
csv_out(["CSV: variants"], ("variants",))
json_out(["JSON: variants"], ("variants",))
csv_out(["CSV: metrics"], ("metrics",))
m = json_out(["JSON: metrics"], ("metrics",)) or {}
have = {(x["key"], x["unit"]) for x in m.get("metrics", [])}
doc = {(r[0], r[1]) for r in DOCS.get("Keys: metric", [])}
check(have and have == doc, f"Keys: metric are the counters and units of redscope metrics: "
                            f"{sorted(have ^ doc)}")
for key, unit, _ in DOCS.get("Keys: metric", []):
    suffix = {"ns": "_ns", "bytes": "_bytes", "GB/s": "_gbps", "%": "_pct", "lanes": "_lanes"}.get(unit, "")
    column = key if not suffix or suffix[1:] in key.split("_") else key + suffix
    check(column in [r[0] for r in DOCS.get("CSV: run, ladder", [])],
          f"the CSV column of counter {key} is {column}: its unit in its name")
table = open(os.path.join(SRC, "src", "core", "stall_table.c")).read()
reasons = set(re.findall(r'^\s*\{"(\w+)", "(?:Stall [^"]*|Selected)"', table, re.M)) | {"unknown"}
check(reasons == KEYS.get("reason"), f"Keys: reason are the stall table's: {reasons} {KEYS.get('reason')}")
home = os.path.join(TMP, "config")
os.makedirs(os.path.join(home, "redscope", "presets"))
with open(os.path.join(home, "redscope", "presets", "broken.ini"), "w") as f:
    f.write("[request\nthis is no preset\n")
for fmt in ("csv", "json"):
    rc, out, err = run("presets", "--format", fmt, env={"XDG_CONFIG_HOME": home})
    if fmt == "csv":
        csv_text(["CSV: presets"], out, "presets")
    else:
        pats = expand("JSON: presets")
        for path in flatten(json.loads(out), "", set()):
            documented(pats, path, "presets --format json")
        check(any("error" in p for p in json.loads(out)), f"presets json: a broken one's error: {out[-300:]}")
for rec in (DEMO, KERNELS):
    csv_out(["CSV: recording"], ("recording", rec))
    json_out(["JSON: recording"], ("recording", rec))
# diff: the H100's ladder against the H200's (rows on one side, a failed
# one), and the H200's against itself (stall views on both sides)
for a, b in ((KERNELS, DEMO), (DEMO, DEMO)):
    csv_out(["CSV: diff"], ("diff", a, b))
    json_out(["JSON: diff"], ("diff", a, b))

# devices needs a driver: without one nothing on stdout; its JSON objects are
# run's device (checked above), its CSV header is read from the source
for fmt in ("csv", "json"):
    rc, out, err = run("devices", "--format", fmt)
    if rc in (3, 4):
        check(out == "" and err.startswith("redscope: "), f"devices --format {fmt} without a GPU: {out!r}")
    elif fmt == "csv":
        csv_text(["CSV: devices"], out, "devices")
    else:
        for path in flatten(json.loads(out), "", set()):
            documented(expand("JSON: devices"), path, "devices --format json")
# and from a recording, where no GPU is: the GPUs it was made on
csv_out(["CSV: devices"], ("devices", "--replay", GPUS2))
json_out(["JSON: devices"], ("devices", "--replay", DEMO))

# --version: every key there, each documented
rc, out, err = run("--version", "--format", "json")
ver = json.loads(out) if rc == 0 else {}
for path in flatten(ver, "", set()):
    documented(expand("JSON: --version"), path, "--version --format json")
check(set(ver) == {n for n, _, _ in DOCS.get("JSON: --version", [])},
      f"--version: every documented key is always there: {sorted(ver)}")

# ---- every command that takes --format has its sections ----------------------------

rc, out, _ = run("--help")
commands = re.findall(r"^  (\w+)\s{2,}", out.split("commands:", 1)[-1].split("\n\n", 1)[0], re.M)
check(len(commands) >= 10, f"the commands of redscope --help: {commands}")
for c in commands:
    if "--format" not in run(c, "--help")[1]:
        continue
    for fmt in ("CSV", "JSON"):
        check(any(re.match(rf"{fmt}: (.*\W)?{c}(\W|$)", h) for h in DOCS),
              f"{c} takes --format: {os.path.relpath(DOC, SRC)} has no '{fmt}: {c}' section")

# ---- every documented name appears --------------------------------------------------

for heading, rows in DOCS.items():
    if heading.startswith("Keys: "):
        continue
    for name, _, _ in rows:
        if name != "(root)":
            check((heading, name) in SEEN, f"{os.path.relpath(DOC, SRC)}: '{heading}': {name} "
                                           "appears in no output of the commands run here")

# ---- one name per figure ---------------------------------------------------------
for old in ("pct_limit", "empty_kernel_us", "one_launch_us"):
    check(old not in open(DOC).read(), f"{old}: an old name the page still lists")


# each counter has one name and one column title: the page lists them as
# `metrics` does, each is unique, and every output uses them
rc, out, _ = run("metrics", "--format", "json")
vocab = {m["key"]: (m["name"], m["column"]) for m in json.loads(out)["metrics"]}
page = {k: v for (h, k), v in VOCAB.items() if h == "Keys: metric"}
check(rc == 0 and page == vocab, f"Keys: metric names and columns as `metrics` says: {page} {vocab}")
pairs = [v for (h, k), v in VOCAB.items() if h == "Keys: metric pair"]
check(len(pairs) == 2, f"the two pairs' names: {pairs}")
NAMES = {n for n, _ in vocab.values()} | {n for n, _ in pairs}
TITLES = {c for _, c in vocab.values()} | {c for _, c in pairs}
check(len(NAMES) == len(vocab) + 2 and len(TITLES) == len(vocab) + 2,
      f"no two figures share a name or a column title: {sorted(NAMES)} {sorted(TITLES)}")
rc, out, _ = run("ladder", "--replay", DEMO, "--n", "2^24", "--metrics", "full", "--wide")
head = next(l for l in out.splitlines() if l.startswith("  #"))
cols = head.split("correct", 1)[1]
cols = [cols[i:i + 11].strip() for i in range(0, len(cols), 11)]
# the demo's 'full' is the full set as it was recorded, before the L2's
# counters (2026-11-28): a replay shows what the recording holds
NEWER = {"l2_read_sectors", "l2_read_hits", "l2_hit_rate"}
check(rc == 0 and cols == [c for k, (_, c) in vocab.items() if k not in NEWER],
      f"ladder --wide: its counter columns are the column titles: {cols}")
rc, out, _ = run("ladder", "--replay", DEMO, "--n", "2^24", "--metrics", "full")
cells = [l.split(" yes  ", 1)[1] for l in out.splitlines() if " yes  " in l]
unnamed = [c for c in cells if not any(c.startswith(n + " ") for n in NAMES)]
check(rc == 0 and len(cells) == 14 and not unnamed,
      f"ladder: each step's 'explains it' starts with a counter's name: {unnamed or cells}")
rc, out, _ = run("diff", DEMO, os.path.join(RECS, "h100-kernels.jsonl"))
moved = [m.rsplit(" ", 1)[0] for l in out.splitlines() if re.search(r"(faster|slower|same)  \S", l)
         for m in re.split(r"(?:faster|slower|same)  ", l, 1)[1].split(", ")]
check(rc in (0, 1) and moved and set(moved) <= TITLES,
      f"diff: the counters that moved by their column titles: {moved}")

shutil.rmtree(TMP, ignore_errors=True)
check.finish()
