"""The terminal's lines as the printer writes them, on a real event loop: a step's lines in one write, writes at
least `GAP` apart, and a burst taller than the screen a screenful at a time (Orca reads what a write changed on
the screen, so a line a write scrolls off before it is read is never heard)."""

from __future__ import annotations

import asyncio
import itertools
import os
import shutil
import time

import pytest

from audiocrib.shell.printing import GAP, LinePrinter


class Screen:
    """A screen that keeps each write, with when it came."""

    def __init__(self) -> None:
        self.writes: list[tuple[float, str]] = []

    def write(self, text: str) -> int:
        self.writes.append((time.monotonic(), text))
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


def printed(lines: list[str], rows: int, columns: int = 80) -> list[tuple[float, str]]:
    """The writes made for ``lines`` said in one step, on a screen of ``rows`` rows."""
    screen = Screen()

    async def step() -> None:
        printer = LinePrinter(screen)  # type: ignore[arg-type]
        for line in lines:
            printer.print(line)
        await asyncio.sleep(GAP * 4)  # time for three writes

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(shutil, "get_terminal_size", lambda fallback=(80, 24): os.terminal_size((columns, rows)))
        asyncio.run(step())
    return screen.writes


def test_a_steps_lines_that_fit_are_one_write() -> None:
    lines = [f"Line {n}." for n in range(5)]
    assert [text for _, text in printed(lines, rows=24)] == ["".join(line + "\n" for line in lines)]


def test_a_burst_taller_than_the_screen_is_written_a_screenful_at_a_time_gap_apart() -> None:
    lines = [f"Line {n}." for n in range(3)] + ["x" * 150] + [f"Line {n}." for n in range(3, 12)]
    writes = printed(lines, rows=6)  # five rows a write: the long line takes two
    assert [text.splitlines() for _, text in writes] == [lines[:4], lines[4:9], lines[9:]]
    assert all(later - earlier >= GAP * 0.9 for (earlier, _), (later, _) in itertools.pairwise(writes)), writes
