#!/usr/bin/env python3
"""redscope(1) and the completions for bash, zsh and fish (issue 44), as
the build made them (build/share/) from the tables: every option the
program takes is in them, found two ways besides the generator (each
command's --help, and the option names written in the sources: the
request's field table, the shared options, each command's own), per
command in the man page and in each shell's completion; every variant,
type, operation, finish, counter and format is offered; every REDSCOPE_*
variable the program reads is in ENVIRONMENT; the page is clean under
groff -ww and man --warnings; the scripts parse (bash -n, zsh -n, fish -n)
and complete (bash: COMP_WORDS in a real bash; fish: complete -C)."""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from clitest import EXE, Checks, have_tool, run  # noqa: E402

check = Checks("test_docs")
SRC = os.environ["REDSCOPE_SOURCE"]
SHARE = os.path.join(os.path.dirname(os.path.abspath(EXE)), "share")
FILES = {"man": "man/man1/redscope.1", "bash": "bash-completion/completions/redscope",
         "zsh": "zsh/vendor-completions/_redscope", "fish": "fish/vendor_completions.d/redscope.fish"}
text = {}
for what, rel in FILES.items():
    path = os.path.join(SHARE, rel)
    check(os.path.isfile(path), f"the build made {rel}")
    text[what] = open(path).read() if os.path.isfile(path) else ""
    rc, out, _ = run("--generate", what)
    check(rc == 0 and out == text[what], f"{rel} is what --generate {what} says now")
# options the program reads itself, not a user's: the GPU process, the
# bounded compile, these documents
INTERNAL = {"gpu-process", "compile-process", "generate"}


# ---- what the program takes, found without the generator ------------------------------
rc, out, _ = run("--help")
commands = re.findall(r"^  (\w+)\s{2,}", out.split("commands:", 1)[1].split("\n\n", 1)[0], re.M)
check(len(commands) >= 12, f"the commands: {commands}")
commands = ["explore"] + [c for c in commands if c != "explore"]
helped = {}
for c in commands:
    rc, out, _ = run("help", c)
    opts = out.split("options:", 1)[-1].split("\n\n", 1)[0]
    helped[c] = set(re.findall(r"^  (?:-\w, )?\s*--([a-z0-9-]+)", opts, re.M))
    check(rc == 0 and len(helped[c]) >= 2, f"redscope help {c}: its options {sorted(helped[c])}")


def source(*parts):
    return "".join(open(p).read() for p in glob.glob(os.path.join(SRC, "src", *parts)))


written = set(re.findall(r'^\s*X\(\w+, RS_FK_\w+, "\w+", "\w+", "([a-z0-9-]+)"',
                         source("core", "request.h"), re.M))
written |= set(re.findall(r'\{"([a-z][a-z0-9-]+)", (?:no|required|optional)_argument',
                          source("cli", "parse.c")))
for table in re.findall(r"rs_cmd_option \w+\[\] = \{(.*?)\n\};", source("cmd", "*.c"), re.S):
    written |= set(re.findall(r'^\s*\{"([a-z][a-z0-9-]*)",', table, re.M))
# and what the program's own parsing compares by hand (not other tools' options)
written |= set(re.findall(r'"--([a-z][a-z0-9-]*)"', source("cli", "*.c") + source("main.c")))
check(len(written) >= 40, f"option names written in the sources: {len(written)}")


# ---- the man page ---------------------------------------------------------------------
def roff(s):
    return s.replace("\\-", "-").replace("\\e", "\\")


man = text["man"]
sections = {}
for block in man.split("\n.SS ")[1:]:
    head = block.split("\n", 1)[0]
    m = re.match(r'"redscope (?:\[explore\]|([\\\w-]+))', head)
    name = roff(m.group(1)) if m and m.group(1) else "explore"
    body = block.split("\n.SH ", 1)[0]
    sections[name] = {roff(o) for o in re.findall(r"\\fB\\-\\-((?:[a-z0-9]|\\-)+)\\fR", body)}
all_man = set(re.findall(r"--([a-z][a-z0-9-]*)", roff(man)))
for c in commands:
    missing = helped[c] - sections.get(c, set())
    check(c in sections and not missing, f"man: {c}'s options: missing {sorted(missing)}")
missing = written - INTERNAL - all_man
check(not missing, f"man: every option written in the sources: missing {sorted(missing)}")
for env in sorted(set(re.findall(r'"(REDSCOPE_[A-Z_0-9]+)', source("*", "*.c")))):
    if env.startswith("REDSCOPE_TEST_") or env == "REDSCOPE_TRACE_T0":
        continue
    check(f".B {env}\n" in man.split(".SH ENVIRONMENT", 1)[-1],
          f"man: ENVIRONMENT names {env}, which the program reads")
for sect in ("NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "COUNTERS", "EXPLORER KEYS", "FILES",
             "ENVIRONMENT", "EXIT STATUS", "EXAMPLES", "SEE ALSO"):
    check(f".SH {sect}\n" in man, f"man: a {sect} section")
rc, out, _ = run("metrics", "--format", "json")
keys = [m["key"] for m in json.loads(out)["metrics"]] if rc == 0 else []
in_man = [k for k in keys if "\\fB" + k.replace("-", "\\-") + "\\fR" in man]
check(keys and in_man == keys, f"man: every counter: {sorted(set(keys) - set(in_man))}")
check(all(f"\n.B {c}\n" in man.split(".SH EXIT STATUS", 1)[-1] for c in (0, 1, 2, 3, 4, 130)),
      "man: the exit codes")
if have_tool(check, "groff"):
    p = subprocess.run(["groff", "-ww", "-man", "-z"], input=man, capture_output=True, text=True)
    check(p.returncode == 0 and not p.stderr, f"groff -ww: no warning: {p.stderr[:600]}")
if have_tool(check, "man"):
    p = subprocess.run(["man", "--warnings", "-l", os.path.join(SHARE, FILES["man"])],
                       capture_output=True, text=True, env=dict(os.environ, MANWIDTH="80"))
    check(p.returncode == 0 and not p.stderr and "SYNOPSIS" in p.stdout,
          f"man --warnings: no warning: {p.stderr[:600]}")

# ---- the completions: each command's options, each shell --------------------------------
bash = text["bash"]
bash_opts = {c: set(re.findall(r"--([a-z0-9-]+)", o))
             for c, o in re.findall(r"^        (\w+)\) opts='([^']*)'", bash, re.M)}
fish = text["fish"]
fish_opts = {}
for cond, name in re.findall(r'complete -c redscope -n "([^"]+)".* -l ([a-z0-9-]+)', fish):
    c = cond.split()[-1] if "not " not in cond else "explore"
    fish_opts.setdefault(c, set()).add(name)
zsh = text["zsh"]
zsh_opts = {c: set(re.findall(r"--([a-z0-9][a-z0-9-]*)", body))
            for c, body in re.findall(r"^    (\w+)\)\n(.*?)\n        ;;", zsh, re.M | re.S)}
for shell, got in (("bash", bash_opts), ("fish", fish_opts), ("zsh", zsh_opts)):
    for c in commands:
        missing = helped[c] - got.get(c, set())
        check(c in got and not missing, f"{shell}: {c}'s options: missing {sorted(missing)}")
    every = set().union(*got.values()) if got else set()
    missing = written - INTERNAL - every
    check(not missing, f"{shell}: every option written in the sources: missing {sorted(missing)}")

rc, out, _ = run("variants", "--format", "json")
variants = [v.get("id") or v.get("name") for v in json.loads(out)] if rc == 0 else []
rc, out, _ = run("help", "run")
words = {"type": re.search(r"--type T\s+element type: ([\w ]+) \[", out),
         "op": re.search(r"--op OP\s+.*?: ([\w ]+) \[", out),
         "finish": re.search(r"--finish F\s+.*?: ([\w ]+) \[", out)}
values = [w for m in words.values() if m for w in m.group(1).split()] + variants + keys
values += ["table", "csv", "json", "md", "html", "cold", "warm", "none", "default", "full"]
check(len(variants) >= 15 and len(values) > 40, f"the values to offer: {len(values)}")
for shell in ("bash", "zsh", "fish"):
    gone = [v for v in values if not re.search(rf"(?<![\w-]){re.escape(v)}(?![\w-])", text[shell])]
    check(not gone, f"{shell}: every value offered: missing {gone}")


# ---- they parse, and they complete ---------------------------------------------------------
for shell, flag in (("bash", "-n"), ("zsh", "-n"), ("fish", "-n")):
    if have_tool(check, shell):
        p = subprocess.run([shell, flag, os.path.join(SHARE, FILES[shell])], capture_output=True,
                           text=True)
        check(p.returncode == 0, f"{shell} {flag}: it parses: {p.stderr[:400]}")

RECS = os.path.join(SRC, "conf", "recordings")
work = tempfile.mkdtemp(prefix="rs_docs_")
for f in ("a.jsonl", "b.json", "k.cu", "notes.txt"):
    open(os.path.join(work, f), "w").close()
os.mkdir(os.path.join(work, "sub"))


def bash_complete(*words):
    line = " ".join(f"'{w}'" for w in (EXE,) + words)
    script = (f"source '{os.path.join(SHARE, FILES['bash'])}'\nCOMP_WORDS=({line})\n"
              "COMP_CWORD=$((${#COMP_WORDS[@]}-1))\n_redscope\nprintf '%s\\n' \"${COMPREPLY[@]}\"")
    p = subprocess.run(["bash", "-c", script], capture_output=True, text=True, cwd=work)
    return set(p.stdout.split())


got = bash_complete("run", "--variant", "")
check(set(variants) <= got, f"bash: run --variant <TAB>: the variants: {sorted(got)[:8]}")
check(bash_complete("run", "-v", "vec") == {"vectorized"}, "bash: -v vec<TAB>: vectorized")
got = bash_complete("--replay", "")
check({"a.jsonl", "b.json", "sub"} <= got and "k.cu" not in got and "notes.txt" not in got,
      f"bash: --replay <TAB>: recordings and folders: {sorted(got)}")
got = bash_complete("ladder", "--kernel", "")
check("k.cu" in got and "a.jsonl" not in got, f"bash: --kernel <TAB>: .cu files: {sorted(got)}")
check(bash_complete("compile", "") >= {"k.cu"}, "bash: compile <TAB>: .cu files")
check(bash_complete("ladder", "--variants", "atomic,seq") == {"atomic,sequential"},
      "bash: --variants atomic,seq<TAB>: the list's last item")
check({"default", "full"} <= bash_complete("ladder", "--metrics", "=", ""),
      "bash: --metrics=<TAB>: the sets")
check(bash_complete("run", "--format", "") >= {"table", "csv", "json"}, "bash: --format <TAB>")
check({"harris-2007", "student-lab"} <= bash_complete("ladder", "--preset", ""),
      "bash: --preset <TAB>: the presets `redscope presets` lists")
check({"run", "ladder", "diff"} <= bash_complete(""), "bash: redscope <TAB>: the commands")
check(bash_complete("ladder", "--wi") == {"--wide"}, "bash: ladder --wi<TAB>: its own option")
check({"nccl", "ring", "all"} <= bash_complete("allreduce", "--algo", ""),
      "bash: allreduce --algo <TAB>: the algorithms its help names")

if have_tool(check, "fish"):
    def fish_complete(line):
        script = f"source '{os.path.join(SHARE, FILES['fish'])}'; complete -C '{line}'"
        p = subprocess.run(["fish", "-c", script], capture_output=True, text=True, cwd=work)
        return {l.split("\t")[0] for l in p.stdout.splitlines()}
    check(set(variants) <= fish_complete("redscope run --variant "),
          "fish: run --variant <TAB>: the variants")
    got = fish_complete("redscope --replay ")
    check({"a.jsonl"} <= got and "k.cu" not in got, f"fish: --replay <TAB>: {sorted(got)}")
    check({"run", "ladder"} <= fish_complete("redscope "), "fish: the commands")
shutil.rmtree(work, ignore_errors=True)
check.finish()
