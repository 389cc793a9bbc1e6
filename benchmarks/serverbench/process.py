"""The server under measure: a real ``audiocrib serve`` process, its CPU time and memory from /proc."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PROGRAM = Path(sys.executable).parent / "audiocrib"
WATCH_GC = '''
import gc, sys, time
from audiocrib.cli import main
began = [0.0]
def watch(phase, info):
    if phase == "start":
        began[0] = time.perf_counter()
    elif time.perf_counter() - began[0] >= 0.01:
        print(f"gc {info['generation']} {time.perf_counter() - began[0]:.4f} {info['collected']}", file=sys.stderr,
              flush=True)
gc.callbacks.append(watch)
if sys.argv[1] == "--threshold":  # the collector's thresholds to try, before anything is made
    gc.set_threshold(*map(int, sys.argv[2].split(",")))
    del sys.argv[1:3]
sys.exit(main(sys.argv[1:]))
'''
"""The same server program with each garbage collection of 10 ms or more written to its stderr (``--gc``), and
the collector's thresholds set first when asked (``--gc-threshold``)."""


class Measured:
    """A process under measure (``process``), read from /proc."""

    process: subprocess.Popen[str]

    def cpu_seconds(self, loop_only: bool = False) -> float:
        """User and system time the process has used so far (``loop_only``: its main thread's, which runs the
        event loop, without its fsync, checkpoint and computer players' threads)."""
        where = f"/proc/{self.process.pid}/task/{self.process.pid}/stat" if loop_only else \
            f"/proc/{self.process.pid}/stat"
        fields = Path(where).read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_bytes(self) -> int:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        return 0


class Server(Measured):
    """A running ``audiocrib serve`` on a free loopback port (optionally under cProfile; ``options``: more of
    ``serve``'s options, as benchmarks/bench_tabs.py's ``--most-tabs``)."""

    def __init__(self, folder: Path, profile: Path | None = None, watch_gc: bool = False,
                 threshold: str | None = None, options: tuple[str, ...] = ()) -> None:
        command = [str(PROGRAM), "serve", "--port", "0", "--data-dir", str(folder), *options]
        if profile is not None:
            command = [sys.executable, "-m", "cProfile", "-o", str(profile), *command]
        elif watch_gc or threshold:
            command = [sys.executable, "-c", WATCH_GC, *(["--threshold", threshold] if threshold else []),
                       *command[1:]]
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        first = self.process.stdout.readline()
        if not first.startswith("audiocrib server listening on 127.0.0.1, port "):
            said = self.process.stderr.read() if self.process.stderr else ""
            raise SystemExit(f"The server did not start: {first!r} {said}")
        self.port = int(first.rsplit(" ", 1)[1].rstrip(".\n"))
        while not self.process.stdout.readline().startswith("Stop the server"):
            pass
        print(f"server started: process {self.process.pid}, port {self.port}", file=sys.stderr, flush=True)

    def stop(self) -> str:
        self.process.terminate()
        _, err = self.process.communicate(timeout=120)
        return err

