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
import shutil
import time
from typing import TextIO

__all__ = ["LinePrinter"]

_FILL_PAUSE = 0.1
"""Seconds between filling the screen and the first lines."""
GAP = 0.2
"""The least time in seconds between two writes in an event loop."""


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
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        self._held.append(text)
        if loop is None:
            self.flush()
        elif len(self._held) == 1:
            loop.call_later(max(0.0, self._written + GAP - time.monotonic()), self.flush)

    def flush(self) -> None:
        """Write the lines held, in one call. A closed terminal is let be: the speech must go on."""
        if not self._held:
            return
        text = "".join(line + "\n" for line in self._held)
        self._held.clear()
        if self._fill:
            self._fill = False
            self._write("\n" * shutil.get_terminal_size().lines)
            # Apart from the first lines, or the terminal reports them with the empty lines as one insertion,
            # which Orca reads as nothing.
            time.sleep(_FILL_PAUSE)
        self._write(text)
        self._written = time.monotonic()

    def _write(self, text: str) -> None:
        try:
            self.screen.write(text)
            self.screen.flush()
        except (OSError, ValueError):
            pass
