"""How quickly the shell answers: a key press to the speech call, and the program's start to its first words.

Run from the repository root::

    .venv/bin/python benchmarks/bench_shell.py            # both, about half a minute
    .venv/bin/python benchmarks/bench_shell.py --json figures.json

Key press to speech call: the real prompt_toolkit application reads keys from a pipe (as from a terminal), with
a speaker that notes ``time.perf_counter`` when it is called. Each sample writes one key's bytes into the pipe and
measures until the session's answer reaches the speaker; the keys are the question keys and the hand walk
(``c b f v s t h n l``, left and right) in the play, where the answers do the most work, 50 rounds of each. The
median and 95th percentile are reported (goal: median under 20 ms). Then the same through the real speech chain
(``open_speaker("screenreader")``, the guarded accessible_output2 client) to a private Speech Dispatcher daemon,
timed until the answer is written in the daemon's record: ``s`` 50 times.

Start to the first spoken menu: the installed ``audiocrib`` started in a pseudo-terminal, timed from just before
the process is spawned until the main menu's words arrive: for ``--speech none`` on the terminal, and for
``--speech screenreader`` and ``--speech auto`` in the recording file of a private Speech Dispatcher daemon
(`tests.speechd`, when Speech Dispatcher is installed). Ten starts each; median and worst (goal: under 1 s).

This is not a test: nothing here fails because something is slow.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import platform
import pty
import select
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from audiocrib.shell.announcer import Announcer
from audiocrib.shell.app import run_session
from audiocrib.shell.session import Session
from audiocrib.shell.settings import Settings
from audiocrib.shell.tablesetup import TableSetup

PROGRAM = Path(sys.executable).parent / "audiocrib"
KEYS = {"c": "c", "b": "b", "f": "f", "v": "v", "s": "s", "t": "t", "h": "h", "n": "n", "l": "l",
        "left": "\x1b[D", "right": "\x1b[C"}


class StampingSpeaker:
    """Notes when it was last asked to speak."""

    name = "stamping"

    def __init__(self) -> None:
        self.calls = 0
        self.at = 0.0

    def speak(self, text: str, interrupt: bool = False) -> None:
        self.calls += 1
        self.at = time.perf_counter()

    def silence(self) -> None:
        pass

    def close(self) -> None:
        pass


def key_to_speech(rounds: int) -> dict[str, float]:
    """Milliseconds from writing a key into the application's input to the speech call, in the play."""
    speaker = StampingSpeaker()
    session = Session(Announcer(speaker, io.StringIO()), settings=Settings(pace=0.0, typed_ahead=0.0),
                      setup=TableSetup(levels=("beginner",)), seed=3)
    samples: list[float] = []

    async def wait_for(calls: int) -> None:
        while speaker.calls < calls:
            await asyncio.sleep(0)

    async def main() -> None:
        with create_pipe_input() as pipe:
            task = asyncio.ensure_future(run_session(session, input=pipe, output=DummyOutput()))
            await wait_for(1)
            pipe.send_text("\r")  # New game
            while session.moment != "discard":
                await asyncio.sleep(0.001)
            pipe.send_text("1")
            pipe.send_text("2")
            pipe.send_text("\r")
            while session.moment != "play":
                await asyncio.sleep(0.001)
            await asyncio.sleep(0.05)
            for _ in range(rounds):
                for data in KEYS.values():
                    calls = speaker.calls
                    start = time.perf_counter()
                    pipe.send_text(data)
                    await wait_for(calls + 1)
                    samples.append((speaker.at - start) * 1000)
            session.finished = True
            await task

    asyncio.run(main())
    samples.sort()
    return {"samples": len(samples), "median_ms": statistics.median(samples),
            "p95_ms": samples[int(len(samples) * 0.95)], "worst_ms": samples[-1]}


def key_to_daemon(rounds: int, spoken: Path) -> dict[str, float]:
    """Milliseconds from writing ``s`` into the application's input to its answer in the daemon's record."""
    from audiocrib.speech import open_speaker

    speaker = open_speaker("screenreader")
    session = Session(Announcer(speaker, io.StringIO()), settings=Settings(pace=0.0, typed_ahead=0.0),
                      setup=TableSetup(levels=("beginner",)), seed=3)
    samples: list[float] = []

    def lines() -> int:
        return spoken.read_bytes().count(b"\n") if spoken.exists() else 0

    async def main() -> None:
        with create_pipe_input() as pipe:
            task = asyncio.ensure_future(run_session(session, input=pipe, output=DummyOutput()))
            while lines() < 1:
                await asyncio.sleep(0.001)
            await asyncio.sleep(0.2)
            for _ in range(rounds):
                before = lines()
                start = time.perf_counter()
                pipe.send_text("s")
                while lines() == before:
                    await asyncio.sleep(0.0005)
                samples.append((time.perf_counter() - start) * 1000)
                await asyncio.sleep(0.02)
            session.finished = True
            await task

    asyncio.run(main())
    samples.sort()
    return {"samples": len(samples), "median_ms": statistics.median(samples),
            "p95_ms": samples[int(len(samples) * 0.95)], "worst_ms": samples[-1]}


def start_to_menu(speech: str, env: dict[str, str], spoken: Path | None, starts: int) -> dict[str, float]:
    """Seconds from spawning ``audiocrib`` in a pseudo-terminal to its first words (screen or speech file)."""
    times: list[float] = []
    for _ in range(starts):
        main, child = pty.openpty()
        begin = time.perf_counter()
        process = subprocess.Popen([str(PROGRAM), "--speech", speech, "--data-dir", "/nonexistent/bench"],
                                   stdin=child, stdout=child, stderr=child, env=env, close_fds=True)
        os.close(child)
        seen = b""
        arrived = None
        while arrived is None and time.perf_counter() - begin < 20:
            if spoken is not None:
                if spoken.exists() and b"Main menu" in spoken.read_bytes():
                    arrived = time.perf_counter()
                else:
                    time.sleep(0.001)
                continue
            ready, _, _ = select.select([main], [], [], 0.01)
            if ready:
                seen += os.read(main, 4096)
                if b"Main menu" in seen:
                    arrived = time.perf_counter()
        if arrived is None:
            raise RuntimeError(f"no menu within 20 s ({seen[-200:]!r})")
        times.append(arrived - begin)
        os.write(main, b"\x03")
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()
        os.close(main)
        if spoken is not None:
            spoken.write_bytes(b"")
    return {"starts": starts, "median_s": statistics.median(times), "worst_s": max(times)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--starts", type=int, default=10)
    parser.add_argument("--json", help="write the figures to this file")
    args = parser.parse_args()
    figures: dict[str, Any] = {"machine": f"{platform.machine()}, {os.cpu_count()} cores, Python "
                                          f"{platform.python_version()}"}
    figures["key_to_speech"] = key_to_speech(args.rounds)
    print("key press to speech call:", json.dumps(figures["key_to_speech"]))
    env = {**os.environ, "TERM": "xterm-256color"}
    figures["start_text"] = start_to_menu("none", env, None, args.starts)
    print("start to the first menu, --speech none:", json.dumps(figures["start_text"]))
    from tests.speechd import SpeechDispatcher, available

    if available():
        with SpeechDispatcher() as daemon:
            os.environ.update(daemon.env())
            figures["key_to_daemon"] = key_to_daemon(args.rounds, daemon.spoken_file)
            print("key press to the words in Speech Dispatcher's record:", json.dumps(figures["key_to_daemon"]))
            daemon.spoken_file.write_bytes(b"")
            figures["start_screenreader"] = start_to_menu(
                "screenreader", {**env, **daemon.env()}, daemon.spoken_file, args.starts)
            print("start to the first menu spoken by Speech Dispatcher (--speech screenreader):",
                  json.dumps(figures["start_screenreader"]))
            figures["start_auto"] = start_to_menu("auto", {**env, **daemon.env()}, daemon.spoken_file, args.starts)
            print("start to the first menu spoken by Speech Dispatcher (--speech auto):",
                  json.dumps(figures["start_auto"]))
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
