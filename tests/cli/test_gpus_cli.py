"""A reduction over several GPUs from the command line, without a GPU:
--gpus and --cross on run, ladder and sweep and in presets, what such a
run refuses, the ladder's rows (one GPU, then each cross-GPU finish), a
recording without them, one of `--gpus 0` replayed under --gpus 0 and 2,
and the message on a machine with fewer GPUs."""
import csv
import io
import json
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import NO_DEVICE, NO_DRIVER, Checks, run  # noqa: E402

check = Checks("test_gpus_cli")
DEMO = os.path.join(os.environ["REDSCOPE_SOURCE"], "conf", "recordings", "h200-demo.jsonl")


def demo_us(variant):
    """A step's recorded median at int32 2^24, as the table prints it."""
    for line in open(DEMO, encoding="utf-8"):
        j = json.loads(line)
        r = j.get("request", {})
        if r.get("variant") == variant and r.get("type") == "int32" and r.get("n") == 2 ** 24:
            return f"{j['time_ms']['median'] * 1e3:.1f}"
    return "?"

for cmd in ("run", "ladder", "sweep"):
    rc, out, err = run(cmd, "--help")
    check(rc == 0 and "--gpus N" in out and "--cross F" in out and "host p2p nccl" in out,
          f"{cmd} --help names --gpus and --cross: {out[:200]}")

for args, want in ((("--variant", "thrust"), "choose cub"),
                   (("--variant", "cpu"), "cpu runs on the host"),
                   (("--variant", "sequential", "--finish", "cpu"), "choose another finish"),
                   (("--variant", "vectorized", "--stalls"), "PC sampling watches one GPU"),
                   (("--variant", "vectorized", "--device", "1"), "leave --device at 0"),
                   (("--variant", "vectorized", "--cross", "mpi"), "expected one of host p2p nccl"),
                   (("--variant", "vectorized", "--gpus", "17"), "from 0 to 16")):
    rc, out, err = run("run", "--gpus", "2", *args)
    check(rc == 2 and want in err and err.count("\n") == 1,
          f"run --gpus 2 {' '.join(args)}: one line, exit 2: {rc} {err.strip()}")

for src in ((), ("--replay", DEMO)):  # the ladder refuses --stalls over GPUs as run does
    rc, out, err = run("ladder", "--gpus", "2", "--stalls", *src)
    check(rc == 2 and "PC sampling watches one GPU: drop --stalls or --gpus" in err and not out,
          f"ladder --gpus 2 --stalls {' '.join(src)}: {rc} {err.strip()}")

# the ladder over 2 GPUs: each variant on one GPU, then per finish; a
# recording of one GPU answers the first and names what it lacks
rc, out, err = run("ladder", "--gpus", "2", "--replay", DEMO)
names = [line.split()[1:4] for line in out.splitlines()[2:] if line[:3].strip().isdigit()]
check(rc == 0 and len(names) == 8 and names[0] == ["vectorized", demo_us("vectorized"), "µs"]
      and " not in the recording: vectorized on 2 GPUs, host" in out and "refused" not in out
      and "cub on 2 GPUs, nccl" in out, f"ladder --gpus 2: 8 rows, one GPU's from the recording:\n{out}")

rc, out, err = run("ladder", "--gpus", "2", "--cross", "p2p", "--variants", "sequential",
                   "--replay", DEMO, "--format", "csv")
rows = list(csv.DictReader(io.StringIO(out)))
check(rc == 0 and [(r["variant"], r["gpus"], r["cross_finish"], r["status"]) for r in rows]
      == [("sequential", "1", "", "0"), ("sequential", "2", "p2p", "2")],
      f"ladder --cross p2p: one GPU, then p2p only: {rows}")

rc, out, err = run("sweep", "--gpus", "3", "--cross", "nccl", "--variants", "vectorized",
                   "--range", "2^20,2^24", "--replay", DEMO)
check(rc == 2 and out.splitlines()[1].startswith("over 3 GPUs, partials combined by nccl: time of")
      and "nothing asked for is in" in err,  # none of it was recorded
      f"sweep --gpus 3 says so: {rc} {out[:200]} {err}")

with tempfile.TemporaryDirectory() as tmp:  # a preset keeps both settings
    env = {"XDG_CONFIG_HOME": tmp}
    rc, _, err = run("ladder", "--gpus", "4", "--cross", "nccl", "--variants", "cub",
                     "--save-preset", "four", "--replay", DEMO, env=env)
    text = open(os.path.join(tmp, "redscope", "presets", "four.ini")).read() if rc == 0 else ""
    check("gpus = 4" in text and "cross_finish = nccl" in text,
          f"--save-preset writes gpus and cross_finish: {rc} {err} {text}")
    rc, out, err = run("ladder", "--preset", "four", "--replay", DEMO, "--format", "json", env=env)
    reqs = [r["request"] for r in json.loads(out)["rows"]] if rc == 0 else []
    check([(r["gpus"], r["cross_finish"]) for r in reqs[1:]] == [(4, "host"), (4, "p2p"), (4, "nccl")],
          f"--preset four: over 4 GPUs, every finish (only --cross picks one): {rc} {err} {reqs}")

# A real ladder over two H200s joined by NVLink (scripts/bench-gpus.sh,
# 2026-11-24 01:36 UTC; docs/results.md): the same table from the
# recording, the links in the header, and the summary against the ideal.
H2 = os.path.join(os.environ["REDSCOPE_SOURCE"], "conf", "recordings", "h200x2-ladder.jsonl")
rc, out, err = run("ladder", "--gpus", "0", "--type", "int32", "--n", "2^30", "--reps", "20",
                   "--replay", H2)
rows = [l.split() for l in out.splitlines() if re.match(r"^ +1[23] ", l)]
check(rc == 0 and "over 2 GPUs: 0-1 NVLink through NVSwitch (x18)" in out.splitlines()[0]
      and len(rows) == 8 and all(r[-1] == "yes" for r in rows)
      and "vectorized: 1 GPU 926 \u00b5s; over 2 GPUs the best finish (nccl) 483 \u00b5s, "
      "\u00d71.04 the ideal 463 \u00b5s" in out, f"the two-H200 ladder replays: {rc} {err} {out}")
rc, out, err = run("ladder", "--gpus", "0", "--type", "int32", "--n", "2^30", "--reps", "20",
                   "--replay", H2, "--format", "json")
spread = [r for r in json.loads(out)["rows"] if r["request"]["gpus"] != 1] if rc == 0 else []
check(len(spread) == 6 and all(r["gpus"]["count"] == 2 and [s["count"] for s in r["gpus"]["shares"]]
                               == [2**29, 2**29] for r in spread),
      f"its rows over the GPUs keep both GPUs' shares: {rc} {err} {out[:300]}")

# A recording of `ladder --gpus 0` made on one H100 under the test-only
# REDSCOPE_TEST_GPUS=2 (docs/architecture.md: two engines on one GPU, so
# the split's code ran, not two GPUs; its times are no measurement of two).
# Every GPU (--gpus 0) and the count it came to (--gpus 2) replay the same
# rows, refusals as recorded; a count it lacks is named.
VG = os.path.join(os.environ["REDSCOPE_SOURCE"], "tests", "data",
                  "h100-test-gpus2-ladder.jsonl")
LADDER = ("ladder", "--variants", "vectorized,cub", "--n", "2^24", "--reps", "10", "--metrics",
          "--replay", VG, "--format", "json")


def replayed(gpus):
    rc, out, err = run(*LADDER, "--gpus", gpus)
    rows = json.loads(out)["rows"] if rc == 0 else []
    return rc, [(r["request"]["variant"], r.get("time_ms", {}).get("median"), r.get("result"),
                 r.get("error", "")[:40]) for r in rows], err


rc0, every, err0 = replayed("0")
rc2, two, err2 = replayed("2")
ok = [r for r in two if r[1]]
check(rc0 == 0 and rc2 == 0 and every == two and len(two) == 8 and len(ok) == 6
      and all(r[3].startswith("NCCL needs 2 distinct GPUs") for r in two if not r[1]),
      f"--gpus 0 and --gpus 2 replay the same 8 rows, NCCL's refused as recorded: "
      f"{every} {two} {err0} {err2}")
# a row over the GPUs steps from its variant on one GPU, a row on one GPU
# from the one-GPU row before it; the header says what the GPUs were
rc, out, err = run(*LADDER, "--gpus", "2")
rows = json.loads(out)["rows"] if rc == 0 else []
t = [r.get("time_ms", {}).get("median", 0) for r in rows]
# rows: vectorized on 1 GPU, x2 host, x2 p2p, x2 nccl (refused); then cub the same
want = {1: (0, 1), 2: (0, 2), 4: (0, 4), 5: (4, 5), 6: (4, 6)}
got = {i: rows[i].get("step_speedup") for i in want} if len(rows) == 8 else {}
# times are written at a float's digits (rs_json_print): a ratio agrees to 1e-6
check(got and all(abs(got[i] - t[a] / t[b]) < 1e-6 * got[i] for i, (a, b) in want.items()),
      f"steps: a finish against its variant on one GPU, cub against vectorized on one: {got}")
rc, out, err = run(*LADDER[:-2], "--gpus", "2", "--format", "csv")
crow = list(csv.DictReader(io.StringIO(out))) if rc == 0 else []
jrow = {k: v["value"] for k, v in rows[2]["metrics"]["values"].items()} if len(rows) == 8 else {}
check(len(crow) == 8 and crow[0]["step_speedup"] == "" and crow[0]["cumulative_speedup"] == "1"
      and jrow.get("dram_read") and crow[2]["dram_read_bytes"] == str(int(jrow["dram_read"]))
      and crow[2]["warp_inst"] == str(int(jrow["warp_inst"])),
      f"CSV: no step for the first row; counters exact, as in the JSON: {crow[:3]} {jrow}")
rc, out, err = run(*LADDER[:-2], "--gpus", "2")
check(rc == 0 and "(rows over 2 GPUs: every GPU CUDA device 0 (test-only "
      "REDSCOPE_TEST_GPUS=2))" in out.splitlines()[0], f"the header says what the GPUs were: {out}")
# a recording whose GPUs' shares do not add up is refused, its line named


def corrupt(edit):
    """VG with its first row over the GPUs edited; the line that row is on."""
    lines, at = open(VG).read().splitlines(), 0
    for i, line in enumerate(lines):
        j = json.loads(line)
        if not at and isinstance(j.get("gpus"), dict):
            edit(j["gpus"])
            lines[i], at = json.dumps(j), i + 1
    return "\n".join(lines) + "\n", at


for what, edit in (("one share of two", lambda g: g.update(shares=g["shares"][:1])),
                   ("16 GPUs, shares repeated", lambda g: g.update(count=16,
                                                                  shares=g["shares"] * 8)),
                   ("a count of 1", lambda g: g.update(count=1)),
                   ("shares out of order", lambda g: g.update(shares=g["shares"][::-1]))):
    text, at = corrupt(edit)
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        f.write(text)
    rc, out, err = run(*LADDER[:-4], "--gpus", "2", "--replay", f.name)
    os.unlink(f.name)
    check(rc == 7 and f"{f.name}:{at}: gpus: " in err and not out,
          f"a recording with {what}: refused at its line {at}: {rc} {err.strip()}")

# a run's table in one notation: µs everywhere in UTF-8, us everywhere in ASCII
RUN = ("run", "--variant", "vectorized", "--gpus", "2", "--cross", "p2p", "--n", "2^24", "--reps",
       "10", "--metrics", "--replay", VG)
rc, out, err = run(*RUN, env={"LC_ALL": "C.UTF-8"})
check(rc == 0 and "kernel time 16.1 \u00b5s" in out and not re.search(r"\d us\b", out)
      and "elements 0 to 8388607 (2^23)" in out and "elements 8388608 to 16777215" in out,
      f"UTF-8: µs in every line, each GPU's elements first to last: {out}")
rc, out, err = run(*RUN, env={"LC_ALL": "C"})
check(rc == 0 and "kernel time 16.1 us" in out and "\u00b5" not in out, f"ASCII: us: {out}")
rc3, three, err3 = replayed("3")
check(rc3 == 0 and len(three) == 8 and sum(1 for r in three if r[1]) == 2
      and all(r[3].startswith("not in the recording") for r in three if not r[1]),
      f"--gpus 3: only the one-GPU rows; the others not in the recording: {three} {err3}")

# a machine with fewer GPUs than asked: said in one line, exit 3 or 4
rc, out, err = run("run", "--variant", "vectorized", "--gpus", "9", "--n", "2^20")
devices = run("devices")[0]
if devices in (NO_DRIVER, NO_DEVICE):
    check(rc in (NO_DRIVER, NO_DEVICE) and err.count("\n") == 1, f"no GPU here: {rc} {err}")
else:
    check(rc == NO_DEVICE and "a run over 9 GPUs needs 9; this machine has" in err,
          f"--gpus 9: {rc} {err}")

check.finish()
