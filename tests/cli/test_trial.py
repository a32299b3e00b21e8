#!/usr/bin/env python3
"""The newcomer trials' points on the command line, from the shipped
recordings of real GPUs (issue 40): each sentence a user reads is true
where it is read, and what a script reads agrees with itself."""
import atexit
import csv
import io
import json
import os
import re
import shutil
import struct
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import Checks, run  # noqa: E402

check = Checks("test_trial")
RECS = os.path.join(os.environ["REDSCOPE_SOURCE"], "conf", "recordings")
DEMO = os.path.join(RECS, "h200-demo.jsonl")
TMP = tempfile.mkdtemp(prefix="rs_trial_")
atexit.register(shutil.rmtree, TMP, True)

# 5. A WRONG that is the arithmetic's says why: atomic's float32 running sum
# stops at 2^24 (recorded on an H200 at n 2^28), in run, the ladder and JSON.
ATOMIC = ("--replay", DEMO, "--type", "float32", "--n", "2^28")
rc, out, err = run("run", *ATOMIC, "--variant", "atomic")
check(rc == 1 and "WRONG" in out and "why: the float32 running sum stopped at 2^24" in out,
      f"run atomic float32 2^28: the reason under WRONG: {rc} {out[:900]} {err}")
rc, out, err = run("ladder", *ATOMIC)
check(rc == 1 and "atomic WRONG: the float32 running sum stopped at 2^24" in out,
      f"ladder float32 2^28: the reason under the table: {rc} {out[-900:]}")
check(out.count("WRONG:") == 1, f"ladder: only the wrong row has a reason: {out[-900:]}")
rc, out, err = run("run", *ATOMIC, "--variant", "atomic", "--format", "json")
j = json.loads(out) if out.strip().startswith("{") else {}
check(rc == 1 and "2^24" in j.get("wrong_reason", ""), f"run --format json: wrong_reason: {out[:300]}")
rc, out, err = run("run", "--replay", DEMO, "--type", "float32", "--n", "2^24", "--variant",
                   "atomic", "--format", "json")
check(rc == 0 and "wrong_reason" not in out, f"a right result has no wrong_reason: {rc} {out[:200]}")

# 8. CSV a script reads agrees with itself: elements per thread is n over
# grid x the launch's block (vectorized picks 1024 where 256 was asked); a
# library's launches, unseen, are empty cells, not 0; a failed compile has
# no registers and says why.
rc, out, err = run("ladder", "--replay", DEMO, "--n", "2^24", "--format", "csv")
rows = list(csv.DictReader(io.StringIO(out))) if rc == 0 else []
check(len(rows) >= 13, f"ladder csv: {rc} {err}")
for r in rows:
    name = r["variant"]
    if name in ("cub", "thrust", "cpu"):
        check(r["grid"] == r["launch_block"] == r["elements_per_thread"] == r["launches"] == "",
              f"{name}: its launches unseen, empty cells: {r}")
        continue
    ept = int(r["n"]) / (int(r["grid"]) * int(r["launch_block"]))
    check(abs(float(r["elements_per_thread"]) - ept) <= 1e-3 * ept,
          f"{name}: elements_per_thread {r['elements_per_thread']} is n / (grid x launch_block) "
          f"= {ept:.4f}")
vec = [r for r in rows if r["variant"] == "vectorized"]
check(vec and vec[0]["block"] == "256" and vec[0]["launch_block"] == "1024",
      f"vectorized: asked 256, launched 1024: {vec}")
KDATA = os.path.join(os.environ["REDSCOPE_SOURCE"], "tests", "data", "kernels")
rc, out, err = run("compile", os.path.join(KDATA, "syntax.cu"), "--format", "csv")
rows = list(csv.DictReader(io.StringIO(out)))
check(rc == 2 and len(rows) == 1 and rows[0]["ok"] == "no" and rows[0]["registers"] == ""
      and "syntax.cu:7: error" in rows[0]["error"] and "\n" not in rows[0]["error"],
      f"compile csv of a file that fails: no registers, its error: {rc} {rows}")
rc, out, err = run("compile", os.path.join(KDATA, "syntax.cu"), "--format", "json")
j = json.loads(out) if out.strip() else {}
check(rc == 2 and "registers" not in j and "syntax.cu:7" in j.get("error", ""),
      f"compile json of a file that fails: no registers: {out[:300]}")

# 11. One name per thing where people read it: devices' memory is total_mem
# in CSV as in JSON; a kernel's file name in a CSV variant cell is quoted in
# the ladder as in diff; recording's command, a name of the program's, is
# not; the handout's cumulative column is "cumul." as the table's.
rc, out, err = run("devices", "--replay", DEMO, "--format", "csv")
rc2, out2, _ = run("devices", "--replay", DEMO, "--format", "json")
head = out.splitlines()[0].split(",") if out else []
check("total_mem" in head and "total_mem" in json.loads(out2)[0],
      f"devices: total_mem in CSV and JSON alike: {head}")
KREC = os.path.join(RECS, "h100-kernels.jsonl")
TEMPLATE = os.path.join(os.environ["REDSCOPE_SOURCE"], "conf", "kernels", "template.cu")
rc, out, err = run("ladder", "--replay", KREC, "--kernel", TEMPLATE, "--format", "csv")
rc2, out2, _ = run("diff", KREC, KREC, "--format", "csv")
lad = [l for l in out.splitlines() if "template.cu" in l]
dif = [l for l in out2.splitlines() if "template.cu" in l]
check(lad and dif and lad[0].split(",")[1] == '"template.cu"' == dif[0].split(",")[0],
      f"a kernel's name in CSV: quoted in ladder as in diff: {lad[:1]} {dif[:1]}")
rc, out, err = run("recording", KREC, "--format", "csv")
check(rc == 0 and out.splitlines()[1].startswith("1,ladder,"), f"recording csv: command plain: {out[:300]}")
rc, out, err = run("ladder", "--replay", DEMO, "--n", "2^24", "--format", "md")
check(rc == 0 and "| cumul. |" in out and "total" not in out.split("\n| --")[0],
      f"handout: the cumulative column named as the table names it: {out[:600]}")

# 14 and 16. A replay shows the kernels it holds, and a ladder with no
# settings is the recorded ladder's (as sweep's), the settings it took said.
rc, out, err = run("ladder", "--replay", os.path.join(RECS, "h100-mine-after.jsonl"))
check(rc == 0 and re.search(r"^ 16  mine\.cu ", out, re.M) and "not in the recording" not in out,
      f"ladder --replay mine-after: mine.cu among its rows: {rc} {out[-700:]} {err}")
rc, out, err = run("ladder", "--replay", KREC)
names = re.findall(r"^ 16  (\S+\.cu) ", out, re.M)
check(rc == 1 and names == ["template.cu", "fast.cu", "lab-barrier.cu", "lab-tail.cu"],
      f"ladder --replay kernels: its four kernels (lab-tail WRONG: exit 1): {rc} {names}")
rc, out, err = run("ladder", "--replay", KREC, "--variants", "sequential,vectorized")
check(rc == 0 and ".cu " not in out, f"--variants without kernel: no kernel row: {rc} {out[-400:]}")
rc, out, err = run("ladder", "--replay", os.path.join(RECS, "h200x2-ladder.jsonl"))
check(rc == 0 and "cub on every GPU, nccl" in out
      and "settings not given are the recorded ladder's: --n 2^30" in err,
      f"ladder --replay x2, no settings: the recorded ladder, its settings said: {rc} {err}")

# 13. compile holds the contract's parameters as C++ types, not sizes alone:
# an 8-byte n of another type or in and out swapped is refused, a size_t n
# or __restrict__ pointers are not; a wrong count lists every size; the file
# is named one way.
SIG = 'extern "C" __global__ void reduce(const RS_T *in, RS_ACC *out, unsigned long long n)'
with open(TEMPLATE, encoding="utf-8") as f:
    TEXT = f.read()
check(SIG in TEXT, "the template's signature")
for name, params, ok in (
        ("double_n", "const RS_T *in, RS_ACC *out, double n", False),
        ("swapped", "RS_ACC *out, const RS_T *in, unsigned long long n", False),
        ("size_t_n", "RS_T *in, RS_ACC *out, size_t n", True),
        ("restrict", "const RS_T *__restrict__ in, RS_ACC *__restrict__ out, "
                     "const unsigned long long n", True),
        ("four", "const RS_T *in, RS_ACC *out, unsigned long long n, int k", False)):
    path = os.path.join(TMP, name + ".cu")
    with open(path, "w", encoding="utf-8") as f:
        f.write(TEXT.replace(SIG, f'extern "C" __global__ void reduce({params})'))
    rc, out, err = run("compile", path)
    if ok:
        check(rc == 0, f"{name}: within the contract: {rc} {err}")
    elif name == "four":
        check(rc == 2 and "takes 4 parameters (8, 8, 8, 4 bytes)" in err, f"four: {err}")
    else:
        sig = TEXT[:TEXT.index(SIG)].count("\n") + 1
        check(rc == 2 and "parameters are not the contract's" in err
              and err.count(path) == 2 and err.count(name + ".cu") == 2
              and f"{path}:{sig}: error: " in err,
              f"{name}: refused at the entry's line {sig}, the file named one way: {rc} {err}")

# 9. diff of two ladders that differ in one setting (block 256 against 64)
# pairs step by step and says across what, not 12 rows only in A and 12
# only in B; a recording of several configurations is not paired so.
lines = open(DEMO, encoding="utf-8").read().splitlines()
a256, b64 = [lines[0]], [lines[0]]
for line in lines[1:]:
    j = json.loads(line)
    q = j.get("request")
    if q and j.get("command") == "ladder" and q.get("type") == "int32" and q.get("n") == 2 ** 24:
        a256.append(line)
        q["block"] = 64
        b64.append(json.dumps(j))
for name, rows in (("a256.jsonl", a256), ("b64.jsonl", b64)):
    open(os.path.join(TMP, name), "w", encoding="utf-8").write("\n".join(rows) + "\n")
rc, out, err = run("diff", os.path.join(TMP, "a256.jsonl"), os.path.join(TMP, "b64.jsonl"))
check(rc == 0 and "paired step by step across their settings: block 256 in A, 64 in B" in err
      and "14 in both" in out and "only in" not in out, f"diff across block: {rc} {err} {out[-400:]}")
rc, out, err = run("diff", DEMO, os.path.join(TMP, "b64.jsonl"))
check(rc == 0 and "across" not in err and "only in B (12 rows)" in out,
      f"diff of many configurations against one: not paired across: {rc} {err} {out[-300:]}")

# 13. ... and a call of rs_block_result the compiler keeps: one under
# #if 0, under if (0) or in a helper nothing calls is no call at all.
CALL = "    rs_block_result(out, rs_shared[0]);"
check(CALL in TEXT, "the template's call of rs_block_result")
for name, text in (
        ("hash_if0", TEXT.replace(CALL, "#if 0\n" + CALL + "\n#endif")),
        ("if_zero", TEXT.replace(CALL, "    if (0) rs_block_result(out, rs_shared[0]);")),
        ("helper", TEXT.replace(CALL, "").replace(
            SIG, "__device__ void never_called(RS_ACC *out, RS_ACC v) { rs_block_result(out, v); }\n"
            + SIG, 1))):
    path = os.path.join(TMP, name + ".cu")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    rc, out, err = run("compile", path)
    line = next(i for i, l in enumerate(text.splitlines(), 1)
                if "rs_block_result(" in l and not l.lstrip().startswith("//"))
    check(rc == 2 and f"{path}:{line}: error: " in err
          and "never reaches rs_block_result(out, v)" in err,
          f"{name}: no call that runs: refused at the call's line {line}: {rc} {err[:300]}")

# 17. Smaller: a mistyped command is answered with the one meant; a
# directive that takes no value refuses one.
for args in (("lader",), ("help", "lader")):
    rc, out, err = run(*args)
    check(rc == 2 and "did you mean 'ladder'?" in err, f"{' '.join(args)}: did you mean: {rc} {err}")
rc, out, err = run("xyz")
check(rc == 2 and "did you mean" not in err, f"xyz: nothing near: {err}")
gs = os.path.join(TMP, "gs.cu")
with open(TEMPLATE, encoding="utf-8") as f:
    open(gs, "w", encoding="utf-8").write("// redscope: grid-stride yes\n" + f.read())
rc, out, err = run("compile", gs)
check(rc == 2 and "'grid-stride' takes no value, not 'yes'" in err, f"grid-stride yes: {rc} {err}")

# 17. A sweep's lead over the sizes it measured says how many it measured.
rc, out, err = run("sweep", "--replay", DEMO, "--type", "float32", "--range", "2^10..2^28",
                   "--variants", "vectorized,cub", "--finish", "auto", "--reps", "20")
check(rc == 0 and "vectorized fastest at every size measured (2 of 19, 2^24 to 2^28)" in out,
      f"sweep with 2 of 19 sizes recorded: {rc} {[l for l in out.splitlines() if 'fastest' in l]}")

# 17. J/GB in one column with one number of decimals, so its points line up.
rc, out, err = run("ladder", "--replay", os.path.join(RECS, "h100-energy.jsonl"), "--n", "2^28",
                   "--energy")
cells = re.findall(r"(?:yes|WRONG) +(\S+)", out)
check(rc == 0 and len(cells) == 14 and all(re.fullmatch(r"\d+\.\d\d", c) for c in cells),
      f"J/GB: two decimals in every row: {cells}")

# 12. JSON without the noise of a float widened to a double: a cudaEvent
# time is written with its float's digits (0.087456, not
# 0.08745600283145905); the request says stalls 1 only where the output has
# a stall view (a replay shows the one recorded; --stalls=0: 0 and none).
SEQ = ("run", "--replay", DEMO, "--type", "int32", "--n", "2^24", "--variant", "sequential",
       "--format", "json")
rc, out, err = run(*SEQ)
check(rc == 0 and '"median":\t0.087456,' in out and "0.0874560028" not in out,
      f"run json: the median at a float's digits: {out[:1200]}")
long_ = re.findall(r'"(\w+)":\s*(-?\d+\.\d{12,})', out)
floats = [k for k, v in long_ if struct.unpack("f", struct.pack("f", float(v)))[0] == float(v)]
check(not floats, f"run json: no float written with a double's digits: {floats}")
j = json.loads(out) if rc == 0 else {}
check(j.get("request", {}).get("stalls") == 1 and "stalls" in j,
      f"replayed: the recorded view shown, request.stalls 1: {j.get('request')}")
rc, out, err = run(*SEQ, "--stalls=0")
j = json.loads(out) if rc == 0 else {}
check(j.get("request", {}).get("stalls") == 0 and "stalls" not in j,
      f"replayed with --stalls=0: request.stalls 0, no view: {j.get('request')}")
rc, out, err = run(*SEQ, "--stalls")
j = json.loads(out) if rc == 0 else {}
check(j.get("request", {}).get("stalls") == 1 and "stalls" in j,
      f"replayed with --stalls: request.stalls 1 and the view: {rc} {err}")

# 10. One kind of refusal, one exit code: an output redscope will not write
# (it exists and no --force, a link, a directory, a shipped preset's name) is
# 2, as a bad argument; a file the system cannot write is 7.
exist = os.path.join(TMP, "exist.jsonl")
open(exist, "w").close()
os.symlink(exist, os.path.join(TMP, "link.jsonl"))
env = dict(os.environ, XDG_CONFIG_HOME=TMP)
CPU = ("run", "--variant", "cpu", "--n", "2^10")
for args, said in (((*CPU, "--record", exist), "add --force"),
                   ((*CPU, "--record", os.path.join(TMP, "link.jsonl")), "symbolic link"),
                   ((*CPU, "--record", TMP), "is a directory"),
                   ((*CPU, "--save-preset", "harris-2007"), "use --force"),
                   ((*CPU, "--save-preset", "harris-2007.ini"), "use --force")):
    rc, out, err = run(*args, env=env)
    check(rc == 2 and said in err and not out, f"{' '.join(args[-2:])}: exit 2: {rc} {err}")
rc, out, err = run(*CPU, "--record", "/nonexistent/x.jsonl")
check(rc == 7 and "does not exist" in err, f"a missing directory: exit 7: {rc} {err}")
rc, out, err = run("run", "--help")
check("an output redscope will not write" in out, f"run --help says what exit 2 covers: {out[-800:]}")

# 4. The "explains it" column names what the Why names, or the Why says why
# the counter moved against the time: thrust's kernel time (its own work is
# the rest); interleaved's ×11 instructions yet faster; atomic's idle DRAM.
rc, out, err = run("ladder", "--replay", KREC)
thrust = next((l for l in out.splitlines() if " thrust " in l), "")
check(re.search(r"kernel time 28\.4 µs ▲2%$", thrust), f"thrust explained by its kernel time: {thrust}")
rc, out, err = run("ladder", "--replay", KREC, "--format", "md")
check("That is ×11.1 the warp instructions of atomic, and still ×2.26 faster" in out
      and "DRAM throughput is 5%, the DRAM mostly idle" in out
      and "Kernel time 27.9 µs → 28.4 µs (▲1.7%): its kernels are CUB's" in out,
      f"the handout says why the counters move against the time: {out[:300]}")

check.finish()
