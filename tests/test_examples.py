#!/usr/bin/env python3
"""Every example runs as written: the lines under "Examples:" in
`redscope --help` and every redscope command in README.md's sh blocks.
Without a GPU a GPU command must say so (exit 3 or 4), never fail on its
arguments (2) or crash; commands that need no GPU exit 0; explorer
examples start in a real terminal (tmux) and quit on q."""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from clitest import EXE, Checks, run  # noqa: E402
from tuitest import Tmux  # noqa: E402

SRC = os.environ["REDSCOPE_SOURCE"]
check = Checks("test_examples")
have_gpu = run("devices")[0] == 0
NO_GPU_NEEDED = {"variants", "metrics", "presets", "help"}


def from_help():
    rc, out, _ = run("--help")
    check(rc == 0, "redscope --help")
    lines = out.split("Examples:", 1)[1].split("\n\n", 1)[0].splitlines() if "Examples:" in out \
        else []
    check(len(lines) >= 3, "the help has examples")
    # "  redscope run ...      the explorer": the command ends at a run of 3 spaces
    return [re.split(r"\s{3,}", l.strip())[0] for l in lines if l.strip().startswith("redscope")]


def from_readme():
    text = open(os.path.join(SRC, "README.md")).read()
    cmds = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for line in block.splitlines():
            line = line.split("#", 1)[0].strip()
            if line.startswith("redscope"):
                cmds.append(line)
    check(len(cmds) >= 5, "the README has redscope examples")
    return cmds


def explorer(cmd, cwd):
    args = shlex.split(cmd)[1:]
    t = Tmux(f"cd {shlex.quote(cwd)} && {EXE} {' '.join(map(shlex.quote, args))}", cols=100,
             rows=30, env={"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color",
                           "XDG_CONFIG_HOME": cwd})
    try:
        s = t.wait_for("redscope", 20)
        check(s is not None and "Ladder" in s, f"{cmd}: the explorer starts")
        t.keys("q")
        code = t.exit_code(20)
        if code is None:  # a run may be going on: q asks first
            t.keys("q")
            code = t.exit_code(20)
        check(code == 0, f"{cmd}: quits with 0, got {code}")
    finally:
        t.close()


def batch(cmd, cwd):
    args = shlex.split(cmd)[1:]
    p = subprocess.run([EXE, *args], cwd=cwd, capture_output=True, text=True, timeout=900,
                       env=dict(os.environ, XDG_CONFIG_HOME=cwd))
    gpu = args[0] not in NO_GPU_NEEDED
    if "--plot" in args and not shutil.which("gnuplot"):
        # gnuplot is a documented dependency: its absence is said first
        check(p.returncode == 7 and "gnuplot" in p.stderr,
              f"{cmd}: without gnuplot says so before measuring: {p.stderr!r}")
    elif gpu and not have_gpu:
        check(p.returncode in (3, 4) and "redscope: " in p.stderr,
              f"{cmd}: without a GPU exits 3 or 4 and says why, got {p.returncode} {p.stderr!r}")
    else:
        check(p.returncode == 0, f"{cmd}: exit {p.returncode} {p.stderr!r}")


def main():
    cwd = tempfile.mkdtemp(prefix="rs_examples_")
    os.symlink(os.path.join(SRC, "conf"), os.path.join(cwd, "conf"))
    try:
        for cmd in from_help() + from_readme():
            first = shlex.split(cmd)[1:2]
            if not first or first[0].startswith("-") or first[0] == "explore":
                if "--replay" in cmd or have_gpu:
                    explorer(cmd, cwd)
                continue
            batch(cmd, cwd)
    finally:
        shutil.rmtree(cwd, ignore_errors=True)
    check.finish()


main()
