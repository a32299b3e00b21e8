#!/usr/bin/env python3
"""Installed like a system tool (issue 44): CPack's Debian package of this
build, its control fields (Depends from the linked libraries, gnuplot
recommended) and file list in their FHS places; the package installed into
a scratch root (dpkg-deb -x), and `cmake --install` to another prefix;
there, and once more after the installed tree is moved: --version, presets
found where they are installed (no build or source path in any output), a
replay of an installed recording, a kernel compiled from the installed
template, and `man redscope` from the installed page; lintian with no error
or warning where lintian is installed (CI installs it)."""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import EXE, Checks, have_tool  # noqa: E402

check = Checks("test_package")
BUILD = os.path.dirname(os.path.abspath(EXE))
SRC = os.path.abspath(os.environ["REDSCOPE_SOURCE"])
tmp = tempfile.mkdtemp(prefix="rs_pkg_")


def sh(*args, env=None, cwd=None, timeout=600):
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.run(args, capture_output=True, text=True, env=e, cwd=cwd, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


# ---- the package -------------------------------------------------------------------------
rc, out, err = sh("cpack", "--config", os.path.join(BUILD, "CPackConfig.cmake"), "-B",
                  os.path.join(tmp, "pkg"), cwd=BUILD)
debs = glob.glob(os.path.join(tmp, "pkg", "*.deb"))
check(rc == 0 and len(debs) == 1, f"cpack made one .deb: {rc} {err[-600:]} {out[-600:]}")
if not debs:
    check.finish()
deb = debs[0]
print(os.path.basename(deb))
rc, control, _ = sh("dpkg-deb", "-f", deb)
fields = dict(l.split(": ", 1) for l in control.splitlines() if ": " in l and l[0] != " ")
depends = fields.get("Depends", "")
for lib in ("libncursesw6", "libcjson1", "libc6"):
    check(lib in depends, f"Depends names {lib} (from the linked libraries): {depends}")
check("cuda" not in depends.lower() and "nvidia" not in depends.lower(),
      f"no CUDA library in Depends (loaded at run time where present): {depends}")
check("gnuplot" in fields.get("Recommends", ""), f"gnuplot recommended: {fields}")
check(fields.get("Package") == "redscope" and fields.get("Version", "").startswith("0."),
      f"name and version: {fields}")
rc, listing, _ = sh("dpkg-deb", "-c", deb)
files = {l.split()[-1].lstrip(".") for l in listing.splitlines() if l.strip()}
want = ["/usr/bin/redscope", "/usr/share/man/man1/redscope.1.gz",
        "/usr/share/bash-completion/completions/redscope",
        "/usr/share/zsh/vendor-completions/_redscope",
        "/usr/share/fish/vendor_completions.d/redscope.fish",
        "/usr/share/redscope/presets/harris-2007.ini",
        "/usr/share/redscope/recordings/h200-demo.jsonl",
        "/usr/share/redscope/kernels/template.cu",
        "/usr/share/doc/redscope/copyright", "/usr/share/doc/redscope/changelog.Debian.gz",
        "/usr/share/lintian/overrides/redscope"]
for f in want:
    check(f in files, f"the package holds {f}")
check(any(f.startswith("/usr/lib/redscope/cubins/") and f.endswith(".cubin") for f in files),
      "the kernels' cubins under /usr/lib/redscope/cubins (GPU code: not in share/)")
stray = sorted(f for f in files if not f.startswith("/usr/"))
check(not stray, f"nothing outside /usr: {stray[:5]}")
check(not any(BUILD in f or SRC in f for f in files), "no build path in the file list")

if shutil.which("lintian"):
    rc, out, err = sh("lintian", "--tag-display-limit", "0", deb, timeout=600)
    bad = [l for l in (out + err).splitlines() if l[:3] in ("E: ", "W: ")]
    check(not bad, "lintian: no error or warning:\n" + "\n".join(bad[:20]))
else:
    have_tool(check, "lintian")


# ---- installed, then moved -----------------------------------------------------------------
def installed(root, prefix, what):
    """The checks of an installed tree: prefix/bin/redscope run from elsewhere."""
    exe = os.path.join(root + prefix, "bin", "redscope")
    check(os.access(exe, os.X_OK), f"{what}: {exe} is there")
    if not os.access(exe, os.X_OK):
        return
    env = {"XDG_CONFIG_HOME": os.path.join(tmp, "config"), "REDSCOPE_DATA_DIR": ""}
    data = os.path.realpath(os.path.join(root + prefix, "share", "redscope"))
    outs = []

    def rs(*args):
        rc, out, err = sh(exe, *args, env=env, cwd=tmp)
        outs.append(out + err)
        return rc, out, err

    rc, out, err = rs("--version")
    check(rc == 0 and out.startswith("redscope "), f"{what}: --version: {rc} {out} {err}")
    rc, out, err = rs("presets")
    check(rc == 0 and f"shipped presets ({data}/presets)" in out and "harris-2007" in out,
          f"{what}: presets found where installed ({data}/presets): {out[:300]} {err}")
    demo = os.path.join(data, "recordings", "h200-demo.jsonl")
    rc, out, err = rs("ladder", "--replay", demo, "--type", "int32")
    check(rc == 0 and "vectorized" in out, f"{what}: the installed demo replays: {rc} {err[-300:]}")
    # (its JSON holds what the recording machine wrote, its cubins' paths among it)
    rc, out, err = sh(exe, "ladder", "--replay", demo, "--type", "int32", "--format", "json",
                      env=env)
    rows = json.loads(out).get("rows", []) if rc == 0 else []
    check(rc == 0 and len(rows) >= 10, f"{what}: every row of it: {rc} {err[-300:]}")
    rc, out, err = rs("compile", os.path.join(data, "kernels", "template.cu"))
    check(rc in (0, 3) and "template" in out + err,
          f"{what}: the installed template compiles (or says why): {rc} {out[-200:]} {err[-200:]}")
    for o in outs:
        check(BUILD not in o and SRC not in o,
              f"{what}: no build or source path in any output: {o[:300]}")
    man = os.path.join(root + prefix, "share", "man")
    if have_tool(check, "man"):
        rc, out, err = sh("man", "-P", "cat", "redscope", env={"MANPATH": man, "MANWIDTH": "80"})
        check(rc == 0 and "redscope" in out and "SYNOPSIS" in out,
              f"{what}: man redscope from the installed page: {rc} {err[-300:]}")


root = os.path.join(tmp, "root")
rc, _, err = sh("dpkg-deb", "-x", deb, root)
check(rc == 0, f"the package installs into a scratch root: {err}")
installed(root, "/usr", "the .deb in a scratch root")
moved = os.path.join(tmp, "elsewhere")
shutil.move(root, moved)
installed(moved, "/usr", "the same tree moved")

prefix = os.path.join(tmp, "prefix")
rc, out, err = sh("cmake", "--install", BUILD, "--prefix", prefix)
check(rc == 0, f"cmake --install to another prefix: {err[-400:]}")
installed("", prefix, "cmake --install --prefix")

# the program alone, copied away from any data: says so, and how to point at it
alone = os.path.join(tmp, "alone")
os.makedirs(alone)
shutil.copy(os.path.join(moved, "usr", "bin", "redscope"), alone)
rc, out, err = sh(os.path.join(alone, "redscope"), "presets", env={"REDSCOPE_DATA_DIR": ""})
check(rc == 0 and "REDSCOPE_DATA_DIR" in out and BUILD not in out and SRC not in out,
      f"a copy without its data says where it looked and how to point at the data: {out[:300]}")
rc, out, err = sh(os.path.join(alone, "redscope"), "presets",
                  env={"REDSCOPE_DATA_DIR": os.path.join(moved, "usr", "share", "redscope")})
check(rc == 0 and "harris-2007" in out, f"REDSCOPE_DATA_DIR points at it: {out[:300]}")
shutil.rmtree(tmp, ignore_errors=True)
check.finish()
