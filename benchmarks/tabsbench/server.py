"""What the server process is doing, from /proc: its threads and their context switches; and py-spy recording it."""

from __future__ import annotations

import collections
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from serverbench.process import Measured, Server


def threads(server: Measured) -> int:
    """The server's threads now (/proc/PID/status, ``Threads:``)."""
    for line in Path(f"/proc/{server.process.pid}/status").read_text().splitlines():
        if line.startswith("Threads:"):
            return int(line.split()[1])
    return 0


def context_switches(server: Measured) -> int:
    """Voluntary and involuntary context switches of all the server's threads so far (threads that ended are not
    counted: the difference over a window undercounts a little when threads come and go)."""
    total = 0
    for task in Path(f"/proc/{server.process.pid}/task").iterdir():
        try:
            lines = (task / "status").read_text().splitlines()
        except (FileNotFoundError, ProcessLookupError):
            continue  # a thread that ended meanwhile
        total += sum(int(line.split()[1]) for line in lines
                     if line.startswith(("voluntary_ctxt_switches:", "nonvoluntary_ctxt_switches:")))
    return total


class Window:
    """The server's CPU time and context switches at the start of a window, and their rates at its end."""

    def __init__(self, server: Measured) -> None:
        self.server = server
        self.cpu, self.switches = server.cpu_seconds(), context_switches(server)
        self.loop = server.cpu_seconds(loop_only=True)

    def end(self, seconds: float, tabs: int) -> dict[str, Any]:
        cpu = (self.server.cpu_seconds() - self.cpu) / seconds
        return {"server_cpu_share": round(cpu, 3), "cpu_share_per_tab": round(cpu / max(1, tabs), 5),
                "server_loop_cpu_share": round((self.server.cpu_seconds(loop_only=True) - self.loop) / seconds, 3),
                "context_switches_per_second": round((context_switches(self.server) - self.switches) / seconds),
                "threads": threads(self.server), "rss_mb": round(self.server.rss_bytes() / 2**20, 1)}


class PySpy:
    """``py-spy record`` of the server for ``seconds``, started now: raw collapsed stacks, with thread names, of the
    thread holding the GIL (as the issue's profile was taken)."""

    def __init__(self, server: Server, out: Path, seconds: float) -> None:
        beside = Path(sys.executable).parent / "py-spy"  # the virtualenv's (pip install py-spy), else the system's
        program = str(beside) if beside.exists() else shutil.which("py-spy") or "py-spy"
        self.out = out
        self.process = subprocess.Popen(
            [program, "record", "--pid", str(server.process.pid), "--duration", str(max(1, round(seconds))),
             "--format", "raw", "--threads", "--gil", "--nonblocking", "--output", str(out)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

    def finish(self) -> dict[str, Any]:
        _, err = self.process.communicate(timeout=120)
        if self.process.returncode != 0 or not self.out.exists():
            return {"py_spy_failed": err.strip()[-500:]}
        return top_frames(self.out.read_text())


def top_frames(collapsed: str, most: int = 12) -> dict[str, Any]:
    """From py-spy's collapsed stacks: the share of samples by thread (its name, so that the tabs' threads count
    together), by the file of the function running (asyncio's, aiohttp's, audiocrib's modules: where the time goes),
    and the functions with the most samples of their own (the stack's last frame)."""
    by_thread: collections.Counter[str] = collections.Counter()
    by_file: collections.Counter[str] = collections.Counter()
    own: collections.Counter[str] = collections.Counter()
    total = 0
    for line in collapsed.splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        samples = int(count)
        total += samples
        frames = stack.split(";")
        by_thread[frames[0].rpartition("): ")[2]] += samples
        last = frames[-1] if len(frames) > 1 else "(no Python frame)"
        own[last] += samples
        by_file[_file(last)] += samples
    if not total:
        return {"py_spy_samples": 0}

    def shares(counter: collections.Counter[str]) -> dict[str, float]:
        return {name: round(n / total, 3) for name, n in counter.most_common(most)}

    return {"py_spy_samples": total, "by_thread": shares(by_thread), "by_file": shares(by_file),
            "top_own": shares(own)}


def _file(frame: str) -> str:
    """``Link._run (audiocrib/client/link.py:153)`` as ``audiocrib/client/link.py``; ``select (selectors.py:468)``
    as ``selectors.py``."""
    if frame.startswith("("):
        return frame
    where = frame.rpartition(" (")[2].rstrip(")")
    return where.rpartition(":")[0] or where
