"""How announcements reach the terminal: `LinePrinter`, one plain line each, printed so that a screen reader reads
each one once, in order.

Two things a screen reader needs from the way the lines are written, both heard with Orca reading mate-terminal
(docs/speech.md, "What was tested with a real screen reader"):

- **The screen is full from the start.** Before the first line, the printer scrolls the screen with as many
  empty lines as the terminal has rows, so every line after it arrives at the bottom, as in a terminal that has
  been in use a while. In a fresh terminal whose screen has not yet filled, Orca reads new text after an arrow, a
  function key or Escape only when it ends at the cursor, which a line and its break never do: it said "blank"
  for every item of the main menu. Once the screen has filled, each new line is read. (Writing the break first,
  "\\nline", keeps the cursor at the end of the text, but once the screen scrolls Orca then reads the line before
  it again with every new one.) NVDA and JAWS read new console text either way.
- **A burst is written at once, and writes come apart.** Everything said in one step of the program (a key's
  answer and the news it brings: a new deal is five or six lines) is written in one call, so the terminal reports
  it as one insertion; and a write comes at least `GAP` seconds after the one before (lines said meanwhile, such as
  a computer player's move right after yours, wait and go together). Orca reads each insertion together with the
  text after it up to the cursor, at the moment it gets to it: written line by line, or a few milliseconds apart,
  lines came out twice, cut ("rts again at zero."), or not at all while the screen scrolled.
- **A write fits on the screen.** Orca reads what a write changed on the screen, so lines a write scrolls off
  before it is read are never heard: a replay's Enter, which tells a whole deal (twenty lines, some of two rows),
  lost its first line. A burst taller than the screen is written a screenful at a time, `GAP` apart.

>>> import io
>>> screen = io.StringIO()
>>> printer = LinePrinter(screen)
>>> printer.print("Deal two: Bob deals.")
>>> printer.print("Your hand: ...")
>>> screen.getvalue()
'Deal two: Bob deals.\\nYour hand: ...\\n'
"""

from __future__ import annotations

import asyncio
import math
import shutil
import time
from typing import TextIO

__all__ = ["LinePrinter"]

_FILL_PAUSE = 0.1
"""Seconds between filling the screen and the first lines."""
GAP = 0.2
"""The least time in seconds between two writes in an event loop."""


def _fitting(lines: list[str], columns: int, rows: int) -> int:
    """How many of ``lines``, from the first, fit in ``rows`` rows ``columns`` wide (at least one).

    >>> _fitting(["a" * 100, "b", "c"], 80, 3), _fitting(["a" * 100, "b", "c"], 80, 4), _fitting(["a" * 500], 80, 3)
    (2, 3, 1)
    """
    used = 0
    for taken, line in enumerate(lines):
        used += max(1, math.ceil(len(line) / max(columns, 1)))
        if used > rows and taken:
            return taken
    return len(lines)


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def _is_terminal(screen: TextIO) -> bool:
    try:
        return screen.isatty()
    except (OSError, ValueError, AttributeError):
        return False


class LinePrinter:
    """Writes lines to ``screen``; inside a running event loop the lines of one step are held and written together
    when the step ends (`flush`), at least `GAP` apart. On a terminal, the first write first fills the screen with
    empty lines."""

    def __init__(self, screen: TextIO) -> None:
        self.screen = screen
        self._held: list[str] = []
        self._written = -GAP
        """When (``time.monotonic``) the last write was made."""
        self._fill = _is_terminal(screen)
        """Whether the screen is still to be filled before the first line."""

    def print(self, text: str) -> None:
        """Print ``text`` as a line: at once outside an event loop; in one, with the rest of this step's lines, and
        no sooner than `GAP` after the last write."""
        loop = _running_loop()
        self._held.append(text)
        if loop is None:
            self.flush()
        elif len(self._held) == 1:
            loop.call_later(max(0.0, self._written + GAP - time.monotonic()), self.flush)

    def flush(self, whole: bool = False) -> None:
        """Write the lines held, in one call, as many as fit on the screen (the rest `GAP` later; at once outside
        an event loop, or when ``whole``, as at the end). A closed terminal is let be: the speech must go on."""
        if not self._held:
            return
        size = shutil.get_terminal_size()
        if self._fill:
            self._fill = False
            self._write("\n" * size.lines)
            # Apart from the first lines, or the terminal reports them with the empty lines as one insertion,
            # which Orca reads as nothing.
            time.sleep(_FILL_PAUSE)
        loop = None if whole else _running_loop()
        while self._held:
            fitting = _fitting(self._held, size.columns, size.lines - 1)
            text = "".join(line + "\n" for line in self._held[:fitting])
            del self._held[:fitting]
            self._write(text)
            self._written = time.monotonic()
            if self._held and loop is not None:
                loop.call_later(GAP, self.flush)
                return

    def _write(self, text: str) -> None:
        try:
            self.screen.write(text)
            self.screen.flush()
        except (OSError, ValueError):
            pass
