#!/usr/bin/env python3
"""The command line as a user meets it, on a machine with or without a GPU:
help, errors (one line on stderr, a distinct exit code), output formats,
presets and recordings. GPU variants are run by test_gpu_cli.py."""
import csv
import ctypes
import io
import json
import time
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import EXE, Checks, run  # noqa: E402

check = Checks("test_cli")


def one_line_error(rc, err, code, fragment, what):
    lines = [l for l in err.splitlines() if l.strip()]
    check(rc == code, f"{what}: exit {rc}, expected {code} ({err.strip()})")
    check(len(lines) == 1 and lines[0].startswith("redscope: "), f"{what}: one line, got {err!r}")
    check(fragment in err, f"{what}: {fragment!r} not in {err!r}")


have_gpu = run("devices")[0] == 0
tmp = tempfile.mkdtemp(prefix="rs_cli_")
env = {"XDG_CONFIG_HOME": tmp}

rc, out, _ = run("--version")
check(rc == 0 and out.startswith("redscope "), "--version")
rc, out, _ = run("--help")
check(rc == 0 and "ladder" in out and "exit codes" in out, "--help lists commands")
rc, out, _ = run("run", "--help")
check(rc == 0 and "--variant ID" in out and "--n N" in out and "[2^24]" in out, "run --help")
check("--variants" not in out, "run --help does not offer --variants")
# each command's help offers what it takes as it takes it: compile's and
# recording's files are words, the all-reduce records one JSON document,
# and a sweep needs neither --variants nor --range
check("--kernel" not in run("compile", "--help")[1], "compile --help: its files, not --kernel")
check("--replay" not in run("recording", "--help")[1], "recording --help: FILE, not --replay")
# each command's help lists the exit codes it gives, from one table
h = run("diff", "--help")[1]
check("exit codes:\n" in h and "  10   diff --fail-slower" in h and "  9 " not in h,
      "diff --help: its exit codes, 10 among them, no --check's")
h = run("variants", "--help")[1]
check(h.rstrip().endswith("exit codes:\n  0    ok"), "variants --help: exit 0 alone")
h = run("run", "--help")[1]
check("  9    a --check found" in h and "  1    a wrong result" in h, "run --help: 1 and 9")
check("one JSON document" in run("allreduce", "--help")[1], "allreduce --help: --record")
check(run("sweep", "--help")[1].startswith("usage: redscope sweep [--variants LIST] [--range"),
      "sweep --help: its options are optional")
rc, out, _ = run("help", "ladder")
check(rc == 0 and "--variants" in out and "--format FMT" in out, "help ladder")

# Bad input: one clear line, exit 2.
one_line_error(*run("run", "--variant", "cpu", "--n", "abc")[0:3:2], 2, "bad value 'abc' for --n",
               "bad n")
one_line_error(*run("run", "--bogus")[0:3:2], 2, "unknown option '--bogus'", "unknown option")
for flag, v in (("--cross", "bogus"), ("--reps", "abc"), ("--ept", "-1"),  # the flag, not its key
                ("--n", "2 for n")):
    one_line_error(*run("run", flag, v)[0:3:2], 2, f"bad value '{v}' for {flag}: expected",
                   f"{flag} {v} names the flag")
with tempfile.NamedTemporaryFile("w", suffix=".ini", delete=False) as f:
    f.write("[run]\ncross = p2p\n")
one_line_error(*run("run", "--preset", f.name)[0:3:2], 2,
               "unknown key 'cross' in [run] (the key for --cross is 'cross_finish', in [run])",
               "a preset key written as the flag: the key named")
os.unlink(f.name)
one_line_error(*run("run", "--variant")[0:3:2], 2, "needs a value", "missing value")
one_line_error(*run("frobnicate")[0:3:2], 2, "unknown command 'frobnicate'", "unknown command")
one_line_error(*run("run", "--variant", "sequential", "--block", "96")[0:3:2], 2,
               "power-of-two blockDim", "block not a power of two")
one_line_error(*run("run", "--variant", "atomic", "--op", "product")[0:3:2], 2,
               "no atomic multiply", "atomic product refused")
one_line_error(*run("run", "--variant", "first_add", "--ept", "8")[0:3:2], 2,
               "takes no --grid or --ept", "ept on a tree variant")
one_line_error(*run("run", "--variants", "cpu")[0:3:2], 2, "takes no --variants", "run --variants")
one_line_error(*run("ladder", "--variants", "foo..bar")[0:3:2], 2,
               "unknown variants 'foo' and 'bar'", "a range with two unknown ends names both")
one_line_error(*run("ladder", "--variants", "foo..thrust")[0:3:2], 2, "unknown variant 'foo'",
               "a range with one unknown end names it")
one_line_error(*run("run", "--format", "xml")[0:3:2], 2, "expected table, csv, json, md or html", "bad format")
one_line_error(*run("run", "--block", "2048")[0:3:2], 2, "from 32 to 1024", "block out of range")
one_line_error(*run("run", "--preset", "no-such-preset")[0:3:2], 2, "no preset named", "missing preset")

if not have_gpu:
    rc, _, err = run("run", "--variant", "sequential", "--n", "1000")
    check(rc in (3, 4), f"no GPU: exit 3 or 4, got {rc}")
    check(len(err.strip().splitlines()) == 1 and ("driver" in err or "device" in err),
          f"no GPU: one line naming the driver or device: {err!r}")
    rc, _, err = run("devices")
    check(rc in (3, 4) and "redscope:" in err, "devices without a GPU")

# No driver at all is not "your driver is too old": every GPU command says
# which it is, exit 3. The loader is asked as redscope asks it (dlopen).
GPU_COMMANDS = (("run", "--variant", "sequential", "--n", "1000"), ("ladder", "--n", "1000"),
                ("sweep", "--variants", "sequential", "--range", "2^10..2^12"), ("devices",),
                ("allreduce", "--gpus", "2", "--algo", "peer_ring", "--n", "1000"))
try:
    ctypes.CDLL("libcuda.so.1")
    have_libcuda = True
except OSError:
    have_libcuda = False
if not have_libcuda:
    for args in GPU_COMMANDS:
        rc, out, err = run(*args)
        one_line_error(rc, err, 3, "no NVIDIA driver (libcuda.so.1 not found)",
                       f"{args[0]} without libcuda")
        check("insufficient" not in err and "too old" not in err and out == "",
              f"{args[0]} without libcuda: not an old driver: {err!r}")
# A driver for CUDA 11.8 (tests/lib/fake_libcuda.c, before the real one on the
# loader's path): too old, and the versions are named.
fake = os.environ.get("RS_FAKE_LIBCUDA_DIR")
check(fake is not None and os.path.exists(os.path.join(fake, "libcuda.so.1")),
      "the fake old libcuda is built")
for args in GPU_COMMANDS if fake else ():
    rc, out, err = run(*args, env={"LD_LIBRARY_PATH": ":".join(
        filter(None, (fake, os.environ.get("LD_LIBRARY_PATH"))))})
    one_line_error(rc, err, 3, "NVIDIA driver too old for CUDA ", f"{args[0]} with an old driver")
    check("(found a driver for CUDA 11.8)" in err and "not found" not in err,
          f"{args[0]} with an old driver: both versions named: {err!r}")

# The cpu variant runs anywhere: every format, every way to write n.
for n, expect in (("1000", 1000), ("2^10", 1024), ("1K", 1024), ("3*1024+1", 3073), ("2^20+7", 1048583)):
    rc, out, err = run("run", "--variant", "cpu", "--n", n, "--reps", "2", "--format", "json")
    check(rc == 0, f"cpu run n={n}: {err}")
    j = json.loads(out)
    check(j["request"]["n"] == expect and j["correct"] is True, f"cpu json n={n}")
    check(j["time_ms"]["median"] > 0 and j["time_ms"]["reps"] == 2, f"cpu times n={n}")
for t in ("int32", "int64", "float32", "float64", "float16", "bfloat16"):
    for op in ("sum", "min", "max", "product"):
        rc, out, err = run("run", "--variant", "cpu", "--type", t, "--op", op, "--n", "100003",
                           "--reps", "1", "--warmup", "0", "--format", "json")
        check(rc == 0 and json.loads(out)["correct"], f"cpu {t} {op}: {err}")
rc, out, _ = run("run", "--variant", "cpu", "--n", "4096", "--format", "csv")
rows = out.strip().splitlines()
check(rc == 0 and len(rows) == 2 and rows[0].startswith("step,variant,"), "csv run")
check(len(rows[0].split(",")) == len(rows[1].split(",")), "csv columns match")
rc, out, _ = run("run", "--variant", "cpu", "--n", "4096")
check(rc == 0 and "result" in out and "exact" in out and "one host thread" in out, "table run")

rc, out, err = run("ladder", "--variants", "cpu", "--n", "5000", "--reps", "2")
check(rc == 0 and "cpu" in out and "yes" in out, f"ladder of the cpu: {err}")
rc, out, _ = run("ladder", "--variants", "cpu", "--n", "5000", "--reps", "2", "--format", "json")
check(rc == 0 and len(json.loads(out)["rows"]) == 1, "ladder json")

# Sweeps on the CPU: the table, and a chart through gnuplot with its CSV.
rc, out, err = run("sweep", "--variants", "cpu", "--range", "2^10..2^14", "--reps", "2")
check(rc == 0 and "2^14" in out
      and "crossovers (a lead changes where another is >5% faster): cpu" in out,
      f"cpu sweep table: {err}")
svg = os.path.join(tmp, "chart.svg")
rc, out, err = run("sweep", "--variants", "cpu", "--range", "1K..64K:4", "--reps", "2",
                   "--plot", svg)
check(rc == 0 and os.path.getsize(svg) > 1000 and "<svg" in open(svg).read(), f"--plot: {err}")
check(open(os.path.join(tmp, "chart.csv")).readline().startswith("n,cpu"), "the plot's CSV")
one_line_error(*run("sweep", "--variants", "cpu", "--range", "2^10..2^14", "--plot",
                    os.path.join(tmp, "x.gif"))[0:3:2], 2, "ending in .svg or .png", "bad plot name")
# A quote in the chart's name is text to gnuplot, never a command.
odd = os.path.join(tmp, "it's'; system('echo INJECTED >&2'); x='.svg")
rc, out, err = run("sweep", "--variants", "cpu", "--range", "2^10..2^12", "--reps", "2",
                   "--plot", odd)
check(rc == 0 and "INJECTED" not in err.splitlines() and os.path.getsize(odd) > 1000
      and os.path.exists(odd[:-4] + ".csv"), f"--plot with a quote in the name: {rc} {err}")

# Recordings: header and one line per row, readable JSON.
rec = os.path.join(tmp, "rec.jsonl")
rc, _, _ = run("run", "--variant", "cpu", "--n", "1000", "--record", rec)
lines = open(rec).read().splitlines()
check(rc == 0 and len(lines) == 2, "record writes a header and a row")
check(json.loads(lines[0]).get("redscope_recording") == 1, "recording header")
check(json.loads(lines[1])["command"] == "run", "recording row")
# Outputs are checked before any work: a big CPU run would take seconds.
svg_dir = os.path.join(tmp, "folder.svg")
os.mkdir(svg_dir)
for args, what in ((["run", "--variant", "cpu", "--n", "2^28", "--record", "/nonexistent/d/x.jsonl"],
                    "run --record into a missing directory"),
                   (["run", "--variant", "cpu", "--n", "2^28", "--record", tmp],
                    "run --record a directory"),
                   (["ladder", "--variants", "cpu", "--n", "2^28", "--record",
                     "/nonexistent/d/x.jsonl"], "ladder --record into a missing directory"),
                   (["ladder", "--variants", "cpu", "--n", "2^28", "--record", tmp],
                    "ladder --record a directory"),
                   (["sweep", "--variants", "cpu", "--range", "2^26..2^28", "--record",
                     "/nonexistent/d/x.jsonl"], "sweep --record into a missing directory"),
                   (["sweep", "--variants", "cpu", "--range", "2^26..2^28", "--plot", svg_dir],
                    "sweep --plot a directory"),
                   (["sweep", "--variants", "cpu", "--range", "2^26..2^28", "--plot",
                     "/nonexistent/s.svg"], "sweep --plot into a missing directory")):
    t0 = time.time()
    rc, out, err = run(*args)
    # a directory named as the output is refused by rule (2); a missing one
    # is a file that cannot be written (7)
    want = 7 if "missing directory" in what else 2
    check(rc == want and out == "" and time.time() - t0 < 0.5 and len(err.splitlines()) == 1
          and ("directory" in err), f"{what}: refused at once, nothing measured ({rc}, {err!r})")
rc, out, err = run("sweep", "--variants", "cpu", "--range", "2^26..2^28", "--plot",
                   os.path.join(tmp, "s.svg"), env={"PATH": "/nonexistent"})
check(rc == 7 and out == "" and "gnuplot" in err, f"--plot without gnuplot: refused first {err!r}")

# Batch commands from a recording, where no GPU is: the same tables, CSV, JSON and chart.
demo = os.path.join(os.environ["REDSCOPE_SOURCE"], "conf", "recordings", "h200-demo.jsonl")
rc, out, err = run("ladder", "--replay", demo, "--metrics", "full", "--format", "json")
j = json.loads(out) if rc == 0 else {"rows": []}
check(rc == 0 and len(j["rows"]) == 14 and all(r["correct"] for r in j["rows"]),
      f"ladder --replay: 14 recorded rows: {err}")
check(rc == 0 and j["rows"][3]["metrics"]["values"]["bank_ld"]["valid"],
      "ladder --replay --metrics full: the recorded counters")
rc, out, err = run("ladder", "--replay", demo, "--metrics", "full", "--wide")
check(rc == 0 and "sequential" in out and "bank ld" in out, f"ladder --replay table: {err}")
# a misspelt counter after --metrics is named as one, not as a stray word
one_line_error(*run("ladder", "--replay", demo, "--metrics", "bank_lds")[0:3:2], 2,
               "unknown metric 'bank_lds'", "--metrics with a misspelt key")
rc, out, err = run("run", "--replay", demo, "--variant", "sequential", "--format", "csv",
                   "--stalls=0")
check(rc == 0 and out.count("\n") == 2 and ",sequential," in out, f"run --replay csv: {err}")
rc, out, err = run("run", "--replay", demo, "--variant", "sequential", "--format", "csv")
check(rc == 0 and out.startswith("table,") and "\nline," in out and "\nfunction," in out,
      f"run --replay csv: the recorded stall view's lines and functions too: {out[:200]} {err}")
one_line_error(*run("run", "--replay", demo, "--type", "float16")[0:3:2], 2,
               "not in the recording", "run --replay of what was not recorded")
svg = os.path.join(tmp, "replayed.svg")
rc, out, err = run("sweep", "--replay", demo, "--type", "float64", "--finish", "atomic",
                   "--variants", "atomic,first_add,multi_element,vectorized,cub", "--plot", svg)
check(rc == 0 and "cub from 2^19 on" in out and os.path.getsize(svg) > 1000,
      f"sweep --replay --plot: the recorded sweep, its crossovers and chart: {err}")
rc, out, err = run("sweep", "--replay", demo)
check(rc == 0 and out.startswith("float64 sum, block 256, finish atomic, 5 reps, input random, "
                                 "cache cold on NVIDIA H200\n"),
      f"sweep --replay alone: the recorded sweep, and its settings said first: {out[:200]}")
# both streams into one file: the table whole, then the message
both = subprocess.run([EXE, "sweep", "--replay", demo, "--type", "float64", "--finish", "atomic",
                       "--variants", "atomic,cub", "--plot", svg, "--force"],
                      stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
check(both.returncode == 0 and both.stdout.rstrip().splitlines()[-1].startswith("redscope: chart in")
      and both.stdout.count("redscope: chart in") == 1,
      f"--plot's message after the table, where both go to one file: {both.stdout[-300:]}")
rc, out, err = run("sweep", "--replay", demo, "--preset", "atomic-vs-tree")
cells = [l.split() for l in out.splitlines() if l.strip().startswith("2^29")]
check(rc == 0 and cells and "refused" not in out.split("\n", 2)[-1]
      and " ".join(cells[0][1:3]) == "not recorded"
      and "\nnot recorded: atomic, first_add, cpu, at the sizes so marked: the recording "
      "holds no run of them at those sizes with these settings (type, op, block, finish and "
      "input)" in out
      and "'not recorded' said below" in out
      and "\ncpu: where the cpu step was not recorded, the CPU time recorded beside the GPU "
      "runs of that size" in out,
      f"sweep --replay: sizes the recording lacks are 'not recorded', not 'refused': {out[-900:]}")

# One CPU time, the same everywhere it is recorded (the demo holds no run of
# the cpu step, and each GPU row timed the CPU beside it: 4.3 to 8.9 ms).
cpu_rows = {l.split()[0]: l.split()[-1] for l in out.splitlines() if l.strip()[:2] == "2^"}
check(cpu_rows.get("2^10") not in (None, "recorded") and cpu_rows.get("2^28") != "recorded"
      and "crossovers (a lead changes where another is >5% faster): cpu fastest up to 2^13; "
      "first_add from 2^14 on" in out,
      f"sweep --replay: the cpu column from the recorded CPU times, in the crossovers: {out[-900:]}")
rc, out, err = run("ladder", "--replay", demo, "--format", "json")
rows = json.loads(out)["rows"] if rc == 0 else []
cpu_ms = {r["cpu_ms"] for r in rows}
check(len(rows) == 14 and len(cpu_ms) == 1 and all(r["cpu_from"] == "beside" for r in rows)
      and all(abs(r["speedup_cpu"] - r["cpu_ms"] / r["time_ms"]["median"]) < 1e-6 * r["speedup_cpu"]
              for r in rows),  # times at a float's digits (rs_json_print)
      f"ladder --replay: every row's vs CPU against one CPU time: {sorted(cpu_ms)} {err}")
one_cpu = min(cpu_ms) if cpu_ms else 0
rc, out, err = run("ladder", "--replay", demo)
check(rc == 0 and f"\nvs CPU: against {one_cpu:.2f} ms on one host thread, the best of the host runs timed "
      "beside the GPU runs, up to 3 each\n" in out, f"ladder --replay: what vs CPU is against: {out}")
rc, out, err = run("run", "--replay", demo, "--variant", "sequential", "--format", "json")
check(rc == 0 and json.loads(out)["cpu_ms"] == one_cpu,
      f"run --replay of one step: the same CPU time as the ladder's: {out[:200]} {err}")
rc, out, err = run("run", "--replay", demo, "--variant", "cpu", "--format", "json")
j = json.loads(out) if rc == 0 else {}
check(rc == 0 and j["time_ms"]["median"] == one_cpu and j["cpu_from"] == "beside",
      f"run --replay --variant cpu: the CPU time recorded beside, said so: {rc} {err}")
rc, out, err = run("run", "--replay", demo, "--variant", "cpu")
check(rc == 0 and f"time       {one_cpu:.2f} ms: the CPU time recorded beside GPU runs of this input (one "
      "thread, the best of up to 3 runs; no median or spread)" in out, f"run --replay cpu: {out}")
rc, out, err = run("ladder", "--variants", "cpu,sequential", "--replay", demo, "--format", "csv")
lines = out.splitlines()
col = lines[0].split(",").index("cpu_from") if lines else -1
check(rc == 0 and len(lines) == 3 and all(l.split(",")[col] == "beside" for l in lines[1:]),
      f"ladder csv: the cpu_from column: {out[:400]} {err}")

# sweep --replay FILE without settings: the recorded sweep, as the explorer opens it
rc, out, err = run("sweep", "--replay", demo)
sizes = [l.split()[0] for l in out.splitlines() if l.strip()[:2] == "2^"]
check(rc == 0 and sizes == [f"2^{k}" for k in range(10, 29)]
      and not any("not recorded" in l for l in out.splitlines() if l.strip()[:2] == "2^")
      and "fastest up to 2^13; multi_element from 2^14 to 2^18; cub from 2^19 on" in out,
      f"sweep --replay: the recorded sweep, not one row: {rc} {out[-600:]} {err}")
rc, out, err = run("sweep", "--replay", demo, "--range", "2^8..2^11")
sizes = [l.split()[0] for l in out.splitlines() if l.strip()[:1].isdigit()]
check(sizes == ["2^8", "2^9", "2^10", "2^11"], f"one notation down the n column: {sizes}")
rc, out, err = run("sweep", "--replay", demo, "--type", "int32")  # no int32 sweep: as asked
check(rc == 0 and "vectorized fastest at the one size measured (2^24)" in out
      and "every size" not in out, f"sweep --replay --type int32: one size is no range: {out}")

# What a recording holds, from the command line (the explorer's R)
rc, out, err = run("recording", demo)
rows = [l for l in out.splitlines() if l[:3].strip().isdigit()]
check(rc == 0 and "6 configurations, 151 rows" in out and len(rows) == 6
      and rows[0].split()[1:5] == ["ladder", "int32", "sum", "2^24"]
      and "atomic..thrust" in rows[0] and rows[5].split()[1] == "sweep"
      and "2^10..2^28" in rows[5], f"recording FILE lists its configurations: {rc} {out} {err}")
rc, out, err = run("recording", demo, "--format", "json")
j = json.loads(out) if rc == 0 else []
check(len(j) == 6 and j[0]["stall_views"] == 13 and j[5]["n_min"] == 1024
      and j[5]["n_max"] == 2 ** 28, f"recording --format json: {out[:300]} {err}")
rc, out, err = run("recording")
check(rc == 2 and "recording needs a file" in err, f"recording without a file: {rc} {err}")
rc, out, err = run("recording", os.path.join(tmp, "none.jsonl"))
check(rc == 7 and "No such file" in err, f"recording of a missing file: {rc} {err}")

# Listings.
rc, out, _ = run("variants")
check(rc == 0 and all(v in out for v in ("interleaved_strided", "vectorized", "thrust")), "variants")
rc, out, _ = run("variants", "--format", "json")
check(rc == 0 and len(json.loads(out)) == 16 and json.loads(out)[-1]["id"] == "kernel", "variants json")
rc, out, err = run("metrics", "--format", "json")
check(rc == 0, f"metrics: {err}")
m = json.loads(out)
# default: the one-pass set, then the L2's hits in a pass of their own
check(m["default_passes"] == 2 and m["full_passes"] == 4,
      f"metric sets cost 2 and 4 passes: {m['default_passes']} {m['full_passes']}")
check(len(m["metrics"]) >= 15 and all(x["passes"] >= 1 for x in m["metrics"]), "metric list")
rc, out, _ = run("metrics")
check(rc == 0 and "bank_ld" in out and "passes" in out, "metrics table")

# Presets: shipped ones listed, saving refuses to clobber, loading applies.
rc, out, _ = run("presets", env=env)
check(rc == 0 and "harris-2007" in out and "student-lab" in out and "speed-of-light" in out,
      "presets lists the shipped set")
rc, _, err = run("run", "--variant", "cpu", "--n", "2000", "--reps", "1", "--note", "mine",
                 "--save-preset", "mine", env=env)
saved = os.path.join(tmp, "redscope", "presets", "mine.ini")
check(rc == 0 and os.path.exists(saved) and "saved preset" in err, "save preset")
rc, _, err = run("run", "--variant", "cpu", "--n", "3000", "--save-preset", "mine", env=env)
check(rc == 2 and "exists: add --force to replace it" in err,
      f"no clobber without --force, refused as every output: {rc} {err}")
check("n = 2000" in open(saved).read(), "the old preset is intact")
rc, _, _ = run("run", "--variant", "cpu", "--n", "3000", "--save-preset", "mine", "--force", env=env)
check(rc == 0 and "n = 3000" in open(saved).read(), "--force replaces")
rc, out, _ = run("run", "--preset", "mine", "--format", "json", env=env)
j = json.loads(out) if rc == 0 else {}
check(rc == 0 and j["request"]["n"] == 3000 and j["request"]["variant"] == "cpu", "run --preset")
rc, out, _ = run("run", "--n", "4000", "--preset", "mine", "--format", "json", env=env)
check(rc == 0 and json.loads(out)["request"]["n"] == 4000, "flags win over the preset, in any order")
rc, out, _ = run("presets", env=env)
check("mine" in out and "your presets" in out, "user preset listed with its note")
# NAME.ini is the preset NAME, saved and loaded either way.
rc, _, err = run("run", "--variant", "cpu", "--n", "5000", "--save-preset", "dotted.ini", env=env)
check(rc == 0 and os.path.exists(os.path.join(tmp, "redscope", "presets", "dotted.ini")),
      f"--save-preset x.ini writes x.ini, not x.ini.ini: {err}")
for name in ("dotted", "dotted.ini"):
    rc, out, err = run("run", "--preset", name, "--format", "json", env=env)
    check(rc == 0 and json.loads(out)["request"]["n"] == 5000, f"--preset {name} loads: {err}")
rc, out, _ = run("presets", "--format", "json", env=env)
names = [p["name"] for p in json.loads(out)] if rc == 0 else []
check("dotted" in names and "dotted.ini" not in names, f"listed as 'dotted': {out!r}")
# A shipped preset's name is not taken silently.
rc, _, err = run("run", "--variant", "cpu", "--save-preset", "harris-2007", env=env)
check(rc == 2 and "shadow the shipped preset" in err and "--force" in err,
      f"saving over a shipped preset's name asks for --force: {err!r}")
mine = os.path.join(tmp, "redscope", "presets", "harris-2007.ini")
check(not os.path.exists(mine), "nothing saved without --force")
rc, _, err = run("run", "--variant", "cpu", "--save-preset", "harris-2007.ini", env=env)
check(rc == 2 and "shadow the shipped preset" in err and not os.path.exists(mine),
      f"NAME.ini of a shipped preset: refused alike: {err!r}")
rc, out, _ = run("run", "--help")
check("--force" in out and "shadow a shipped" in out, "run --help: --force also shadows")
rc, _, err = run("run", "--variant", "cpu", "--n", "6000", "--save-preset", "harris-2007",
                 "--force", env=env)
rc2, out, _ = run("run", "--preset", "harris-2007", "--format", "json", env=env)
check(rc == 0 and rc2 == 0 and json.loads(out)["request"]["n"] == 6000,
      f"with --force yours is saved and wins: {err!r}")
if os.path.exists(mine):
    os.remove(mine)
# A directory given as a preset or a recording says so.
one_line_error(*run("run", "--preset", tmp)[0:3:2], 7, "is a directory", "a directory as a preset")
one_line_error(*run("--replay", tmp)[0:3:2], 7, "is a directory", "a directory as a recording")
# CSV text is quoted the same way everywhere: a note with '"' and ',' stays one field.
rc, _, err = run("run", "--variant", "cpu", "--n", "1000", "--note", 'say "hi", then go',
                 "--save-preset", "quoted", env=env)
rc, out, err = run("presets", "--format", "csv", env=env)
rows = {r["name"]: r for r in csv.DictReader(io.StringIO(out))} if rc == 0 else {}
check(rows.get("quoted", {}).get("note") == 'say "hi", then go',
      f"presets csv keeps a note with quotes and commas whole: {out!r}")
for cmd in (["variants"], ["metrics"]):
    rc, out, _ = run(*cmd, "--format", "csv")
    table = list(csv.reader(io.StringIO(out)))
    check(rc == 0 and len({len(r) for r in table}) == 1, f"{cmd[0]} csv: one width of row")
bad = os.path.join(tmp, "bad.ini")
open(bad, "w").write("[run]\nn = 2^20\nblok = 3\n")
one_line_error(*run("run", "--preset", bad)[0:3:2], 2, "bad.ini:3: unknown key 'blok'", "bad preset file")

# --check: refused at once where it cannot run; without a GPU it says so (3).
one_line_error(*run("run", "--variant", "sequential", "--check", "bogus")[0:3:2], 2,
               "expected race or memory", "a bad --check")
one_line_error(*run("ladder", "--check", "race")[0:3:2], 2, "takes no --check", "ladder --check")
one_line_error(*run("run", "--variant", "cpu", "--check", "race")[0:3:2], 2, "needs a GPU variant",
               "--check of the cpu reference")
one_line_error(*run("run", "--variant", "sequential", "--check", "race", "--replay",
                    demo)[0:3:2], 2, "not recorded: ", "--check --replay of a recording without it")
one_line_error(*run("run", "--variant", "sequential", "--check", "race", "--record",
                    "/nonexistent/c.jsonl")[0:3:2], 7, "directory", "--check --record: checked first")
# A check recorded on an H100 replays as it was measured, in every format.
checks = os.path.join(os.environ["REDSCOPE_SOURCE"], "conf", "recordings", "h100-checks.jsonl")
rc, out, err = run("run", "--variant", "unroll_warp_volatile", "--n", "2^20", "--check", "race",
                   "--replay", checks)
# a check that finds races exits 9: scripts see them
check(rc == 9 and "1,059,348 hazards on lines 107" in out and "(int32 sum, n 2^20, block" in out and
      "Write classic.cu:107  vs[tid] = op(vs[tid], vs[tid + 32]);" in out,
      f"--check --replay: the recorded race, line by line: {rc} {out} {err}")
rc, out, _ = run("run", "--variant", "unroll_warp_volatile", "--n", "2^20", "--check", "race",
                 "--replay", checks, "--format", "json")
j = json.loads(out)["check"] if rc == 9 else {}
check(j.get("total") == 1059348 and len(j.get("findings", [])) == 5 and j.get("correct") == 1,
      f"--check --replay --format json: {j}")
rc, out, _ = run("run", "--variant", "vectorized", "--n", "2^20", "--check", "memory", "--replay",
                 checks, "--format", "csv")
check(rc == 0 and out.startswith("check,what,kernel,file,line"), f"--check --format csv: {out!r}")
one_line_error(*run("run", "--variant", "unroll_warp", "--n", "2^22", "--check", "race",
                    "--replay", checks)[0:3:2], 2, "3 checks recorded",
               "--check --replay of other settings")
if not have_gpu:
    rc, _, err = run("run", "--variant", "unroll_warp_volatile", "--check", "race")
    check(rc in (3, 4) and err.startswith("redscope: "), f"--check without a GPU: {rc} {err!r}")
check("--check KIND" in run("run", "--help")[1], "run --help lists --check")

check.finish()
