#!/usr/bin/env python3
"""redscope(1) and the completions for bash, zsh and fish (issue 44), as
the build made them (build/share/) from the tables, held against what the
program takes, found without the generator: each command's --help (its
options, short and long, and the words each option's help names), the
option names written anywhere in the sources, the variables the sources
read, the variants, counters, formats and exit codes the program lists.

The man page: each command's section has each of its options; OPTIONS
every option several commands share; every variant, counter, value, exit
code and variable is named; no hyphen of an option or a number is left to
roff (it would print U+2010); groff -ww and man --warnings say nothing.
The completions: every option of every command is in each shell's script,
the scripts parse (bash -n, zsh -n, fish -n), and each shell completes
every option's argument of every command as its help says (bash through
COMP_WORDS in a real bash, zsh in a real zsh on a pseudo-terminal, fish
through complete -C): its words, variants, counter sets, formats, presets,
.jsonl recordings, .cu kernels, charts."""
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
         "zsh": "zsh/vendor-completions/_redscope",
         "fish": "fish/vendor_completions.d/redscope.fish"}
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
# other programs' options the sources write: NVRTC's, compute-sanitizer's,
# fish's (the completion's own function)
FOREIGN = {"pre-include", "include-path", "gpu-architecture", "ptxas-options", "tool",
           "racecheck-report", "print-limit", "log-file", "description"}


# ---- what the program takes, found without the generator ------------------------------
rc, overview, _ = run("--help")
commands = re.findall(r"^  (\w+)\s{2,}",
                      overview.split("commands:", 1)[1].split("\n\n", 1)[0], re.M)
check(len(commands) >= 12, f"the commands: {commands}")
commands = ["explore"] + [c for c in commands if c != "explore"]
exit_codes = re.findall(r"^  (\d+)\s", overview.split("exit codes:", 1)[-1], re.M)
check(len(exit_codes) >= 10, f"the exit codes: {exit_codes}")
rc, _, err = run("variants", "--format", "nope")
formats = re.split(r", | or ", err.split("expected ", 1)[-1].strip())
check(rc == 2 and "table" in formats and len(formats) >= 4, f"the formats: {formats}")
rc, out, _ = run("variants", "--format", "json")
variants = [v["id"] for v in json.loads(out)] if rc == 0 else []
check(len(variants) >= 15, f"the variants: {variants}")
rc, out, _ = run("metrics", "--format", "json")
counters = [m["key"] for m in json.loads(out)["metrics"]] if rc == 0 else []
check(len(counters) >= 10, f"the counters: {counters}")
rc, out, _ = run("presets", "--format", "csv")
presets = [l.split(",")[0].strip('"') for l in out.splitlines()[1:] if ",shipped," in l]
check(rc == 0 and len(presets) >= 3, f"the shipped presets: {presets}")


def words_of(help_text, arg):
    """The words an option takes as its help line says them: [=0|1], the
    values the field table appends before its [default] (one of them), or a
    list in prose after the last ': ' ("table (default), csv or html")."""
    if arg and arg.startswith("[=") and "|" in arg:
        return arg[2:-1].split("|")
    m = re.match(r"(.*) \[([^\]]*)\]$", help_text)
    body, default = (m.group(1), m.group(2)) if m else (help_text, None)
    body = re.sub(r"\([^()]*\)", "", body)
    if ": " not in body:
        return []
    tail = body.rsplit(": ", 1)[1].strip()
    items = tail.split(" ")
    if default in items and all(re.fullmatch(r"[a-z0-9_]+", i) for i in items):
        return items
    items = [re.sub(r"^or ", "", i.strip()) for i in re.split(r",| or ", tail) if i.strip()]
    ok = len(items) >= 2 and all(re.fullmatch(r"[a-z0-9_]+", i) for i in items)
    return items if ok else []


helped, shorts, takes = {}, {}, {}
for c in commands:
    rc, out, _ = run("help", c)
    opts = out.split("options:", 1)[-1].split("\n\n", 1)[0]
    lines = re.findall(r"^  (?:-(\w), )?\s*--([a-z0-9-]+)(\[=[^\]]*\]| \S+)?\s+(.*)$", opts, re.M)
    helped[c] = {name for _, name, _, _ in lines}
    shorts[c] = {(s, name) for s, name, _, _ in lines if s}
    takes[c] = {name: (arg.strip() if arg else None, words_of(h, arg)) for _, name, arg, h in lines}
    check(rc == 0 and len(helped[c]) >= 2, f"redscope help {c}: its options {sorted(helped[c])}")
usages = dict(re.findall(r"^usage: redscope \[?(\w+)\]? ?(.*)$", "\n".join(
    run("help", c)[1] for c in commands), re.M))
check(set(usages) == set(commands), f"every command's usage line: {sorted(usages)}")


def source(*parts):
    return "".join(open(p).read() for p in glob.glob(os.path.join(SRC, "src", *parts)))


every_c = "".join(open(p).read() for p in glob.glob(os.path.join(SRC, "src", "**", "*.[ch]"),
                                                      recursive=True))
written = set(re.findall(r'^\s*X\(\w+, RS_FK_\w+, "\w+", "\w+", "([a-z0-9-]+)"',
                         source("core", "request.h"), re.M))
written |= set(re.findall(r'\{"([a-z][a-z0-9-]+)", (?:no|required|optional)_argument',
                          source("cli", "parse.c")))
for table in re.findall(r"rs_cmd_option \w+\[\] = \{(.*?)\n\};", source("cmd", "*.c"), re.S):
    written |= set(re.findall(r'^\s*\{"([a-z][a-z0-9-]*)",', table, re.M))
# and every "--name" in a string anywhere: a message that names an option,
# a comparison by hand (other programs' options left out above)
written |= set(re.findall(r'"[^"\n]*?--([a-z][a-z0-9-]*)', every_c))
written -= INTERNAL | FOREIGN
check(len(written) >= 40, f"option names written in the sources: {len(written)}")
variables = set(re.findall(r'(?:getenv|rs_env_seconds)\("([A-Z_0-9]+)"', every_c))
# HOME is ~ in FILES; the library path is passed on to nccl-tests as it was;
# REDSCOPE_TRACE_T0 is set by redscope for its own GPU process
variables -= {"HOME", "LD_LIBRARY_PATH", "REDSCOPE_TRACE_T0"}
check(len(variables) >= 15, f"variables the sources read: {sorted(variables)}")


# ---- the man page ---------------------------------------------------------------------
def roff(s):
    return s.replace("\\-", "-").replace("\\e", "\\")


def section(name):
    return man.split(f"\n.SH {name}\n", 1)[-1].split("\n.SH ", 1)[0]


man = text["man"]
for sect in ("NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "OPTIONS", "VARIANTS", "COUNTERS",
             "EXPLORER KEYS", "FILES", "ENVIRONMENT", "EXIT STATUS", "EXAMPLES", "SEE ALSO"):
    check(f"\n.SH {sect}\n" in man, f"man: a {sect} section")
sections = {}
for block in ("\n" + section("COMMANDS")).split("\n.SS ")[1:]:
    head = block.split("\n", 1)[0]
    m = re.match(r'"redscope (?:\[explore\]|([\\\w-]+))', head)
    name = roff(m.group(1)) if m and m.group(1) else "explore"
    sections[name] = roff(block)
for c in commands:
    body = sections.get(c, "")
    missing = {o for o in helped[c] if f"\\fB--{o}\\fR" not in body}
    missing |= {f"-{s}" for s, o in shorts[c] if f"\\fB-{s}\\fR, \\fB--{o}\\fR" not in body}
    check(c in sections and not missing, f"man: {c}'s options: missing {sorted(missing)}")
    check(roff(usages[c]) in body.split("\n", 1)[0], f"man: {c}'s usage: {usages[c]}")
    synopsis = roff(section("SYNOPSIS"))
    check(c in synopsis and usages[c] in synopsis, f"man: SYNOPSIS has {c} {usages[c]}")
all_man = set(re.findall(r"--([a-z][a-z0-9-]*)", roff(man)))
missing = written - all_man
check(not missing, f"man: every option written in the sources: missing {sorted(missing)}")
shared = roff(section("OPTIONS"))
for o in set().union(*helped.values()):
    by = [c for c in commands if o in helped[c]]
    if len(by) >= 2:
        check(f"\\fB--{o}\\fR" in shared, f"man: OPTIONS has --{o}, which {', '.join(by)} take")
in_section = {"VARIANTS": variants, "COUNTERS": counters}
for name, listed in in_section.items():
    gone = [w for w in listed if "\\fB" + w.replace("-", "\\-") + "\\fR" not in section(name)]
    check(listed and not gone, f"man: {name} names each one: missing {gone}")
values = {w for c in commands for _, ws in takes[c].values() for w in ws}
check(len(values) >= 25, f"the words options take: {sorted(values)}")
gone = [w for w in sorted(values | set(formats))
        if not re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", roff(section("COMMANDS")))]
check(not gone, f"man: every word an option takes, under COMMANDS: missing {gone}")
status = section("EXIT STATUS")
check(all(f".B {c}\n" in status for c in exit_codes), f"man: the exit codes {exit_codes}")
environment = section("ENVIRONMENT")
for var in sorted(variables):
    if not var.startswith("REDSCOPE_TEST_"):
        check(f".B {var}\n" in environment, f"man: ENVIRONMENT names {var}, which the sources read")
check("REDSCOPE_TEST_" in environment, "man: ENVIRONMENT says what REDSCOPE_TEST_* are")
# a hyphen that starts an option or a number ("--replay", "-1") is \-: roff
# prints a bare one as a hyphen (U+2010 under groff 1.23), not copied as ASCII
bare = [l for l in man.splitlines()[1:] if re.search(r"(^|[^\\\w])-[\w-]", l)]
check(not bare, f"man: every option's hyphen escaped: {bare[:3]}")
if have_tool(check, "groff"):
    p = subprocess.run(["groff", "-ww", "-man", "-z"], input=man, capture_output=True, text=True)
    check(p.returncode == 0 and not p.stderr, f"groff -ww: no warning: {p.stderr[:600]}")
if have_tool(check, "man"):
    p = subprocess.run(["man", "--warnings", "-l", os.path.join(SHARE, FILES["man"])],
                       capture_output=True, text=True, env=dict(os.environ, MANWIDTH="80"))
    check(p.returncode == 0 and not p.stderr and "SYNOPSIS" in p.stdout,
          f"man --warnings: no warning: {p.stderr[:600]}")

# ---- the completions: each command's options, in each shell's script --------------------
bash = text["bash"]
bash_opts = {c: set(re.findall(r"(?<!\w)(--?[a-zA-Z0-9-]+)", o))
             for c, o in re.findall(r"^        (\w+)\) opts='([^']*)'", bash, re.M)}
fish_opts = {}
for cond, rest in re.findall(r'complete -c redscope -n "([^"]+)"(.*)', text["fish"]):
    c = cond.split()[-1] if "not " not in cond else "explore"
    fish_opts.setdefault(c, set()).update(
        "--" + n for n in re.findall(r" -l ([a-z0-9-]+)", rest))
    fish_opts[c].update("-" + n for n in re.findall(r" -s (\w)", rest))
zsh_opts = {c: set(re.findall(r"(?<![\w-])(--?[a-zA-Z0-9][a-zA-Z0-9-]*)", body))
            for c, body in re.findall(r"^    (\w+)\)\n(.*?)\n        ;;", text["zsh"], re.M | re.S)}
for shell, got in (("bash", bash_opts), ("fish", fish_opts), ("zsh", zsh_opts)):
    for c in commands:
        want = {"--" + o for o in helped[c]} | {"-" + s for s, _ in shorts[c]}
        missing = want - got.get(c, set())
        check(c in got and not missing, f"{shell}: {c}'s options: missing {sorted(missing)}")
    every = {o[2:] for o in set().union(*got.values())} if got else set()
    missing = written - every
    check(not missing, f"{shell}: every option written in the sources: missing {sorted(missing)}")

for shell, flag in (("bash", "-n"), ("zsh", "-n"), ("fish", "-n")):
    if have_tool(check, shell):
        p = subprocess.run([shell, flag, os.path.join(SHARE, FILES[shell])], capture_output=True,
                           text=True)
        check(p.returncode == 0, f"{shell} {flag}: it parses: {p.stderr[:400]}")

# ---- the completions complete: every option's argument, the words after ----------------
work = tempfile.mkdtemp(prefix="rs_docs_")
for f in ("a.jsonl", "b.json", "k.cu", "p.ini", "c.svg", "d.png", "notes.txt"):
    open(os.path.join(work, f), "w").close()
os.mkdir(os.path.join(work, "sub"))
RECORDING = ({"a.jsonl", "b.json"}, {"k.cu", "notes.txt"})
FILE_ARGS = {"replay": RECORDING, "record": RECORDING, "against": RECORDING,
             "kernel": ({"k.cu"}, {"a.jsonl", "notes.txt"}),
             "plot": ({"c.svg", "d.png"}, {"k.cu", "notes.txt"}),
             "preset": (set(presets) | {"p.ini"}, {"k.cu", "notes.txt"})}
LISTS = {"variant": variants, "variants": variants, "metrics": counters + ["default", "full"],
         "format": formats}

cases = []  # (what, words after redscope, the last one being completed, wanted, refused)
for c in commands:
    pre = [] if c == "explore" else [c]
    for o, (arg, ws) in takes[c].items():
        if not arg:
            continue
        want, refuse = FILE_ARGS.get(o, (set(LISTS.get(o, ws)), set()))
        if o == "against" and "VARIANT" in arg:  # with --stalls, a variant's view
            want = want | set(variants)
        if o == "format" and c == "ladder":
            want = {"table", "csv", "json"}  # its help adds what md and html give
        if want:  # --metrics=SET: the word after '=' is completed
            words = [f"--{o}="] if arg[0] == "[" else [f"--{o}", ""]
            cases.append((f"{c} {' '.join(words)}", pre + words, want, refuse))
    first = usages[c].split(" ", 1)[0]
    if first.endswith(".cu"):
        cases.append((f"{c} {first}", pre + [""], {"k.cu", "sub"}, {"a.jsonl"}))
    elif first and first[0] not in "-[":
        cases.append((f"{c} {first}", pre + [""], {"a.jsonl", "b.json", "sub"}, {"k.cu"}))
check(len(cases) >= 60, f"the arguments to complete: {len(cases)}")
cases += [("redscope ", [""], set(commands[1:]) | {"help"}, set()),
          ("help ", ["help", ""], set(commands[1:]), set()),
          ("-v vec", ["run", "-v", "vec"], {"vectorized"}, {"atomic"}),
          ("ladder --wi", ["ladder", "--wi"], {"--wide"}, set()),
          ("--variants atomic,seq", ["ladder", "--variants", "atomic,seq"],
           {"atomic,sequential"}, set()),
          ("--metrics=duration,dram_w", ["run", "--metrics=duration,dram_w"],
           {"duration,dram_write"}, set())]


def bash_words(words):
    """COMP_WORDS as bash splits a line: '=' is a word of its own."""
    out = []
    for w in words:
        out += [w] if "=" not in w else [w.split("=", 1)[0], "=", w.split("=", 1)[1]]
    return out


def bash_complete(batch):
    script = f"source '{os.path.join(SHARE, FILES['bash'])}'\n"
    for i, words in enumerate(batch):
        line = " ".join(f"'{w}'" for w in [EXE] + bash_words(words))
        script += (f"COMP_WORDS=({line}); COMP_CWORD=$((${{#COMP_WORDS[@]}}-1)); COMPREPLY=()\n"
                   f"_redscope; echo '@@{i}'; printf '%s\\n' \"${{COMPREPLY[@]}}\"\n")
    p = subprocess.run(["bash", "-c", script], capture_output=True, text=True, cwd=work)
    return split_batch(p.stdout, len(batch))


def fish_complete(batch):
    script = f"source '{os.path.join(SHARE, FILES['fish'])}'\n"
    for i, words in enumerate(batch):
        script += f"echo '@@{i}'; complete -C 'redscope {' '.join(words)}'\n"
    p = subprocess.run(["fish", "-c", script], capture_output=True, text=True, cwd=work, env=PATHED)
    got = split_batch(p.stdout, len(batch))
    # a word after --opt= comes back whole; each line is "word<TAB>help"
    return [{re.sub(r"^--?[\w-]+=", "", w.split("\t")[0]).rstrip("/") for w in g} for g in got]


ZSH = r"""zmodload zsh/zpty
dir=$1 out=$2; shift 2
zpty z 'zsh -f -i'
zpty -w z "PS1=''; fpath=($dir \$fpath); autoload -U compinit; compinit -u -D"
zpty -w z "compadd() { builtin compadd \"\$@\"; builtin compadd -O __h \"\$@\" 2>/dev/null
  print -rl -- \${^__h} >> \$_rs_out; }"
zpty -w z "_rs_t() { zle complete-word; print > \$_rs_out.done }; zle -N _rs_t; bindkey '^I' _rs_t"
zpty -w z "unsetopt auto_list list_beep"
i=0
for c in "$@"; do
  i=$((i+1))
  zpty -w z "_rs_out=$out/$i"
  zpty -w -n z "redscope $c"$'\t'
  for t in {1..200}; do  # what the terminal shows read, so that zsh never waits to write it
    while zpty -r -t z junk 2>/dev/null; do :; done
    [[ -e $out/$i.done ]] && break; sleep 0.05
  done
  zpty -w -n z $'\C-u'
done
zpty -d z
"""


def zsh_complete(batch):
    out = os.path.join(work, ".zsh")
    os.mkdir(out)
    subprocess.run(["zsh", "-f", "-c", ZSH, "zsh", os.path.dirname(os.path.join(
        SHARE, FILES["zsh"])), out] + [" ".join(words) for words in batch],
        capture_output=True, text=True, cwd=work, env=PATHED, timeout=120)
    got = []
    for i in range(1, len(batch) + 1):
        f = os.path.join(out, str(i))
        got.append({w.rstrip("/") for w in open(f).read().split()} if os.path.exists(f) else
                   None)
    shutil.rmtree(out)
    return got


def split_batch(out, n):
    got = [set() for _ in range(n)]
    i = None
    for line in out.splitlines():
        m = re.fullmatch(r"@@(\d+)", line)
        if m:
            i = int(m.group(1))
        elif i is not None and line:
            got[i].add(line)
    return got


PATHED = dict(os.environ, PATH=os.path.dirname(os.path.abspath(EXE)) + ":" + os.environ["PATH"])
shells = [("bash", bash_complete)]
if have_tool(check, "zsh"):
    shells.append(("zsh", zsh_complete))
if have_tool(check, "fish"):
    shells.append(("fish", fish_complete))
for shell, complete in shells:
    results = complete([words for _, words, _, _ in cases])
    for (what, _, want, refuse), got in zip(cases, results):
        # a list's item: bash and fish give the list so far with it, zsh the item
        got = {w.rstrip("/").split(",")[-1] for w in got or ()}
        want, refuse = ({w.split(",")[-1] for w in ws} for ws in (want, refuse))
        missing, wrong = sorted(want - got), sorted(refuse & got)
        check(not missing and not wrong,
              f"{shell}: {what}<TAB>: missing {missing[:8]}, wrongly offered {wrong}")
shutil.rmtree(work, ignore_errors=True)
check.finish()
