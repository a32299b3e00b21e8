"""Drive redscope in a real terminal (tmux) and read its screen."""
import os
import shutil
import subprocess
import tempfile
import time


UTF8 = {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color"}


class Tmux:
    def __init__(self, command, cols=100, rows=30, env=None):
        if not shutil.which("tmux"):
            raise RuntimeError("tmux is not installed")
        self.dir = tempfile.mkdtemp(prefix="rs_tui_")
        self.sock = os.path.join(self.dir, "sock")
        self.name = "rs"
        exports = " ".join(f"{k}={v}" for k, v in (env or {}).items())
        script = (f"stty -g > {self.dir}/before; {exports} {command}; "
                  f"echo $? > {self.dir}/exit; stty -g > {self.dir}/after; sleep 600")
        self.tmux("new-session", "-d", "-s", self.name, "-x", str(cols), "-y", str(rows),
                  "sh", "-c", script)

    def tmux(self, *args):
        return subprocess.run(["tmux", "-S", self.sock, *args], capture_output=True, text=True,
                              timeout=30).stdout

    def screen(self, escapes=False):
        return self.tmux("capture-pane", "-p", *(["-e"] if escapes else []), "-t", self.name)

    def keys(self, *keys):
        for k in keys:
            self.tmux("send-keys", "-t", self.name, k)
            time.sleep(0.15)

    def exited(self):
        return os.path.exists(os.path.join(self.dir, "exit"))

    def wait_for(self, text, timeout=20.0):
        end = time.time() + timeout
        while time.time() < end:
            s = self.screen()
            if text in s:
                return s
            if self.exited():
                return None
            time.sleep(0.1)
        return None

    def wait_quiet(self, text, timeout=10.0):
        """The screen once it shows text and has stopped changing (a slow
        build, under ASan, is caught mid-frame by wait_for)."""
        s = self.wait_for(text, timeout)
        for _ in range(20):
            time.sleep(0.15)
            again = self.screen()
            if again == s:
                break
            s = again
        return s if s and text in s else None

    def resize(self, cols, rows):
        self.tmux("resize-window", "-t", self.name, "-x", str(cols), "-y", str(rows))
        time.sleep(0.4)

    def pid(self):
        """redscope's pid: the child of the pane's shell (not its GPU process)."""
        shell = self.tmux("display-message", "-p", "-t", self.name, "#{pane_pid}").strip()
        out = subprocess.run(["pgrep", "-P", shell, "-x", "redscope"], capture_output=True,
                             text=True).stdout if shell else ""
        pids = [int(p) for p in out.split()]
        return min(pids) if pids else None

    def exit_code(self, timeout=10.0):
        end = time.time() + timeout
        path = os.path.join(self.dir, "exit")
        while time.time() < end:
            if os.path.exists(path) and os.path.exists(os.path.join(self.dir, "after")):
                return int(open(path).read().strip() or -1)
            time.sleep(0.1)
        return None

    def terminal_restored(self):
        b, a = (open(os.path.join(self.dir, f)).read() for f in ("before", "after"))
        return a == b

    def close(self):
        self.tmux("kill-server")
        shutil.rmtree(self.dir, ignore_errors=True)


def status_line(s):
    """The explorer's status line: the screen's last line but one."""
    return s.splitlines()[-2] if s else ""


def run_row(t, down, until, timeout=120.0):
    """Move the ladder's cursor `down` rows, run that variant (Enter), and
    return the screen once `until` shows (or as it is at the timeout)."""
    for _ in range(down):
        t.keys("j")
    t.keys("Enter")
    return t.wait_for(until, timeout) or t.screen()


def replay_demo(cols=80, rows=24, env=UTF8):
    """The explorer replaying the shipped H200 recording, once it shows a result."""
    rec = os.path.join(os.environ["REDSCOPE_SOURCE"], "conf", "recordings", "h200-demo.jsonl")
    t = Tmux(f"{os.environ['REDSCOPE']} --replay {rec}", cols=cols, rows=rows, env=env)
    t.wait_for("REPLAY")
    t.wait_for("reps")
    return t
