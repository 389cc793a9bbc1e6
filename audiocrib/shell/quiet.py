"""Keeping the libraries' own complaints off the player's terminal.

The sound and speech libraries are C code that writes to the process's standard error as it pleases: on a machine
without a sound card, ALSA prints some thirty lines ("ALSA lib confmisc.c:855:(parse_card) cannot find card '0'")
before the welcome, and a screen reader reading the terminal reads every one. `libraries_quiet` points the
standard error's file descriptor (2) at a log file for the run, so those lines, and those of the programs the
libraries start (``aplay``), go there; Python's own ``sys.stderr`` keeps writing to the terminal, so a real error
of audiocrib's is still seen. The player hears one sentence from the game instead ("No sound device could be
opened; the game goes on without sounds.").

Only `os.dup` and `os.dup2` are used, which work on Windows, macOS and Linux alike.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO

__all__ = ["libraries_quiet"]


@contextlib.contextmanager
def libraries_quiet(log: Path | None) -> Iterator[Path | None]:
    """For the ``with`` block, send what is written to file descriptor 2 to ``log`` (started afresh each run; to
    nowhere if it cannot be written, or ``log`` is None); yields where it goes (None: nowhere, or left alone)."""
    try:
        sys.stderr.flush()
        terminal = os.dup(2)
    except (OSError, ValueError, AttributeError):  # no standard error to begin with (a windowed start)
        yield None
        return
    target: IO[bytes] | None = None
    where: Path | None = None
    if log is not None:
        with contextlib.suppress(OSError):
            log.parent.mkdir(parents=True, exist_ok=True)
            target = open(log, "wb")
            where = log
    if target is None:
        target = open(os.devnull, "wb")
    python_stderr = sys.stderr
    try:
        os.dup2(target.fileno(), 2)
        # Python's messages still go to the terminal, through a copy of the old descriptor 2.
        sys.stderr = os.fdopen(os.dup(terminal), "w", buffering=1, encoding="utf-8", errors="backslashreplace")
        yield where
    finally:
        with contextlib.suppress(OSError, ValueError):
            sys.stderr.flush()
        if sys.stderr is not python_stderr:
            with contextlib.suppress(OSError, ValueError):
                sys.stderr.close()
        sys.stderr = python_stderr
        os.dup2(terminal, 2)
        os.close(terminal)
        target.close()
