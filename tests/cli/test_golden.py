"""Every command's output, in every format, from the shipped recordings,
against the files in tests/data/golden/: a restructure must leave what a
user reads byte for byte as it was, or change these files on purpose.

REDSCOPE_GOLDEN_UPDATE=1 writes the files anew (then read `git diff`).
What depends on the machine (the source tree's path, the GPU machine's as
recordings name it, a compile's time) is written as a placeholder before
the comparison.
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from clitest import Checks, run  # noqa: E402

SRC = os.environ["REDSCOPE_SOURCE"]
GOLDEN = os.path.join(SRC, "tests", "data", "golden")
REC = "conf/recordings/"
DEMO = REC + "h200-demo.jsonl"
FORMATS = ("table", "csv", "json", "md", "html")

# name: the command's words; each runs once per format
CASES = {
    "run": ["run", "--replay", DEMO, "--variant", "sequential", "--n", "2^24", "--metrics",
            "default"],
    "run_stalls": ["run", "--replay", DEMO, "--variant", "sequential", "--n", "2^24",
                   "--stalls"],
    "run_against": ["run", "--replay", DEMO, "--variant", "sequential", "--n", "2^24",
                    "--stalls", "--against", "interleaved"],
    "run_check": ["run", "--variant", "unroll_warp_volatile", "--n", "2^20", "--check", "race",
                  "--replay", REC + "h100-checks.jsonl"],
    "run_energy": ["run", "--replay", REC + "h100-energy.jsonl", "--variant", "atomic", "--n",
                   "2^28", "--energy"],
    "ladder": ["ladder", "--replay", DEMO, "--metrics", "full"],
    "ladder_wide": ["ladder", "--replay", DEMO, "--metrics", "full", "--wide"],
    "ladder_stalls": ["ladder", "--replay", DEMO, "--stalls"],
    "ladder_energy": ["ladder", "--replay", REC + "h100-energy.jsonl", "--n", "2^24",
                      "--energy"],
    "ladder_gpus": ["ladder", "--gpus", "0", "--type", "int32", "--n", "2^30", "--reps", "20",
                    "--replay", REC + "h200x2-ladder.jsonl"],
    "ladder_against": ["ladder", "--replay", REC + "h100-kernels.jsonl", "--against", DEMO],
    "sweep": ["sweep", "--replay", DEMO],
    "sweep_energy": ["sweep", "--replay", REC + "h100-energy.jsonl", "--energy"],
    # issue 43: a warm ladder (every row against the L2 read) and a sweep of both states
    "ladder_warm": ["ladder", "--replay", REC + "h200-warm.jsonl", "--preset",
                    "leetgpu-reduction", "--metrics", "default", "--energy"],
    "sweep_both": ["sweep", "--replay", REC + "h200-warm.jsonl", "--preset", "gpumode-vectorsum",
                   "--cache", "both"],
    "devices_warm": ["devices", "--replay", REC + "h200-warm.jsonl"],
    "devices": ["devices", "--replay", REC + "h200x2-ladder.jsonl"],
    "recording": ["recording", REC + "h100-kernels.jsonl"],
    "diff": ["diff", REC + "h100-kernels.jsonl", DEMO],
    "diff_mine": ["diff", REC + "h100-mine-before.jsonl", REC + "h100-mine-after.jsonl"],
    "allreduce": ["allreduce", "--replay", REC + "h200x2-allreduce.json", "--algo", "all"],
    "variants": ["variants"],
    "presets": ["presets"],
    "compile": ["compile", "conf/kernels/template.cu", "--type", "float32"],
    "metrics": ["metrics"],  # as it reads without a GPU: skipped where one answers
}


# Recordings made on the GPU machine name its checkout (a cubin's path):
# the same placeholder as this tree's, wherever the tree is.
RECORDED_ROOT = "/work/main"


def normalise(text):
    text = text.replace(SRC, "$SRC").replace(RECORDED_ROOT, "$SRC")
    # NVRTC's time varies from run to run; the words around it do not
    text = re.sub(r"(: compiled for .* in )\d+ ms", r"\1# ms", text)
    text = re.sub(r"(Compile time = )[0-9.]+ ms", r"\1# ms", text)
    text = re.sub(r'("compile_ms"\s*:\s*)[0-9.e+-]+', r"\1#", text)
    text = re.sub(r'^("conf/kernels/[^"]*",.*,)[0-9.]+(,[^,]*)$', r"\1#\2", text, flags=re.M)
    return text


def record(rc, out, err):
    return f"exit {rc}\n--- stdout\n{normalise(out)}--- stderr\n{normalise(err)}"


# every command's --help, and the overview: the options each command owns
HELPS = ["explore", "run", "ladder", "sweep", "allreduce", "compile", "devices", "variants",
         "metrics", "presets", "recording", "diff"]


# refusals of options: a command's own options elsewhere, words, values
REFUSALS = {
    "variants_bad_format": ["variants", "--format", "XML"],
    "ladder_bad_format": ["ladder", "--replay", DEMO, "--format", "xml"],
    "run_bad_format": ["run", "--replay", DEMO, "--format", "xml"],
    "run_measure": ["run", "--measure"],
    "ladder_check": ["ladder", "--check", "race"],
    "compile_arch": ["compile", "conf/kernels/template.cu", "--arch", "sm_4"],
    "diff_three": ["diff", "a.jsonl", "b.jsonl", "c.jsonl"],
    "diff_fail_bad": ["diff", REC + "h100-mine-before.jsonl", REC + "h100-mine-after.jsonl",
                      "--fail-slower", "x"],
    "allreduce_algo": ["allreduce", "--algo", "ring,bogus"],
    "allreduce_rank": ["allreduce", "--rank", "-1"],
    "devices_variant": ["devices", "--variant", "cub"],
    "run_variants": ["run", "--variants", "cub"],
    "recording_two": ["recording", DEMO, DEMO],
    "run_unknown": ["run", "--bogus"],
    "run_missing": ["run", "--n"],
    "explore_wide": ["explore", "--wide"],
    "help_bogus": ["help", "bogus"],
    "ladder_metrics_word": ["ladder", "--replay", DEMO, "--metrics", "full", "--format", "csv"],
    "compile_metrics_word": ["compile", "--metrics", "conf/kernels/template.cu"],
}


def compare(check, update, path, got):
    if update:
        with open(path, "w") as f:
            f.write(got)
        return
    try:
        with open(path) as f:
            want = f.read()
    except FileNotFoundError:
        want = None
    name = os.path.basename(path)
    check(want is not None, f"{name}: no golden file (REDSCOPE_GOLDEN_UPDATE=1)")
    if want is not None and want != got:
        a, b = want.splitlines(), got.splitlines()
        k = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
        check(False, f"{name} differs at line {k + 1}:\n"
              f"  want: {a[k] if k < len(a) else '(end)'}\n"
              f"  got:  {b[k] if k < len(b) else '(end)'}")
    elif want is not None:
        check(True, name)


def main():
    check = Checks("golden")
    update = os.environ.get("REDSCOPE_GOLDEN_UPDATE") == "1"
    env = {"XDG_CONFIG_HOME": os.path.join(GOLDEN, "no-such-config"), "NO_COLOR": "1",
           "LC_ALL": "C.UTF-8", "COLUMNS": "100"}
    os.makedirs(GOLDEN, exist_ok=True)
    gpu_here = run("devices", env=env, timeout=120)[0] == 0
    for name, words in CASES.items():
        if name == "metrics" and gpu_here:
            continue
        for fmt in FORMATS:
            rc, out, err = run(*words, "--format", fmt, env=env, cwd=SRC, timeout=120)
            got = record(rc, out, err)
            compare(check, update, os.path.join(GOLDEN, f"{name}.{fmt}"), got)
    for name, words in REFUSALS.items():
        rc, out, err = run(*words, env=env, cwd=SRC, timeout=60)
        compare(check, update, os.path.join(GOLDEN, f"refusal.{name}"),
                record(rc, out, err))
    for name in HELPS + [None]:
        rc, out, err = run(*([name] if name else []), "--help", env=env, cwd=SRC, timeout=60)
        compare(check, update, os.path.join(GOLDEN, f"help.{name or 'overview'}"),
                record(rc, out, err))
    check.finish()


if __name__ == "__main__":
    main()
