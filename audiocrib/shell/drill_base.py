"""The state every kind of drill shares (`DrillBase`): the choices of the practice menu, the drill in hand, the
cursor and marks, and the figures, this session's and all-time, with the reading and writing of ``practice.json``.

The kinds of drill (`count_drills`, `discard_drills`, `play_drills`) add their keys' methods to it, and
`audiocrib.shell.drills.Drills` is all of them together.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from pathlib import Path

from audiocrib.coach import Coach
from audiocrib.engine.cards import Card
from audiocrib.progress.play_choice import PlayChoiceDrill, PlayChoiceResult
from audiocrib.progress.practice import CountDrill, DiscardDrill, DiscardResult, PlayDrill, PracticeRecord
from audiocrib.shell import files
from audiocrib.shell.countclock import CountClock
from audiocrib.shell.lock import updating
from audiocrib.shell.typing import TypedCount

__all__ = ["PRACTICE_VERSION", "AnyDrill", "DrillBase"]

PRACTICE_VERSION = 1
"""The version of ``practice.json``."""

AnyDrill = CountDrill | PlayDrill | DiscardDrill | PlayChoiceDrill
"""A drill of any kind: a count (hand, crib or card in the play), a lay-away, or a card to lay."""


class DrillBase:
    """The practice state: choices, the drill in hand, the figures (this session's and all-time)."""

    def __init__(self, say: Callable[[str], None], clock: Callable[[], float], record_path: Path | None,
                 seed: int | None = None, say_pages: Callable[[str, list[str]], None] | None = None) -> None:
        self.say = say

        def say_all(intro: str, pages: list[str]) -> None:
            for line in (intro, *pages):
                say(line)

        self.say_pages = say_pages if say_pages is not None else say_all
        """Says a long answer a page at a time (the history keys step through the rest)."""
        self.clock = clock
        self.record_path = record_path
        self.rng = random.Random(seed)
        self.coach = Coach()
        """The coach that judges the play drills (reseeded from each position, so a position is judged alike)."""
        self.count_kind = 0
        self.timer: int | None = None
        self.deal_size = 6
        self.session = PracticeRecord()
        self.all_time: PracticeRecord | None = None
        self.kept = PracticeRecord()
        """The all-time figures as last read from or written to the file: what is new is added to the file's."""
        self.unsaved = False
        """True once the player has heard the figures cannot be saved."""
        self.moment = ""
        self.drill: AnyDrill | None = None
        self.typed = TypedCount()
        self.started = 0.0
        self.timing = CountClock(clock)
        self.marked: list[Card] = []
        self.cursor = 0
        self.last_discard: DiscardResult | None = None
        self.last_play: PlayChoiceResult | None = None
        self.finished = False
        """Set when the player leaves a drill: the session goes back to the practice menu."""

    # ------------------------------------------------------------ the record
    def load(self) -> str | None:
        """Read the all-time figures (once); a damaged file is set aside, the figures start afresh, and the
        sentence saying so is returned."""
        if self.all_time is not None:
            return None
        self.all_time, self.kept = PracticeRecord(), PracticeRecord()
        if self.record_path is None:
            return None
        loaded = self._read(self.record_path)
        if loaded.value is not None:
            self.all_time, self.kept = loaded.value, copy.deepcopy(loaded.value)
        return loaded.notice

    def _read(self, path: Path) -> files.Loaded[PracticeRecord]:
        return files.load(path, "practice figures", PRACTICE_VERSION, PracticeRecord.from_json, "they start afresh")

    def save(self) -> None:
        """Add this session's new figures to the file: read it again, add them, write it (write, then rename, so a
        crash never leaves half a file), all under the folder's lock, so figures another copy of audiocrib added
        meanwhile are kept too."""
        path = self.record_path
        if path is None or self.all_time is None:
            return
        news = self.all_time.since(self.kept)
        try:
            with updating(path.parent):
                loaded = self._read(path)
                if loaded.notice:
                    self.say(loaded.notice)
                merged = (loaded.value or PracticeRecord()).plus(news)
                files.save(path, {"version": PRACTICE_VERSION, **merged.to_json()}, readable=True)
            self.all_time, self.kept = merged, copy.deepcopy(merged)
            self.unsaved = False
        except OSError as error:
            if not self.unsaved:
                self.unsaved = True
                self.say(f"Your practice figures cannot be saved ({files.reason(error)}).")

    def _record_all_time(self) -> PracticeRecord:
        """The all-time figures, read first if they were not yet."""
        notice = self.load()
        if notice:
            self.say(notice)
        assert self.all_time is not None
        return self.all_time
