#!/usr/bin/env python3
"""The hostile corpus (tests/data/hostile, written by its make.py from the
shipped recordings, and special files made here): recordings with escape
sequences, C1 and bidirectional controls and newlines in their strings,
figures out of range and totals that contradict their parts; a preset and
kernels of the same kind; FIFOs, devices, directories and links where
files are read or written; output files that exist, are being read, or
have control characters in their names. Each case must end in its
documented exit status within a few seconds, write nothing it was not asked
to (the old file kept whole where a write is refused), and print no control
character but newline and tab, no C1 or bidirectional control, and no
forged line. The explorer, in a real terminal (tmux), draws a recording's
bidirectional controls escaped and lists a FIFO preset as broken without
blocking. No GPU needed."""
import os
import resource
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import EXE, Checks  # noqa: E402
from tuitest import Tmux  # noqa: E402

check = Checks("test_hostile")
SRC = os.environ["REDSCOPE_SOURCE"]
DATA = os.path.join(SRC, "tests", "data", "hostile")
DEMO = os.path.join(SRC, "conf", "recordings", "h200-demo.jsonl")
AR = os.path.join(SRC, "conf", "recordings", "h200x2-allreduce.json")
SEQ = ("run", "--variant", "sequential", "--n", "2^24", "--replay")
CHECK = ("run", "--variant", "unroll_warp_volatile", "--n", "2^20", "--check", "race", "--replay")
BIDI = ("\u202e", "\u202d", "\u2066", "\u2067", "\u2068", "\u2069", "\u200e", "\u200f", "\u061c")


def data(name):
    return os.path.join(DATA, name)


def clean(out):
    """No control byte but newline and tab, no C1 or bidi control, no forged line."""
    bad = [c for c in out if (ord(c) < 0x20 and c not in "\n\t") or 0x7f <= ord(c) <= 0x9f
           or c in BIDI]
    forged = [l for l in out.splitlines() if l.lstrip().startswith(("5 first_add", "FORGED"))]
    return not bad and not forged, bad[:3] + forged[:1]


def listing(d):
    return sorted(os.listdir(d))


def case(name, args, rc, env=None, made=(), keep=(), within=10.0, mem_mb=None):
    """Run redscope in a fresh folder holding what setup put there; check
    the exit status, the time, the output and the files (and, with mem_mb,
    that it ran within that much address space)."""
    work = CASES[name]
    before = listing(work)
    kept = {k: open(os.path.join(work, k), "rb").read() for k in keep}
    e = dict(os.environ, XDG_CONFIG_HOME=os.path.join(work, ".config"), **(env or {}))
    t0 = time.time()
    try:
        # under a sanitizer the address space is its shadow's: no limit there
        lim = mem_mb << 20 if mem_mb and "ASAN_OPTIONS" not in os.environ else None
        p = subprocess.run([EXE, *args], cwd=work, capture_output=True, env=e, timeout=within + 20,
                           preexec_fn=(lambda: resource.setrlimit(resource.RLIMIT_AS, (lim, lim)))
                           if lim else None)
        got, out = p.returncode, (p.stdout + p.stderr).decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        got, out = "timeout", ""
    took = time.time() - t0
    ok_text, what = clean(out)
    after = [f for f in listing(work) if f not in before]
    check(got == rc, f"{name}: exit {got}, not {rc}: {out[-300:]!r}")
    check(took < within, f"{name}: {took:.1f} s, over {within} s")
    check(ok_text, f"{name}: control characters or forged lines in the output: {what}")
    check(sorted(after) == sorted(made), f"{name}: made {after}, not {list(made)}")
    for k, old in kept.items():
        path = os.path.join(work, k)
        still = os.path.islink(path) or not os.path.isfile(path) or open(path, "rb").read() == old
        check(still, f"{name}: {k} changed")
    return out


CASES = {}


def folder(name, setup=None):
    d = tempfile.mkdtemp(prefix="rs_hostile_")
    CASES[name] = d
    if setup:
        setup(d)
    return d


def fifo(d, n="f"):
    os.mkfifo(os.path.join(d, n))


def touch(d, n, text="OLD\n"):
    with open(os.path.join(d, n), "w") as f:
        f.write(text)


# 1. recordings: every string reaches the terminal escaped, every figure checked
for rec, rc, args in (("device_escape.jsonl", 0, SEQ), ("device_bidi.jsonl", 0, SEQ),
                      ("device_c1.jsonl", 0, SEQ), ("peak_huge.jsonl", 7, SEQ),
                      ("peak_negative.jsonl", 7, SEQ), ("sm_count_text.jsonl", 7, SEQ),
                      ("metric_negative.jsonl", 7, SEQ), ("metric_huge.jsonl", 7, SEQ),
                      ("metric_reason_newline.jsonl", 0, SEQ),
                      ("launch_name_newline.jsonl", 0, SEQ), ("row_error_escape.jsonl", 4, SEQ),
                      ("command_bidi.jsonl", 7, SEQ)):
    folder(rec)
    out = case(rec, [*args, data(rec), "--metrics", "full", "--format", "table"], rc)
for rec in ("stall_file_newline.jsonl", "stall_text_escape.jsonl", "stall_function_newline.jsonl",
            "stall_link_newline.jsonl"):
    for fmt in ("table", "csv", "json"):
        folder(rec + fmt)
        out = case(rec + fmt, [*SEQ, data(rec), "--stalls", "--format", fmt], 0)
# a row's command is run, ladder or sweep: any other is refused, shown escaped
folder("command_other")
out = case("command_other", [*SEQ, data("command_bidi.jsonl")], 7)
check('command is "\\u202eladder": a row is of run, ladder or sweep' in out,
      f"an unknown command refused, escaped: {out}")
folder("peak_refusal")
out = case("peak_refusal", [*SEQ, data("peak_huge.jsonl")], 7)
check("device.peak_gbps is 1e+308: expected GB/s from 0 to 1000000" in out, f"named: {out}")
for rec, rc, said in (("check_total_zero.jsonl", 7, "check.total is 0 but it lists 5 findings"),
                      ("check_total_negative.jsonl", 7, "check.total is -1"),
                      ("check_total_huge.jsonl", 7, "check.total is 1e+308"),
                      ("check_wrong.jsonl", 1, "gave a WRONG result under compute-sanitizer"),
                      ("check_not_ran_found.jsonl", 7, "check.ran is false, yet it lists"),
                      ("check_not_ran.jsonl", 6, "was not checked: racecheck stopped"),
                      ("check_file_newline.jsonl", 9, "hazards")):
    folder(rec)
    out = case(rec, [*CHECK, data(rec)], rc)
    check(said in out, f"{rec}: exit {rc} says why: {out[-300:]}")
folder("allreduce_wrong")
out = case("allreduce_wrong", ["allreduce", "--replay", data("allreduce_wrong.json"), "--algo",
                               "all"], 1)
check("1 of 120 points WRONG (the first: nccl at n 16" in out, f"a wrong point is said: {out[-300:]}")
folder("allreduce_newline")
case("allreduce_newline", ["allreduce", "--replay", data("allreduce_newline.json")], 0)
folder("stalls_not_recorded")
case("stalls_not_recorded", [*SEQ[:-3], "--type", "float32", "--n", "2^28", "--replay", DEMO,
                             "--stalls"], 2)

# 2. files read: a regular file, never waited on, never read without end
folder("replay_zero")
case("replay_zero", ["ladder", "--replay", "/dev/zero"], 7)
folder("replay_fifo", fifo)
case("replay_fifo", ["ladder", "--replay", "f"], 7)
folder("allreduce_fifo", fifo)
case("allreduce_fifo", ["allreduce", "--replay", "f"], 7)
folder("allreduce_dir", lambda d: os.mkdir(os.path.join(d, "dir")))
out = case("allreduce_dir", ["allreduce", "--replay", "dir"], 7)
check("'dir' is a directory: give a recording file" in out, f"a directory: {out}")


# A regular file that says it holds 0 bytes and never ends (256 GiB of a
# 64-bit address space): every reader stops at its bound in bytes, at once.
NEVER = "/proc/self/pagemap"
for name, args in (("never_ladder", ["ladder", "--replay", NEVER]),
                   ("never_recording", ["recording", NEVER]),
                   ("never_diff", ["diff", NEVER, DEMO]),
                   ("never_devices", ["devices", "--replay", NEVER]),
                   ("never_against", ["ladder", "--replay", DEMO, "--against", NEVER]),
                   ("never_allreduce", ["allreduce", "--replay", NEVER]),
                   ("never_preset", ["run", "--preset", NEVER, "--replay", DEMO])):
    folder(name)
    out = case(name, args, 7, within=5.0, mem_mb=1024)
    check(NEVER in out and ("goes on past" in out or "NUL byte" in out),
          f"{name}: the file and why it was not read: {out[-300:]}")


def presets_dir(d, kind):
    p = os.path.join(d, ".config", "redscope", "presets")
    os.makedirs(p)
    if kind == "fifo":
        os.mkfifo(os.path.join(p, "stuck.ini"))
    elif kind == "zero":
        os.symlink("/dev/zero", os.path.join(p, "zero.ini"))
    elif kind == "never":  # a regular file of size 0 that never ends
        os.symlink(NEVER, os.path.join(p, "never.ini"))
    elif kind == "names":  # names are outside text too
        for name in ("esc\x1b]0;PWNED\x07.ini", "nl\nshipped presets (FORGED):.ini",
                     "rlo\u202e.ini", "comma,name.ini", "zw\u200bsp.ini", "tag\U000e0041.ini"):
            touch(p, name, "[preset]\nnote = hidden\u200b\ufeff note\n[run]\nn = 1000\n")
    else:
        shutil.copy(data("evil.ini"), os.path.join(p, "evil.ini"))


for kind in ("fifo", "zero", "evil", "never"):
    folder("presets_" + kind, lambda d, k=kind: presets_dir(d, k))
    out = case("presets_" + kind, ["presets"], 0)
    check("BROKEN" in out, f"presets: the {kind} preset is listed as broken: {out[-300:]}")
folder("presets_names", lambda d: presets_dir(d, "names"))
for fmt in ("table", "csv", "json"):
    out = case("presets_names", ["presets", "--format", fmt], 0)
    check("\\x1b]0;PWNED" in out and "\\u202e" in out and "\\u200b" in out
          and "\\U000e0041" in out and "\\ufeff" in out and "\u200b" not in out,
          f"presets --format {fmt}: names and notes shown escaped: {out[-400:]}")
touch(os.path.join(CASES["presets_names"], ".config", "redscope", "presets"), "formula.ini",
      "[preset]\nnote = =HYPERLINK(\"http://x\")\n[run]\nn = 1000\n")
out = case("presets_names", ["presets", "--format", "csv"], 0)
check(any(l.startswith('"formula",user,') and l.endswith(',"\'=HYPERLINK(""http://x"")"')
          for l in out.splitlines()),
      f"presets --format csv: a note that is a formula stays text: {out[-400:]}")
out = case("presets_names", ["presets", "--format", "csv"], 0)
check(any(l.startswith('"comma,name",user,') for l in out.splitlines()),
      f"presets --format csv: a name with a comma is one field: {out[-400:]}")
for kind, name, said in (("fifo", "stuck", "stuck.ini' is a FIFO, not a regular file"),
                        ("zero", "zero", "zero.ini' is a device, not a regular file")):
    folder("preset_named_" + kind, lambda d, k=kind: presets_dir(d, k))
    out = case("preset_named_" + kind, ["ladder", "--preset", name, "--replay", DEMO], 7)
    check(said in out, f"--preset {name}: what is there is named, not 'no preset': {out}")
folder("preset_evil", lambda d: presets_dir(d, "evil"))
case("preset_evil", ["ladder", "--preset", "evil", "--replay", DEMO], 2)

# 3. kernels: the compiler's log escaped, a compile bounded in time
folder("kernel_escape")
case("kernel_escape", ["compile", data("escape_error.cu")], 2)


# a #line file name with a newline cannot print a line of ours through the
# compiler's log: every line of it indented, through the text gate
def forged_kernel(d):
    text = open(os.path.join(SRC, "conf", "kernels", "template.cu")).read()
    touch(d, "forge.cu", '#line 1 "note\\nredscope: FORGED: racecheck found 0 hazards\\nx.cu"\n'
          '#warning hello\n' + text)


folder("kernel_forged_line", forged_kernel)
out = case("kernel_forged_line", ["compile", "forge.cu"], 0)
check(not any(l.startswith("redscope: FORGED") for l in out.splitlines())
      and "  redscope: FORGED" in out, f"the compiler's lines indented: {out[-400:]}")


# a byte that is not UTF-8 (in a comment) is refused with its line, not
# cut from what NVRTC is handed
def latin1_kernel(d):
    text = open(os.path.join(SRC, "conf", "kernels", "template.cu"), "rb").read()
    with open(os.path.join(d, "ff.cu"), "wb") as f:
        f.write(b"// caf\xe9 au lait\n" + text)


folder("kernel_not_utf8", latin1_kernel)
out = case("kernel_not_utf8", ["compile", "ff.cu"], 2)
check("ff.cu:1: a byte that is not UTF-8 (0xe9)" in out, f"refused with its line: {out}")


def include_fifo(d):
    fifo(d)
    touch(d, "inc.cu", '#include "f"\nextern "C" __global__ void k() {}\n')


folder("kernel_fifo_include", include_fifo)
out = case("kernel_fifo_include", ["compile", "inc.cu"], 2,
           env={"REDSCOPE_COMPILE_SECONDS": "2"})
check("the compile ran past 2 s and was stopped" in out, f"the bound named: {out}")

# the environment's numbers by the option values' rule: blanks around them
# are not part of them; anything else that is not the number is refused
for v, rc in (("0", 2), ("abc", 2), ("1e9", 2), (" 30 ", 0)):
    folder("compile_seconds" + v.strip())
    out = case("compile_seconds" + v.strip(), ["compile", os.path.join(SRC, "conf", "kernels",
                                                                      "template.cu")], rc,
               env={"REDSCOPE_COMPILE_SECONDS": v})
    check(rc == 0 or f"REDSCOPE_COMPILE_SECONDS='{v}': seconds, more than 0" in out,
          f"REDSCOPE_COMPILE_SECONDS='{v}': exit {rc}: {out}")
folder("algo_blanks")
case("algo_blanks", ["allreduce", "--replay", AR, "--algo", "ring, tree"], 0)

# 4. files written: regular files only, an existing one only with --force,
# never the one read, a temporary file renamed into place
CPU = ("run", "--variant", "cpu", "--n", "1000")
folder("record_fifo", fifo)
case("record_fifo", [*CPU, "--record", "f"], 2)
check(not os.path.isfile(os.path.join(CASES["record_fifo"], "f")), "the FIFO stays a FIFO")
folder("record_link", lambda d: os.symlink("/etc/hostname", os.path.join(d, "l.jsonl")))
case("record_link", [*CPU, "--record", "l.jsonl"], 2)
check(os.path.islink(os.path.join(CASES["record_link"], "l.jsonl")), "the link stays a link")
folder("record_dir", lambda d: os.mkdir(os.path.join(d, "d")))
case("record_dir", [*CPU, "--record", "d"], 2)
folder("record_exists", lambda d: touch(d, "old.jsonl"))
out = case("record_exists", [*CPU, "--record", "old.jsonl"], 2, keep=("old.jsonl",))
check("exists: add --force to replace it" in out, f"--force named: {out}")
folder("record_force", lambda d: touch(d, "old.jsonl"))
case("record_force", [*CPU, "--record", "old.jsonl", "--force"], 0)
check(open(os.path.join(CASES["record_force"], "old.jsonl")).read().startswith('{"redscope'),
      "--force replaces it")
# a file replaced keeps its mode: a 0600 recording (it holds kernel sources)
# or preset does not become readable by others
def private(d, name):
    touch(d, name)
    os.chmod(os.path.join(d, name), 0o600)


folder("record_mode", lambda d: private(d, "mine.jsonl"))
case("record_mode", [*CPU, "--record", "mine.jsonl", "--force"], 0)
mode = stat.S_IMODE(os.stat(os.path.join(CASES["record_mode"], "mine.jsonl")).st_mode)
check(mode == 0o600, f"--force keeps a recording's mode 0600: {oct(mode)}")
folder("preset_mode", lambda d: (os.makedirs(os.path.join(d, ".config", "redscope", "presets")),
                                 private(os.path.join(d, ".config", "redscope", "presets"),
                                         "p.ini")))
case("preset_mode", [*CPU, "--save-preset", "p", "--force"], 0)
mode = stat.S_IMODE(os.stat(os.path.join(CASES["preset_mode"], ".config", "redscope", "presets",
                                         "p.ini")).st_mode)
check(mode == 0o600, f"--force keeps a preset's mode 0600: {oct(mode)}")
folder("record_same", lambda d: shutil.copy(DEMO, os.path.join(d, "same.jsonl")))
case("record_same", ["ladder", "--replay", "same.jsonl", "--record", "same.jsonl", "--force"], 2,
     keep=("same.jsonl",))
folder("record_same_ar", lambda d: shutil.copy(AR, os.path.join(d, "same.json")))
case("record_same_ar", ["allreduce", "--replay", "same.json", "--record", "same.json",
                        "--force"], 2, keep=("same.json",))
# never a file the command reads, --force or not
folder("record_kernel_self", lambda d: touch(d, "k.cu", "// mine\n"))
out = case("record_kernel_self", ["ladder", "--replay", DEMO, "--kernel", "k.cu", "--record",
                                  "k.cu", "--force"], 2, keep=("k.cu",))
check("is a file this command reads" in out, f"--record over the --kernel file: {out}")
folder("record_preset_self", lambda d: touch(d, "p.ini", "[run]\nn = 1000\n"))
out = case("record_preset_self", [*CPU, "--preset", "./p.ini", "--record", "p.ini", "--force"], 2,
           keep=("p.ini",))
check("is a file this command reads" in out, f"--record over the --preset file: {out}")
folder("record_against_self", lambda d: shutil.copy(DEMO, os.path.join(d, "ag.jsonl")))
case("record_against_self", [*SEQ, DEMO, "--stalls", "--against", "ag.jsonl", "--record",
                             "./ag.jsonl", "--force"], 2, keep=("ag.jsonl",))
# a replayed check is recorded as shown, and replays the same
CHECKS = os.path.join(SRC, "conf", "recordings", "h100-checks.jsonl")
folder("record_check_replay")
first = case("record_check_replay", [*CHECK, CHECKS, "--record", "ck.jsonl"], 9,
             made=("ck.jsonl",))
again = case("record_check_replay", [*CHECK, "ck.jsonl"], 9)
check("hazards" in first and first == again, f"a recorded check replays as shown: {again[-300:]}")
# output that cannot be written is an error, not exit 0 with the output cut
for args in (["ladder", "--replay", DEMO, "--format", "json"], ["--version"], ["presets"]):
    with open("/dev/full", "w") as full:
        p = subprocess.run([EXE, *args], stdout=full, stderr=subprocess.PIPE, text=True,
                           timeout=60)
    check(p.returncode == 7 and "cannot write the output" in p.stderr,
          f"{' '.join(args[:2])} > /dev/full: exit {p.returncode}, {p.stderr.strip()!r}")
# nothing ran, nothing written: an existing recording stays whole
folder("record_nothing_asked")
out = case("record_nothing_asked", ["ladder", "--replay", DEMO, "--n", "12345", "--record",
                                    "new.jsonl"], 2)
check("no run to record: new.jsonl not written" in out, f"a replay that held nothing: {out}")
folder("record_nothing_kept", lambda d: shutil.copy(DEMO, os.path.join(d, "old.jsonl")))
case("record_nothing_kept", ["ladder", "--replay", DEMO, "--n", "12345", "--record", "old.jsonl",
                             "--force"], 2, keep=("old.jsonl",))
folder("record_cancelled", lambda d: shutil.copy(DEMO, os.path.join(d, "good.jsonl")))
p = subprocess.Popen([EXE, *CPU[:-1], "2^26", "--reps", "10000", "--record", "good.jsonl",
                      "--force"], cwd=CASES["record_cancelled"], stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE)
time.sleep(1.0)
p.send_signal(signal.SIGINT)
_, err = p.communicate(timeout=30)
check(p.returncode == 130 and open(os.path.join(CASES["record_cancelled"], "good.jsonl"),
                                   "rb").read() == open(DEMO, "rb").read()
      and listing(CASES["record_cancelled"]) == ["good.jsonl"],
      f"a run cancelled before its first row leaves the old recording whole: {p.returncode} "
      f"{err[-300:]!r}")
folder("record_missing_dir")
case("record_missing_dir", [*CPU, "--record", "no/such/x.jsonl"], 7)
LONG = os.path.join("a" * 250, "b" * 250, "c" * 200 + ".jsonl")  # 700 bytes, plain
folder("record_long_name", lambda d: os.makedirs(os.path.join(d, "a" * 250, "b" * 250)))
case("record_long_name", [*CPU, "--record", LONG], 0)
check(os.path.isfile(os.path.join(CASES["record_long_name"], LONG)),
      "a long plain name is no control character: the recording is written")
folder("record_name_too_long")
# a GPU variant: refused before the GPU is looked for (no GPU here: 3 or 4 after it)
out = case("record_name_too_long", ["run", "--variant", "sequential", "--n", "1000", "--record",
                                    "x" * 300 + ".jsonl"], 7)
check("File name too long" in out, f"the name's length named before any work: {out}")
# the rendezvous file (the --rendezvous path and the algorithm's name),
# before any GPU is looked for (no GPU here: exit 3 after)
RANK = ("allreduce", "--ranks", "2", "--algo", "nccl", "--n", "2^10", "--rendezvous")
folder("rendezvous_fifo", lambda d: fifo(d, "f.nccl"))
out = case("rendezvous_fifo", [*RANK, "f", "--rank", "0"], 2)
check("is a FIFO" in out and stat.S_ISFIFO(os.lstat(os.path.join(CASES["rendezvous_fifo"],
                                                                 "f.nccl")).st_mode),
      f"rank 0 refuses to write NCCL's id over a FIFO, which stays: {out}")
folder("rendezvous_kept", lambda d: touch(d, "j.nccl", "a user's file\n"))
out = case("rendezvous_kept", [*RANK, "j", "--rank", "0"], 3, keep=("j.nccl",))
check(os.path.isfile(os.path.join(CASES["rendezvous_kept"], "j.nccl")),
      f"rank 0 that wrote nothing removes nothing: {out}")
folder("rendezvous_wait_dir", lambda d: os.mkdir(os.path.join(d, "d.nccl")))
out = case("rendezvous_wait_dir", [*RANK, "d", "--rank", "1"], 7, within=3)
check("d.nccl is a folder, not a file" in out, f"a waiting rank refuses a folder at once: {out}")
folder("rendezvous_wait_fifo", lambda d: fifo(d, "f.nccl"))
out = case("rendezvous_wait_fifo", [*RANK, "f", "--rank", "1"], 7, within=3)
check("a FIFO, a device or a socket" in out, f"a waiting rank refuses a FIFO at once: {out}")
folder("rendezvous_wait_link",
       lambda d: os.symlink("/etc/hostname", os.path.join(d, "l.nccl")))
out = case("rendezvous_wait_link", [*RANK, "l", "--rank", "1"], 7, within=3)
check("symbolic link" in out, f"a waiting rank refuses a link rank 0 would not write: {out}")
folder("rendezvous_folder_path", lambda d: os.mkdir(os.path.join(d, "job")))
case("rendezvous_folder_path", [*RANK, "job", "--rank", "1"], 3)  # job.nccl beside it: fine
folder("record_newline")
case("record_newline", [*CPU, "--record", "new\nline.jsonl"], 2)
SWEEP = ("sweep", "--variants", "first_add", "--range", "2^10..2^12", "--finish", "atomic",
         "--reps", "5", "--type", "float64", "--replay", DEMO)
folder("plot_kernel_self", lambda d: touch(d, "k.csv", "mine\n"))
case("plot_kernel_self", [*SWEEP, "--kernel", "k.csv", "--plot", "k.svg", "--force"], 2,
     keep=("k.csv",))
folder("plot_cut")  # gnuplot exits 0 after its writes failed: half a chart is no chart
p = subprocess.run([EXE, "allreduce", "--replay", AR, "--algo", "all", "--plot", "pl.svg"],
                   cwd=CASES["plot_cut"], capture_output=True, text=True, timeout=60,
                   preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (2048, 2048)))
check(p.returncode == 7 and "gnuplot failed to draw pl.svg" in p.stderr
      and listing(CASES["plot_cut"]) == ["pl.csv"],
      f"a chart cut by a file size limit is refused, not renamed into place: {p.returncode} "
      f"{p.stderr[-300:]} {listing(CASES['plot_cut'])}")
folder("plot_csv_exists", lambda d: touch(d, "c.csv"))
case("plot_csv_exists", [*SWEEP, "--plot", "c.svg"], 2, keep=("c.csv",))
folder("plot_nothing")
case("plot_nothing", [*SWEEP[:-6], "--type", "int64", "--replay", DEMO, "--plot", "n.svg"], 2)
folder("plot_newline")
case("plot_newline", [*SWEEP, "--plot", "new\nline.svg"], 2)

# no cap without a word: 3,017 presets are listed whole; a check of 100
# finding groups shows 24 and says "and 76 more"
def many_presets(d):
    p = os.path.join(d, ".config", "redscope", "presets")
    os.makedirs(p)
    for i in range(3017):
        touch(p, f"p{i:04d}.ini", "[run]\nn = 1000\n")


folder("presets_many", many_presets)
out = case("presets_many", ["presets", "--format", "csv"], 0)
check(sum(l.startswith('"p') and ",user," in l for l in out.splitlines()) == 3017,
      f"3017 presets listed: {len(out.splitlines())} lines")


def hundred_findings(d):
    import json
    out_lines = []
    for l in open(os.path.join(SRC, "conf", "recordings", "h100-checks.jsonl")):
        o = json.loads(l)
        if o.get("check", {}).get("findings"):
            f = o["check"]["findings"][0]
            o["check"]["findings"] = [dict(f, line=i + 1) for i in range(100)]
            o["check"]["total"] = sum(x["count"] for x in o["check"]["findings"])
        out_lines.append(json.dumps(o))
    touch(d, "c.jsonl", "\n".join(out_lines) + "\n")


def total_short(d):  # the largest finding's count as the total: under their sum
    import json
    out_lines = []
    for l in open(os.path.join(SRC, "conf", "recordings", "h100-checks.jsonl")):
        o = json.loads(l)
        if len(o.get("check", {}).get("findings", [])) > 1:
            o["check"]["total"] = max(x["count"] for x in o["check"]["findings"])
        out_lines.append(json.dumps(o))
    touch(d, "c.jsonl", "\n".join(out_lines) + "\n")


folder("check_sum_over", total_short)
out = case("check_sum_over", [*CHECK, "c.jsonl"], 7)
check("but its findings count" in out, f"findings summing past their total: {out[-300:]}")
def ar_300(d):  # 300 points of one algorithm: 44 past the 256 a run holds
    import json
    j = json.load(open(AR))
    one = [p for p in j["points"] if p["algo"] == j["points"][0]["algo"]]
    j["points"] = [dict(one[k % len(one)]) for k in range(300)]
    touch(d, "ar.json", json.dumps(j))


folder("allreduce_300", ar_300)
out = case("allreduce_300", ["allreduce", "--replay", "ar.json", "--algo", "all"], 0)
check("holds 44 more points than a run shows (256)" in out, f"the cap is said: {out[-300:]}")
def energy_row(d, name, change):  # an energy row of the shipped recording, changed
    import json
    lines = open(os.path.join(SRC, "conf", "recordings", "h100-energy.jsonl")).read().splitlines()
    row = next(json.loads(l) for l in lines[1:] if '"energy_j"' in l)
    change(row["energy"])
    touch(d, name, lines[0] + "\n" + json.dumps(row) + "\n")


def energy_tiny(e):  # a reduction of 0.0 µs in a window of half a second
    e["energy_rep_ms"], e["energy_j"] = 1e-6, e["power_w"] * 1e-9


for name, change, said in (
        ("energy_idle", lambda e: e.update(idle_power_w=99999, power_limit_w=1),
         "energy.idle_power_w is 99999: over the limit of 1 W"),
        ("energy_tiny", energy_tiny, "energy.energy_window_ms is")):
    folder(name, lambda d, n=name, c=change: energy_row(d, n + ".jsonl", c))
    out = case(name, ["recording", name + ".jsonl"], 7)
    check(said in out, f"{name}: energy figures that disagree refused: {out[-300:]}")
# memory in proportion to what rows hold (issue 41.2): 40,000 sweep rows
# without counters per launch or stall views (58 MB) in 300 MB of address
# space; at 10 KB a row they took over 400 MB
def sweep_rows(d, count=40000):
    import json
    lines = open(DEMO).read().splitlines()
    rows = [json.loads(l) for l in lines[1:] if json.loads(l).get("command") == "sweep"
            and "stalls" not in json.loads(l)]
    with open(os.path.join(d, "many.jsonl"), "w") as f:
        f.write(lines[0] + "\n")
        for k in range(count):
            r = rows[k % len(rows)]
            r["request"]["seed"] = str(5000 + k // len(rows))
            f.write(json.dumps(r) + "\n")


folder("many_rows", sweep_rows)
out = case("many_rows", ["recording", "many.jsonl"], 0, within=30.0, mem_mb=300)
check("40000 rows" in out, f"40,000 rows read within 300 MB: {out[:200]}")


# figures with their unit's range and their relation to the others (issue 41.7)
def changed_row(d, name, rec, pick, change):  # a row of a shipped recording, changed
    import json
    lines = open(os.path.join(SRC, "conf", "recordings", rec)).read().splitlines()
    row = next(json.loads(l) for l in lines[1:] if pick(json.loads(l)))
    change(row)
    touch(d, name, lines[0] + "\n" + json.dumps(row) + "\n")


def kernel_row(j):
    return j.get("request", {}).get("variant") == "kernel" and "kernel_build" in j


def stalled_row(j):
    return bool(j.get("stalls", {}).get("functions")) and bool(j.get("stalls", {}).get("links"))


def swell_link(r):
    k = r["stalls"]["links"][0]
    k["samples"] = 10 ** 12


for name, rec, pick, change, said in (
        ("build_registers", "h100-kernels.jsonl", kernel_row,
         lambda r: r["kernel_build"].update(registers=-5), "kernel_build.registers is -5"),
        ("build_arch", "h100-kernels.jsonl", kernel_row,
         lambda r: r["kernel_build"].update(arch=-1), "kernel_build.arch is -1"),
        ("stall_function_past", "h200-demo.jsonl", stalled_row,
         lambda r: r["stalls"]["functions"][0]["reasons"].update(selected=10 ** 12),
         "stalls.functions hold"),
        ("stall_link_past", "h200-demo.jsonl", stalled_row, swell_link,
         "more than the")):
    folder(name, lambda d, n=name, f=rec, p=pick, c=change: changed_row(d, n + ".jsonl", f, p, c))
    out = case(name, ["recording", name + ".jsonl"], 7)
    check(said in out, f"{name}: a figure past its range or its whole refused: {out[-300:]}")


def ar_point(d, name, change):  # the two-GPU all-reduce recording, its largest point changed
    import json
    j = json.load(open(AR))
    change(max(j["points"], key=lambda p: p["bytes"]))
    touch(d, name, json.dumps(j))


for name, change, said in (
        ("ar_nvlink", lambda p: p.update(nvlink_tx_bytes=1.6e25), "nvlink_tx_bytes is 1.6e+25"),
        ("ar_nccl_zero", lambda p: p.update(nccl_tests_time_ms=0.0, nccl_tests_busbw_gbps=0.0),
         "nccl-tests' time is 0 us"),
        ("ar_nccl_bus", lambda p: p.update(nccl_tests_time_ms=1.0, nccl_tests_busbw_gbps=999.0),
         "nccl_tests_busbw_gbps is 999")):
    folder(name, lambda d, n=name, c=change: ar_point(d, n + ".json", c))
    out = case(name, ["allreduce", "--replay", name + ".json", "--algo", "all"], 7)
    check(said in out, f"{name}: an all-reduce figure that cannot be refused: {out[-300:]}")
folder("check_hundred", hundred_findings)
out = case("check_hundred", [*CHECK, "c.jsonl"], 9)
check("(and 76 more groups)" in out, f"a check's findings past 24 are said: {out[-300:]}")

# a long recorded name is cut at a character, never in half of one
def long_launch_name(d):
    import json
    lines = open(DEMO, encoding="utf-8").read().splitlines()
    for l in lines[1:]:
        o = json.loads(l)
        if o.get("request", {}).get("variant") == "sequential" and o["metrics"].get("launches"):
            o["metrics"]["launches"][0]["name"] = "\u03bc" * 300
            touch(d, "mu.jsonl", lines[0] + "\n" + json.dumps(o) + "\n")
            return


folder("utf8_cut", long_launch_name)
out = case("utf8_cut", [*SEQ, "mu.jsonl", "--metrics", "default"], 0)
check("\\xce" not in out and "\ufffd" not in out and "\u03bc" * 20 in out,
      f"a name cut whole: {out[-300:]}")

# every input checked before any work: --against that names nothing prints
# no stall view first
for name in ("nosuch", "nosuch.cu"):
    p = subprocess.run([EXE, *SEQ, DEMO, "--stalls", "--against", name], capture_output=True,
                       text=True, timeout=30)
    check(p.returncode == 7 and p.stdout == "" and f"--against {name}:" in p.stderr,
          f"--against {name}: refused before the run: {p.returncode} {p.stdout[:200]!r}")

# 5. values: refused with the control character shown, never echoed raw
folder("value_newline")
case("value_newline", ["run", "--variant", "seq\nredscope: FORGED", "--n", "1000"], 2)
folder("value_escape")
case("value_escape", ["run", "--variant", "cpu", "--n", "10\x1b[2J"], 2)
folder("value_blanks")
case("value_blanks", ["run", "--variant", " cpu ", "--n", " 1000 "], 0)

# 6. the explorer: escapes drawn, a FIFO preset never waited on
UTF8 = {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color"}
for rec, key, want in (("device_bidi.jsonl", None, "H200 \\u202e002H"),):
    d = folder("tui_" + rec, lambda d: presets_dir(d, "fifo"))
    t = Tmux(f"cd {d} && XDG_CONFIG_HOME={d}/.config {EXE} --replay {data(rec)}", cols=120,
             rows=35, env=UTF8)
    try:
        t.wait_for("REPLAY")
        if key:
            t.keys(key)
        s = t.wait_for(want, 10) or t.screen()
        check(want in s and not any(c in s for c in BIDI), f"explorer {rec}: {want} drawn", s)
        if key:
            t.keys("Escape")
        t.keys("P")
        s = t.wait_for("stuck", 5) or t.screen()
        check("Presets" in s and "stuck" in s, f"explorer {rec}: P lists the FIFO preset", s)
        t.keys("q")
        if t.wait_for("q again", 2):
            t.keys("q")
        check(t.exit_code(10) == 0, f"explorer {rec}: quits")
    finally:
        t.close()

# the explorer's readers stop at their bound too: a replay of a file that
# never ends is refused, P lists a preset that never ends as broken, and q
# quits at once after both
d = folder("tui_never", lambda d: presets_dir(d, "never"))
t = Tmux(f"cd {d} && XDG_CONFIG_HOME={d}/.config {EXE} --replay {NEVER}; echo rc=$?; sleep 30",
         cols=120, rows=35, env=UTF8)
try:
    s = t.wait_for("rc=", 10) or t.screen()
    check("rc=7" in s and ("goes on past" in s or "NUL byte" in s),
          "explorer --replay of a file that never ends: refused at once", s)
finally:
    t.close()
t = Tmux(f"cd {d} && XDG_CONFIG_HOME={d}/.config {EXE} --replay {DEMO}", cols=120, rows=35,
         env=UTF8)
try:
    t.wait_for("REPLAY")
    t.keys("P")
    s = t.wait_for("never", 5) or t.screen()
    check("Presets" in s and "never" in s, "explorer: P lists the preset that never ends", s)
    t.keys("q")
    if t.wait_for("q again", 2):
        t.keys("q")
    check(t.exit_code(10) == 0, "explorer: quits after P on a preset that never ends")
finally:
    t.close()

# a terminal the explorer cannot draw on is said, with its own exit code
# (ncurses' own message and exit 1, the code of a wrong result, before)
for term, said in (("nosuchterm", "the terminal 'nosuchterm' is unknown here"),
                   ("", "the terminal (TERM is empty) is unknown here"),
                   ("dumb", "the terminal 'dumb' cannot move its cursor")):
    t = Tmux(f"env TERM={term} {EXE} --replay {DEMO}; echo rc=$?; sleep 30", cols=200, rows=10,
             env=UTF8)
    try:
        s = t.wait_for("rc=", 10) or t.screen()
        check("rc=11" in s and said in s, f"TERM={term!r}: said, exit 11", s)
    finally:
        t.close()

print(f"test_hostile: {len(CASES)} cases")
for d in CASES.values():
    shutil.rmtree(d, ignore_errors=True)
check.finish()
