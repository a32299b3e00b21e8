#!/usr/bin/env python3
"""Replaying recordings a user may have edited, cut or mixed up, without a
GPU: every recorded figure checked for its type and range (the file, line
and field named), binary files called binary, an all-reduce recording sent
to the command that reads it, and a replay that finds nothing asked for
said so with exit 2."""
import atexit
import json
import os
import shlex
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import Checks, run  # noqa: E402

check = Checks("test_replay_cli")
RECS = os.path.join(os.environ["REDSCOPE_SOURCE"], "conf", "recordings")
DEMO = os.path.join(RECS, "h200-demo.jsonl")
AR = os.path.join(RECS, "h200x2-allreduce.json")
TMP = tempfile.mkdtemp(prefix="rs_replay_")
atexit.register(shutil.rmtree, TMP, True)


def demo_row():
    """The header and the recorded int32 sequential row at 2^24 of the demo."""
    lines = open(DEMO, encoding="utf-8").read().splitlines()
    for line in lines[1:]:
        j = json.loads(line)
        if j.get("request", {}).get("variant") == "sequential" and "time_ms" in j:
            return lines[0], j
    raise SystemExit("no sequential row in " + DEMO)


def write(name, text, mode="w"):
    path = os.path.join(TMP, name)
    with open(path, mode) as f:
        f.write(text)
    return path


HEADER, ROW = demo_row()
SEQ_US = f"{ROW['time_ms']['median'] * 1e3:.1f} µs"  # its recorded median, as printed


def edited(name, change):
    """A copy of the demo's header and sequential row, the row changed."""
    j = json.loads(json.dumps(ROW))
    change(j)
    return write(name, HEADER + "\n" + json.dumps(j) + "\n")


def replay_run(path, *extra):
    return run("run", "--variant", "sequential", "--replay", path, *extra)


# a subnormal time (1e-310 ms) made every ratio infinite: a nanosecond at least
def tiny(j):
    j["time_ms"].update(median=1e-310, min=1e-310, max=1e-310)
rc, out, err = replay_run(edited("tiny.jsonl", tiny))
check(rc == 7 and "time_ms.median is 9.99" in err and "expected milliseconds from 1e-06" in err
      and not out,
      f"a subnormal time is refused: {rc} {err}")


# 1. a recorded figure of the wrong type or out of range is refused, line and field named
rc, out, err = replay_run(edited("same.jsonl", lambda j: None))
check(rc == 0 and f"{SEQ_US} median" in out, f"the row as recorded replays: {rc} {err}")
BAD = (("median_text", lambda j: j["time_ms"].update(median="fast"), 'time_ms.median is "fast"'),
       ("median_zero", lambda j: j["time_ms"].update(median=0), "time_ms.median is 0"),
       ("median_huge", lambda j: j["time_ms"].update(median=1e308), "time_ms.median is 1e+308"),
       ("no_time", lambda j: j.pop("time_ms"), "time_ms is missing"),
       ("reps_zero", lambda j: j["time_ms"].update(reps=0), "time_ms.reps is 0"),
       ("correct_text", lambda j: j.update(correct="yes"), 'correct is "yes"'),
       ("bad_reps", lambda j: j.update(bad_reps=21), "bad_reps is 21"),
       ("grid_text", lambda j: j.update(grid="x"), 'grid is "x"'))
for name, change, want in BAD:
    path = edited(name + ".jsonl", change)
    rc, out, err = replay_run(path)
    check(rc == 7 and f"{path}:2: {want}: expected" in err and out == "",
          f"{name}: refused with line and field: {rc} {err.strip()} {out[:200]}")
# figures that disagree with their parts (each fine alone): refused, line named
CONTRA = (("result_other", lambda j: j.update(result="123"),
           "correct is true, yet the result 123 is not the reference -204506"),
          ("int_tol", lambda j: j.update(tol=10, result="5"),
           "tol is 10: an integer result is exact (tol 0)"),
          ("result_junk", lambda j: j.update(result="12abc"), "result and expected: expected"),
          ("abs_err_exact", lambda j: j.update(abs_err=1e308), "correct with tol 0 (exact)"),
          ("gbps_zero", lambda j: j.update(gbps=0), "gbps is 0: n and the median time give"),
          ("peak_zero", lambda j: j["device"].update(peak_gbps=0), "pct_peak is 15.9"),
          ("n_half", lambda j: j["request"].update(n=1.5), "bad value '1.5' for n"),
          ("correct_missed", lambda j: j.update(bad_reps=2), "correct is true with bad_reps 2"),
          ("min_over", lambda j: j["time_ms"].update(min=1), "time_ms: min 1, median"),
          ("reps_other", lambda j: j["time_ms"].update(reps=1),
           "time_ms.reps is 1: the request asked 20 repetitions"),
          # a boundary scan's absurd figures: each its unit's range and its parts
          ("pct_measured", lambda j: j.update(pct_measured=9999), "pct_measured is 9999: gbps"),
          ("ept_huge", lambda j: j.update(elements_per_thread=1e18),
           "elements_per_thread is 1e+18: more than n"),
          ("cpu_tiny", lambda j: j.update(cpu_ms=1e-300), "cpu_ms is 1e-300"),
          ("launches_huge", lambda j: j.update(launches=4294967295), "launches is 4294967295"),
          ("passes_negative", lambda j: j["metrics"].update(passes=-3),
           "metrics.passes is -3"))
for name, change, want in CONTRA:
    path = edited(name + ".jsonl", change)
    rc, out, err = replay_run(path)
    check(rc == 7 and f"{path}:2: {want}" in err and out == "",
          f"{name}: figures that disagree refused: {rc} {err.strip()} {out[:200]}")
# a float's error is recomputed from its result and reference: a result of
# 1e30 is not "within tolerance" whatever abs_err and rel_err say
FLOAT = next(json.loads(l) for l in open(DEMO, encoding="utf-8").read().splitlines()[1:]
             if '"float32"' in l and '"time_ms"' in l and '"correct":true' in l)
FARGS = ("--variant", FLOAT["request"]["variant"], "--type", "float32", "--n",
         str(FLOAT["request"]["n"]), "--block", str(FLOAT["request"]["block"]))
ref = float(FLOAT["expected"])
for name, change, want in (
        ("float_huge", lambda j: j.update(result="1e30", rel_err=0), "abs_err is"),
        ("float_rel0", lambda j: j.update(result="1e30", abs_err=abs(1e30 - ref), rel_err=0),
         "rel_err is 0: an error of"),
        ("float_tol", lambda j: j.update(tol=0.5), "tol is 0.5: the reference allows at most")):
    j = json.loads(json.dumps(FLOAT))
    change(j)
    path = write(name + ".jsonl", HEADER + "\n" + json.dumps(j) + "\n")
    rc, out, err = run("run", *FARGS, "--replay", path)
    check(rc == 7 and want in err and "within tolerance" not in out,
          f"{name}: a float's error recomputed: {rc} {err.strip()} {out[:200]}")
rc, out, err = run("run", *FARGS, "--replay",
                   write("float_same.jsonl", HEADER + "\n" + json.dumps(FLOAT) + "\n"))
check(rc == 0 and "within tolerance" in out, f"the float row as recorded replays: {rc} {err}")
rc, out, err = run("ladder", "--replay", edited("ladder_text.jsonl",
                                                lambda j: j["time_ms"].update(max="slow")))
check(rc == 7 and ':2: time_ms.max is "slow"' in err, f"ladder: {rc} {err.strip()}")
# a recorded failure keeps loading; its status must be a failure's
failed = {"request": ROW["request"], "status": 2, "error": "refused here", "command": "run"}
rc, out, err = replay_run(write("failed.jsonl", HEADER + "\n" + json.dumps(failed) + "\n"))
check(rc == 2 and "refused here" in err, f"a recorded refusal replays: {rc} {err.strip()}")
failed["status"] = 0
rc, out, err = replay_run(write("status0.jsonl", HEADER + "\n" + json.dumps(failed) + "\n"))
check(rc == 7 and ":2: status is 0: expected an exit status" in err, f"status 0: {rc} {err}")
for name in sorted(os.listdir(RECS)):  # every shipped recording still loads
    if name.endswith(".jsonl"):
        rc, out, err = run("ladder", "--replay", os.path.join(RECS, name))
        check(rc in (0, 1, 2) and "expected" not in err, f"{name} loads: {rc} {err.strip()}")

# 2. a binary file is not "an empty recording" nor an empty preset
for name, data, what in (("bin.jsonl", b"\x00\x01\x02", "a NUL byte"),
                         ("latin1.jsonl", HEADER.encode() + b"\n{\"caf\xe9\": 1}\n",
                          "bytes that are not UTF-8")):
    path = write(name, data, "wb")
    line = 1 if name == "bin.jsonl" else 2
    rc, out, err = replay_run(path)
    check(rc == 7 and f"{path}:{line}: not a text recording: the line holds {what}" in err,
          f"{name}: {rc} {err.strip()}")
    rc, out, err = run("ladder", "--replay", path)
    check(rc == 7 and "not a text recording" in err and "empty" not in err,
          f"ladder {name}: {rc} {err.strip()}")
path = write("bin.ini", b"\x00\x01\x02", "wb")
rc, out, err = run("run", "--variant", "cpu", "--n", "2^10", "--preset", path)
check(rc == 2 and f"{path}:1: not a text preset: the line holds a NUL byte" in err and out == "",
      f"binary preset: {rc} {err.strip()} {out[:100]}")
path = write("latin1.ini", b"[run]\nn = 2^10\n; caf\xe9\n", "wb")
rc, out, err = run("run", "--variant", "cpu", "--preset", path)
check(rc == 2 and f"{path}:3: not a text preset: the line holds bytes that are not UTF-8" in err,
      f"latin-1 preset: {rc} {err.strip()}")
path = write("utf8.ini", "[preset]\nnote = café µs\n[run]\nn = 2^10\n")
rc, out, err = run("run", "--variant", "cpu", "--preset", path)
check(rc == 0, f"a UTF-8 preset still reads: {rc} {err.strip()}")

# 3. an all-reduce recording replayed where a run, ladder or sweep is read, and back
WANT = f"{AR}:1: this is a recording of redscope allreduce: replay it with: " \
       f"redscope allreduce --replay {AR} --algo all"
for args in (("--replay", AR), ("ladder", "--replay", AR), ("run", "--replay", AR),
             ("sweep", "--replay", AR)):
    rc, out, err = run(*args, timeout=10)
    check(rc == 7 and WANT in err and "request" not in err, f"{args}: {rc} {err.strip()}")
rc, out, err = run("allreduce", "--replay", DEMO)
check(rc == 7 and f"{DEMO} is a recording of redscope run, ladder or sweep, not of allreduce: "
      f"replay it with: redscope --replay {DEMO}" in err, f"allreduce --replay demo: {rc} {err}")
AR_TEXT = open(AR, encoding="utf-8").read()
path = write("ar_cut.json", AR_TEXT[:200])
rc, out, err = run("allreduce", "--replay", path)
check(rc == 7 and f"{path}:1: the JSON stops before its end: the recording was cut short" in err,
      f"a cut all-reduce recording: {rc} {err.strip()}")
path = write("ar_corrupt.json", '{"redscope_allreduce": 1, "gpus": 2] }\n')
rc, out, err = run("allreduce", "--replay", path)
check(rc == 7 and f"{path}:1: not JSON: a corrupt recording" in err, f"corrupt: {rc} {err}")


def ar_edited(name, change, indent=None):
    j = json.loads(AR_TEXT)
    change(j)
    return write(name, json.dumps(j, indent=indent) + "\n")


# 1. (all-reduce) its figures checked the same way
for name, change, want in (
        ("gpus", lambda j: j.update(gpus="two"), ':1: gpus is "two": expected a whole number'),
        ("reps", lambda j: j.update(reps=0), ":1: reps is 0: expected"),
        ("time", lambda j: j["points"][3].update(time_us=-5), ":1: points[3].time_us is -5"),
        ("algo", lambda j: j["points"][2].update(algo="ringg"), ':1: points[2].algo is "ringg"'),
        ("wrong", lambda j: j["points"][0].update(wrong=True), ":1: points[0].wrong is true")):
    path = ar_edited(f"ar_{name}.json", change)
    rc, out, err = run("allreduce", "--replay", path, "--algo", "all")
    check(rc == 7 and f"{path}{want}" in err and out == "", f"all-reduce {name}: {rc} {err}")
path = ar_edited("ar_indented.json", lambda j: j["points"][1].update(n="x"), indent=1)
rc, out, err = run("allreduce", "--replay", path, "--algo", "all")
check(rc == 7 and f'{path}: points[1].n is "x"' in err, f"pretty-printed: {rc} {err.strip()}")
path = ar_edited("ar_asis.json", lambda j: None, indent=1)
rc, out, err = run("allreduce", "--replay", path, "--algo", "all")
check(rc == 0 and "all-reduce over 2 GPUs" in out, f"a pretty-printed one replays: {rc} {err}")

# times in ms, as every output writes them; a recording from before (time_us,
# in µs) reads the same, and one that says both is refused
def in_ms(j):
    for p in j["points"]:
        p["time_mean_ms"] = p.pop("time_us") / 1000
rc, old, err = run("allreduce", "--replay", AR, "--algo", "all", "--format", "json")
path = ar_edited("ar_ms.json", in_ms)
rc2, new, err2 = run("allreduce", "--replay", path, "--algo", "all", "--format", "json")
check(rc == 0 and rc2 == 0 and json.loads(old)["points"] == json.loads(new)["points"]
      and "time_mean_ms" in json.loads(new)["points"][0] and "time_us" not in old,
      f"time_mean_ms and time_us read alike: {rc} {rc2} {err} {err2}")
path = ar_edited("ar_both.json", lambda j: j["points"][0].update(time_mean_ms=0.02))
rc, out, err = run("allreduce", "--replay", path, "--algo", "all")
check(rc == 7 and "points[0].time_mean_ms and time_us both given" in err, f"both: {rc} {err}")
def ms_null(j):
    in_ms(j)
    j["points"][0]["time_mean_ms"] = None
path = ar_edited("ar_null.json", ms_null)
rc, out, err = run("allreduce", "--replay", path, "--algo", "all")
check(rc == 7 and "points[0].time_mean_ms is missing" in err and out == "",
      f"a null time is no time: {rc} {err}")

# 7. no point of what was asked: advice that finds something
path = ar_edited("ar_empty.json", lambda j: j.update(points=[]))
rc, out, err = run("allreduce", "--replay", path, "--algo", "all")
check(rc == 2 and f"{path} holds no points: record some on GPUs with: redscope allreduce" in err
      and "--replay" not in err, f"no points: {rc} {err.strip()}")
rc, out, err = run("allreduce", "--replay", AR, "--algo", "all", "--n", "3")
check(rc == 2 and "holds nccl,ring,tree,peer_ring from n 2 to 1,073,741,824 (all of it: "
      f"redscope allreduce --replay {AR} --algo all)" in err, f"no such size: {rc} {err}")

# 4. a ladder or sweep of which nothing was recorded fails as run does, with one line
def nothing(cmd, opts):
    return (f"redscope: nothing asked for is in {DEMO}: none of these runs was recorded; it "
            f"holds redscope {cmd} --replay {DEMO} {opts} (redscope recording {DEMO} lists "
            "every configuration)\n")
rc, out, err = run("ladder", "--preset", "speed-of-light", "--replay", DEMO)
check(rc == 2 and err == nothing("ladder", "--n 2^24 --metrics full"),
      f"ladder, nothing recorded: {rc} {err!r}")
check(out.startswith("int32 sum, n 2^28, block 256 on NVIDIA H200\n")
      and "  not in the recording" in out and "refused" not in out,
      f"the ladder's header as live, the rows not recorded said so: {out[:300]}")
# a row recorded with other settings: the settings that differ, named
rc, out, err = run("ladder", "--replay", DEMO, "--type", "float64")
first = next((l for l in out.splitlines() if " first_add " in l), "")
check(rc == 0 and first.endswith("was not recorded (it holds first_add here with --finish atomic)"),
      f"a step recorded with another finish names it: {first}")
rc, out, err = run("sweep", "--replay", DEMO, "--range", "1,2,3")
check(rc == 2 and err.endswith(nothing("sweep", "--range 2^10..2^28")) and "not recorded" in out,
      f"sweep: {rc} {err!r}")
# with no settings a ladder replays the recorded ladder, over its GPUs, as
# sweep does (issue 40); the settings it took, said
X2 = os.path.join(RECS, "h200x2-ladder.jsonl")
rc, out, err = run("ladder", "--replay", X2)
check(rc == 0 and "vectorized on every GPU, nccl" in out and "--n 2^30" in err
      and "--gpus 0" in err, f"ladder --replay of a ladder over GPUs, no settings: {rc} {err!r}")
# the options it names replay what it holds: a ladder over GPUs needs --n and --gpus
rc, out, err = run("ladder", "--replay", X2, "--n", "2^24")
hint = err.split("it holds redscope ")[-1].split(" (")[0].split()
check(rc == 2 and hint[-4:] == ["--n", "2^30", "--gpus", "0"], f"x2 hint: {rc} {err!r}")
rc, out, err = run(*hint)
check(rc == 0 and "vectorized on every GPU, nccl" in out, f"the hint replays: {rc} {err!r}")
# a path a shell would split is quoted in the hint, and the hint runs as printed
odd = os.path.join(TMP, "sp ace", "it's.jsonl")
os.makedirs(os.path.dirname(odd), exist_ok=True)
shutil.copy(os.path.join(RECS, "h100-checks.jsonl"), odd)
rc, out, err = run("ladder", "--replay", odd, "--n", "2^10")  # n given: nothing found
said = err.split("it holds redscope ", 1)[-1].split(" (redscope recording", 1)[0]
words = shlex.split(said)
rc2, out2, err2 = run(*words)
check(rc == 2 and words[2] == odd and rc2 == 0 and "sequential" in out2,
      f"the hint for an odd path runs as printed: {said!r} {rc2} {err2[-200:]}")
rc, out, err = run("run", "--variant", "sequential", "--n", "2^23", "--replay", DEMO)
check(rc == 2 and "not in the recording" in err, f"run, as before: {rc} {err.strip()}")
rc, out, err = run("ladder", "--variants", "sequential,cub", "--n", "2^24", "--type", "float16",
                   "--replay", DEMO, "--format", "json")
check(rc == 2 and len(json.loads(out)["rows"]) == 2, f"json stays JSON: {rc} {out[:200]}")
# some recorded: the rows that were, exit 0
path = edited("one_ladder_row.jsonl", lambda j: None)
rc, out, err = run("ladder", "--variants", "sequential,cub", "--replay", path, "--metrics=full")
check(rc == 0 and SEQ_US in out and "cub" in out and "not in the recording" in out
      and "nothing asked for" not in err, f"one of two recorded: {rc} {err.strip()}")
rc, out, err = run("sweep", "--replay", DEMO, "--range", "2^10..2^28", "--finish", "atomic",
                   "--reps", "5")
check(rc == 0 and err == "redscope: settings not given are the recorded sweep's: --type float64 "
      "--variants atomic,first_add,multi_element,vectorized,cub\n",
      f"the recorded sweep, the settings it took said: {rc} {err.strip()}")

# 5. --stalls from a configuration recorded without them: said, not silently left
# out, and exit 2 as for anything else asked for and not recorded
# (the demo's float32 2^28 ladder has no samples; its 2^24 ladders have them)
F28 = ("--type", "float32", "--n", "2^28", "--variants", "interleaved..thrust")
rc, out, err = run("run", "--variant", "sequential", "--stalls", "--replay", DEMO, *F28[:4])
check(rc == 2 and err == f"redscope: {DEMO} holds no stall samples for sequential float32 sum, "
      "n 2^28: it was recorded without --stalls (record it again with --stalls on a GPU)\n",
      f"run --stalls: {rc} {err!r}")
rc, out, err = run("ladder", "--stalls", "--replay", DEMO, *F28)
check(rc == 2 and f"{DEMO} holds no stall samples for 13 of these 13 rows (the first: "
      "interleaved)" in err, f"ladder --stalls: {rc} {err!r}")
rc, out, err = run("run", "--variant", "sequential", "--replay", DEMO, *F28[:4])
check(rc == 0 and "stall" not in err, f"no --stalls, no notice: {err!r}")
rc, out, err = run("run", "--variant", "cooperative_groups", "--stalls", "--replay", DEMO)
check(rc == 0 and "\nstalls " in out and err == "", f"a recording with samples: {rc} {err!r}")
rc, out, err = run("ladder", "--stalls", "--replay", DEMO, "--type", "float32", "--n", "2^24")
check(rc == 0 and "no stall samples" not in err and out.count("waits:") == 14,
      f"its ladder: {rc} {err!r}")

# 6. your kernel in a replay: found by the path given, the file never read; the reason says so
KERNELS = os.path.join(RECS, "h100-kernels.jsonl")
rc, out, err = run("run", "--kernel", "/nonexistent.cu", "--replay", DEMO)
check(rc == 2 and "not in the recording: it holds no run of your own kernel, so none of "
      "/nonexistent.cu (a replay finds a kernel by the path given to --kernel; it does not read "
      "the file)" in err, f"no kernel recorded: {rc} {err.strip()}")
rc, out, err = run("run", "--kernel", "./conf/kernels/fault.cu", "--n", "1000", "--replay", KERNELS)
check(rc == 2 and "no run of the kernel file ./conf/kernels/fault.cu (a replay finds a kernel by "
      "the path given to --kernel, as it was recorded; it does not read the file); it holds "
      "conf/kernels/template.cu, conf/kernels/fast.cu, conf/kernels/lab-barrier.cu, "
      "conf/kernels/lab-tail.cu, conf/kernels/fault.cu\n" in err, f"another path: {rc} {err}")
rc, out, err = run("run", "--kernel", "conf/kernels/fault.cu", "--n", "1000", "--replay", KERNELS)
check(rc == 8 and "fault.cu (kernel reduce_oob)" in err, f"the recorded path: {rc} {err.strip()}")
rc, out, err = run("run", "--kernel", "conf/kernels/fault.cu", "--n", "2000", "--replay", KERNELS)
check(rc == 2 and "fault.cu with this configuration was not recorded" in err,
      f"the recorded file, other settings: {rc} {err.strip()}")

# 8. conf/recordings (installed for users) holds only recordings a user should open
for name in sorted(os.listdir(RECS)):
    text = open(os.path.join(RECS, name), encoding="utf-8").read()
    cmd = ("allreduce", "--algo", "all") if name.endswith(".json") else ("ladder",)
    rc, out, err = run(*cmd, "--replay", os.path.join(RECS, name))
    check("REDSCOPE_TEST" not in text and "test-only" not in out + err,
          f"{name} is a user's recording, not a test's: {(out + err)[:200]}")
check(os.path.exists(os.path.join(os.environ["REDSCOPE_SOURCE"], "tests", "data",
                                  "h100-test-gpus2-ladder.jsonl")), "the test's recording moved")

# Control characters a recording's strings hold reach no terminal: an escape
# sequence in the device name or a failed row's error prints escaped, seen
# and not obeyed.
row = ROW | {"device": ROW["device"] | {"name": "H200\u001b[2J\u009b31m"}}
hdr = json.loads(HEADER)  # the same GPU in the header: one GPU per recording
hdr["device"]["name"] = row["device"]["name"]
bad = write("escapes.jsonl", json.dumps(hdr) + "\n" + json.dumps(row) + "\n" + json.dumps(
    {"request": ROW["request"] | {"variant": "cub"}, "status": 4, "error": "x\u001b]0;t\u0007y"})
    + "\n")
rc, out, err = run("ladder", "--variants", "sequential,cub", "--replay", bad)
check(rc == 4 and "\x1b" not in out + err and "\u009b" not in out + err
      and "H200\\x1b[2J\\u009b31m" in out and "x\\x1b]0;t\\x07y" in out,
      f"escapes in a recording print escaped: {rc} {(out + err)[:400]!r}")
# a row of another GPU in a recording is refused, not told as the header's
two = write("two_gpus.jsonl", HEADER + "\n" + json.dumps(
    ROW | {"device": ROW["device"] | {"name": "NVIDIA H100 80GB HBM3"}}) + "\n")
rc, out, err = run("ladder", "--replay", two)
check(rc == 7 and "a row of NVIDIA H100 80GB HBM3 in a recording of NVIDIA H200" in err
      and out == "", f"two GPUs in one recording refused: {rc} {err}")
# ... nor in a key the reader names as unknown
bad = write("escape_key.jsonl", HEADER + "\n" + json.dumps(
    ROW | {"request": ROW["request"] | {"x\u001b]0;pwned\u0007\u001b[2J": 1}}) + "\n")
rc, out, err = run("run", "--variant", "sequential", "--replay", bad)
check(rc == 7 and "\x1b" not in err and "x\\x1b]0;pwned\\x07\\x1b[2J" in err,
      f"an escape in a recorded key prints escaped: {rc} {err!r}")

# A recording cut short (an interrupted write): what is whole replays, the
# cut line named; a bad line elsewhere is still refused.
whole = open(DEMO, encoding="utf-8").read().splitlines()
cut = write("cut.jsonl", "\n".join(whole[:6]) + "\n" + whole[6][:400])
rc, out, err = run("ladder", "--replay", cut)
check(rc == 0 and f"{cut}:7: the last line is cut short" in err and "replaying the 6 lines" in err
      and " 5  first_add" in out, f"a cut last line: the rows before it replay: {rc} {err}")
mid = write("mid.jsonl", "\n".join(whole[:4]) + "\n" + whole[4][:300] + "\n" +
            "\n".join(whole[5:8]) + "\n")
rc, out, err = run("ladder", "--replay", mid)
check(rc == 7 and f"{mid}:5: not a JSON line" in err, f"a cut line inside: refused: {rc} {err}")

# --metrics given to a replay: the counters asked for, no more; a set the
# recording lacks is asked for, not recorded (exit 2), as --stalls is.
rc, out, err = run("ladder", "--replay", DEMO, "--metrics", "none")
check(rc == 0 and "DRAM rd" not in out and "bank ld" not in out,
      f"ladder --replay --metrics none: no counter columns: {rc} {out[:300]} {err}")
rc, out, err = run("run", "--replay", DEMO, "--variant", "sequential", "--metrics", "none",
                   "--format", "json")
check(rc == 0 and json.loads(out)["metrics"]["requested"] == [],
      f"run --replay --metrics none: no counters: {rc} {err}")
rc, out, err = run("ladder", "--replay", DEMO, "--metrics", "dram_read")
head = out.splitlines()[1] if rc == 0 else ""
check(rc == 0 and "DRAM rd" in head and "bank ld" not in head,
      f"ladder --replay --metrics dram_read: that column alone: {rc} {head} {err}")
rc, out, err = run("run", "--replay", DEMO, "--variant", "sequential", "--type", "float32",
                   "--n", "2^28", "--metrics", "occupancy")
check(rc == 2 and "holds counters 'default' for sequential, not all of 'occupancy'" in err,
      f"run --replay --metrics occupancy where default was recorded: exit 2: {rc} {err}")
rc, out, err = run("ladder", "--replay", DEMO, "--preset", "harris-2007", "--metrics", "full")
check(rc == 2 and "holds only some of the counters 'full' for 8 of these 8 rows" in err,
      f"ladder --replay --metrics full where default was recorded: exit 2: {rc} {err}")
# a WRONG result is not hidden behind counters that were not recorded: exit 1
rc, out, err = run("ladder", "--replay", DEMO, "--n", "2^28", "--type", "float32", "--metrics",
                   "full")
check(rc == 1 and "WRONG" in out and "a variant gave a WRONG result" in err
      and "holds only some of the counters" in err, f"WRONG and counters missing: {rc} {err}")

# the ladder's table fits 120 columns, with the counter that explains each
# step against the row above; --wide has every counter as a column
rc, out, err = run("ladder", "--replay", DEMO)
lines = out.splitlines()
check(rc == 0 and max(len(l) for l in lines) <= 120, f"ladder fits 120 columns: {out[:400]}")
seq = next((l for l in lines if " sequential " in l), "")
check("bank conflicts 80.0 k \u25bc99%" in seq and "explains it (vs the row above)" in out,
      f"sequential's row says what explains it: {seq!r}")
check("bank ld" not in out and "--wide: every counter" in out, "the counters' columns wait for --wide")
rc, out, err = run("ladder", "--replay", DEMO, "--wide")
check(rc == 0 and "bank ld" in out and "warp inst" in out and "explains" not in out,
      f"--wide: every counter as a column: {out[:300]}")
rc, out, err = run("run", "--replay", DEMO, "--variant", "sequential", "--wide")
check(rc == 2 and "takes no --wide" in err, f"run takes no --wide: {rc} {err}")

# your kernel's step is against sequential (the tree it starts from), not
# thrust, the row above it
rc, out, err = run("ladder", "--replay", KERNELS, "--kernel", "conf/kernels/template.cu",
                   "--kernel", "conf/kernels/fast.cu")
tpl = next((l for l in out.splitlines() if " template.cu " in l), "")
fast = next((l for l in out.splitlines() if " fast.cu " in l), "")
check(rc == 0 and "\u00d71.00" in tpl.split()[4] and "\u00d73.00" in fast.split()[4]
      and "your kernels: step and explains against sequential" in out,
      f"a kernel's step is against sequential: {tpl!r} {fast!r} {err}")

# recording FILE on an all-reduce recording: what it holds, and how to replay it
AR = os.path.join(RECS, "h200x2-allreduce.json")
rc, out, err = run("recording", AR)
check(rc == 0 and "an all-reduce recording over 2 GPUs (NVIDIA H200), float32 sum" in out
      and "algorithms nccl, ring, tree, peer_ring" in out and "--algo all" in out,
      f"recording on an all-reduce recording: {rc} {out} {err}")
cmd = out.splitlines()[-1].split("replay it: ", 1)[-1].split() if rc == 0 else []
rc, out, err = run(*cmd[1:]) if cmd else (1, "", "")
check(rc == 0 and "busbw" in out, f"its replay command runs as printed: {cmd} {rc} {err[-200:]}")

# the GPUs a recording was made on, as `devices` lists them there: the advice
# every GPU command gives without a driver ("or replay a recording") works here
rc, out, err = run("devices", "--replay", X2)
rows = [l for l in out.splitlines() if l.startswith("0 ")]
check(rc == 0 and len(rows) == 1 and "NVIDIA H200" in rows[0] and " 4537 " in rows[0]
      and "its runs over 2 GPUs (0-1 NVLink" in out, f"devices --replay: {rc} {out} {err}")
rc, out, err = run("devices", "--replay", DEMO, "--format", "json")
j = json.loads(out) if rc == 0 else [{}]
check(rc == 0 and len(j) == 1 and j[0]["name"] == "NVIDIA H200" and j[0]["measured_gbps"] > 4000,
      f"devices --replay json: the first measured figures: {rc} {out[:300]} {err}")
rc, out, err = run("devices", "--replay", AR)
check(rc == 7 and "redscope allreduce --replay" in err, f"devices --replay an all-reduce: {rc} {err}")

check.finish()
