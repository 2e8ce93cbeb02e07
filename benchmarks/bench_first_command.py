"""The README's first command, timed as a newcomer runs it (issue #49):

    python3 -m pip install . && darkcity serve

on a fresh ``git clone`` in a fresh virtual environment, to the first page answered. It
prints the time to a page, where it went (the clone and the venv, made before the
command, are timed apart: a newcomer has them already), and the longest time the
person saw no new readable line (pip runs under a pseudo-terminal, as in a terminal,
so what pip shows a person is what is read; a spinner or a bar redrawn is not a line).
Beside each wall time, the command's own CPU time (its processes', from ``/proc``): on a
quiet machine the wall time approaches it (plus the network's waits), whatever else ran
here meanwhile.

The phases of pip's own output:

- **resolve and fetch**: from the start to pip's "Building wheels for collected
  packages" (the build's isolated environment installed, darkcity's metadata, every
  dependency found and downloaded or taken from pip's cache);
- **build**: darkcity's wheel built (mypyc and the C compiler, where the install
  compiles);
- **install**: the wheels unpacked into the venv;
- **serve**: ``darkcity serve`` started to its first ``GET /`` answered 200.

    python3 benchmarks/bench_first_command.py                 # this checkout's branch
    python3 benchmarks/bench_first_command.py --ref main      # another branch or commit
    python3 benchmarks/bench_first_command.py --env DARKCITY_COMPILE=1 --no-cache

``--no-cache`` gives pip an empty cache (every dependency downloaded: the network's
speed counts then). The figure depends on the machine's load: the load average is
printed before and after.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import pty
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: what a person reads as a line: some letters (a spinner's or a bar's redraw is not)
_READABLE = re.compile(r"[A-Za-z]{3}")
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


@dataclass
class Run:
    """One command's output, line by line, with the time each line was complete (and
    the CPU seconds the command had used by then)."""

    start: float
    lines: list[tuple[float, str]] = field(default_factory=list)
    end: float = 0.0
    status: int = 0
    cpu: list[float] = field(default_factory=list)  # beside each line
    cpu_end: float = 0.0

    def first(self, pattern: str) -> float | None:
        for at, line in self.lines:
            if re.search(pattern, line):
                return at
        return None

    def cpu_at(self, at: float | None) -> float:
        """The CPU seconds used by the time ``at`` (a line's time)."""
        for (when, _line), cpu in zip(self.lines, self.cpu, strict=True):
            if when >= (at if at is not None else self.end):
                return cpu
        return self.cpu_end

    def silences(self) -> list[tuple[float, float, str]]:
        """(seconds without a readable line, the command's CPU seconds meanwhile, the
        line that ended the wait), longest first; the wait from the start and the wait
        to the end count too."""
        readable = [(at, cpu, text) for (at, text), cpu in zip(self.lines, self.cpu,
                                                               strict=True)
                    if _READABLE.search(text)]
        out, last, last_cpu = [], self.start, 0.0
        for at, cpu, text in [*readable, (self.end, self.cpu_end, "(end)")]:
            out.append((at - last, cpu - last_cpu, text))
            last, last_cpu = at, cpu
        return sorted(out, key=lambda g: -g[0])


_TICK = os.sysconf("SC_CLK_TCK")


def tree_cpu(root: int) -> float:
    """CPU seconds (user + system) of ``root`` and its live descendants, with the
    children each has waited for: what the command cost, whatever else the machine ran."""
    stats: dict[int, tuple[int, float]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # after the name: state ppid ... utime(14) stime(15) cutime(16) cstime(17)
        stats[int(entry)] = (int(fields[1]), sum(int(x) for x in fields[11:15]) / _TICK)
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        if pid in stats:
            total += stats[pid][1]
        todo.extend(p for p, (ppid, _c) in stats.items() if ppid == pid)
    return total


def _pty_run(argv: list[str], cwd: Path, env: dict[str, str], echo: bool,
             t0: float, until: float) -> Run:
    """``argv`` under a pseudo-terminal (pip draws for a person), every line timed."""
    pid, fd = pty.fork()
    if pid == 0:  # the child
        os.chdir(cwd)
        os.execvpe(argv[0], argv, env)
    run, buf, cpu = Run(start=t0), "", 0.0
    while True:
        ready, _w, _x = select.select([fd], [], [], 0.2)
        cpu = max(cpu, tree_cpu(pid))
        if ready:
            try:
                chunk = os.read(fd, 65536).decode("utf-8", "replace")
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            now = time.monotonic()
            if echo:
                sys.stdout.write(chunk)
                sys.stdout.flush()
            buf += chunk
            *done, buf = re.split(r"\r\n|\n|\r", buf)
            run.lines.extend((now, _ANSI.sub("", line)) for line in done)
            run.cpu.extend(cpu for _line in done)
        if time.monotonic() > until:
            os.kill(pid, signal.SIGKILL)
            break
    _pid, status, usage = os.wait4(pid, 0)
    run.end = time.monotonic()
    run.cpu_end = max(cpu, usage.ru_utime + usage.ru_stime)
    if buf.strip():
        run.lines.append((run.end, _ANSI.sub("", buf)))
        run.cpu.append(run.cpu_end)
    run.status = os.waitstatus_to_exitcode(status)
    return run


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _serve(venv: Path, clone: Path, env: dict[str, str], t0: float, echo: bool) -> Run:
    """``darkcity serve`` until its first page answers (its lines timed as it says them)."""
    port = _free_port()
    proc = subprocess.Popen([str(venv / "bin" / "darkcity"), "serve", "--port", str(port)],
                            cwd=clone, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, bufsize=1)
    run = Run(start=t0)

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            run.lines.append((time.monotonic(), line.rstrip("\n")))
            run.cpu.append(tree_cpu(proc.pid))
            if echo:
                sys.stdout.write(line)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        end = time.monotonic() + 120
        while time.monotonic() < end:
            if proc.poll() is not None:
                run.status = proc.returncode or -1
                break
            with contextlib.suppress(OSError), urllib.request.urlopen(
                    f"http://127.0.0.1:{port}/", timeout=2) as r:
                if r.status == 200:
                    run.cpu_end = tree_cpu(proc.pid)
                    run.lines.append((time.monotonic(), "(the page answered)"))
                    run.cpu.append(run.cpu_end)
                    break
            time.sleep(0.05)
        else:
            run.status = -1
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        reader.join(5)
    run.end = next((at for at, line in run.lines if line == "(the page answered)"),
                   time.monotonic())
    return run


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repo", default=str(ROOT), help="the repository to clone (this one)")
    ap.add_argument("--ref", default=None,
                    help="the branch or commit to clone (default: this checkout's HEAD)")
    ap.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                    help="an environment variable for the command (repeatable)")
    ap.add_argument("--no-cache", action="store_true",
                    help="pip with an empty cache: every dependency downloaded")
    ap.add_argument("--quiet", action="store_true", help="do not echo the command's output")
    ap.add_argument("--keep", action="store_true", help="keep the clone and the venv")
    args = ap.parse_args()
    ref = args.ref or subprocess.run(["git", "-C", args.repo, "rev-parse", "HEAD"],
                                     capture_output=True, text=True, check=True).stdout.strip()
    work = Path(tempfile.mkdtemp(prefix="darkcity-first-"))
    load0 = os.getloadavg()
    try:
        t = time.monotonic()
        clone = work / "darkcity"
        subprocess.run(["git", "clone", "--quiet", "--no-checkout", args.repo, str(clone)],
                       check=True)
        subprocess.run(["git", "-C", str(clone), "checkout", "--quiet", ref], check=True)
        t_clone = time.monotonic() - t
        t = time.monotonic()
        venv = work / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        t_venv = time.monotonic() - t
        env = {k: v for k, v in os.environ.items()
               if k not in ("PYTHONPATH", "VIRTUAL_ENV", "DARKCITY_COMPILE")}
        env.update(PATH=f"{venv / 'bin'}:{env.get('PATH', '')}", VIRTUAL_ENV=str(venv),
                   TERM=env.get("TERM", "xterm"), COLUMNS="100", LINES="40")
        if args.no_cache:
            env["PIP_CACHE_DIR"] = str(work / "pip-cache")
        for pair in args.env:
            name, _, value = pair.partition("=")
            env[name] = value
        head = subprocess.run(["git", "-C", str(clone), "log", "-1", "--format=%h %s"],
                              capture_output=True, text=True, check=True).stdout.strip()
        print(f"# {head}", flush=True)
        print(f"# clone {t_clone:.1f} s, venv {t_venv:.1f} s (before the command, not "
              "counted)", flush=True)
        t0 = time.monotonic()
        pip = _pty_run([str(venv / "bin" / "python"), "-m", "pip", "install", "."], clone,
                       env, not args.quiet, t0, t0 + 900)
        if pip.status != 0:
            print(f"pip failed with status {pip.status}")
            return 1
        serve = _serve(venv, clone, env, pip.end, not args.quiet)
        if serve.status != 0:
            print(f"darkcity serve did not answer (status {serve.status})")
            return 1
        compiled = subprocess.run(
            [str(venv / "bin" / "python"), "-c", "import darkcity; print(darkcity.compiled())"],
            capture_output=True, text=True, cwd=work, env=env, check=False).stdout.strip()
        load1 = os.getloadavg()
        building = pip.first(r"Building wheels? for collected") or pip.first(r"Building wheel")
        installing = pip.first(r"Installing collected packages")
        total = serve.end - t0
        cpu = pip.cpu_end + serve.cpu_end
        print()
        print(f"the first command, to a page: {total:.1f} s; its own CPU time {cpu:.1f} s "
              f"(engine compiled: {compiled}; load average {load0[0]:.1f} before, "
              f"{load1[0]:.1f} after; {os.cpu_count()} CPUs)")
        print("                               wall    CPU")
        rows = []
        if building is not None and installing is not None:
            rows += [("pip: resolve and fetch", t0, building, 0.0, pip.cpu_at(building)),
                     ("pip: build darkcity's wheel", building, installing,
                      pip.cpu_at(building), pip.cpu_at(installing)),
                     ("pip: install", installing, pip.end, pip.cpu_at(installing),
                      pip.cpu_end)]
        else:
            rows.append(("pip", t0, pip.end, 0.0, pip.cpu_end))
        rows.append(("darkcity serve to the page", pip.end, serve.end, 0.0, serve.cpu_end))
        for name, a, b, ca, cb in rows:
            print(f"  {name:27s} {b - a:6.1f} {cb - ca:6.1f} s")
        gaps = sorted([*pip.silences(), *serve.silences()], key=lambda g: -g[0])
        print("the longest waits without a readable line (wall and CPU seconds, and the line "
              "that ended each):")
        for gap, used, line in gaps[:4]:
            print(f"  {gap:6.1f} {used:6.1f}  {line.strip()[:90]}")
        return 0
    finally:
        if args.keep:
            print(f"kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
