"""The progress figures in their file, ``progress.json`` beside the statistics: what each deal's lay-away and
play cost against the expert, by day, and the last match's review (`audiocrib.progress.improving.Progress`).

Kept as the practice figures are: read afresh when they are said (another copy of audiocrib may have added to
them), and written by reading the file again, adding this run's news and writing it whole (write, then rename)
under the data folder's lock. A damaged file is set aside with one sentence and the figures start afresh; news
that cannot be written stays in memory, is said once, and is tried again with the next deal.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path

from audiocrib.progress.improving import KINDS, DealCost, Progress
from audiocrib.shell import files
from audiocrib.shell.lock import updating
from audiocrib.telling.reviewing import progress_words

__all__ = ["PROGRESS_FILE", "PROGRESS_VERSION", "ProgressBook"]

PROGRESS_FILE = "progress.json"
PROGRESS_VERSION = 1
"""The version of ``progress.json``."""


class ProgressBook:
    """The progress figures as this run knows them (the file's and this run's news), and their file (None: kept
    only while audiocrib runs). ``today`` gives the date each deal is kept under; a test sets it."""

    def __init__(self, say: Callable[[str], None], path: Path | None,
                 today: Callable[[], date] = date.today) -> None:
        self.say = say
        self.path = path
        self.today = today
        self.progress = Progress()
        """The file's figures as last read or written, with this run's news."""
        self.news = Progress()
        """This run's deals (and match review) not yet written to the file."""
        self.loaded = False
        self.unsaved = False
        """True once the player has heard the figures cannot be saved."""

    def _read(self, path: Path) -> files.Loaded[Progress]:
        return files.load(path, "progress figures", PROGRESS_VERSION, Progress.from_json, "they start afresh")

    def load(self) -> str | None:
        """Read the file afresh (keeping this run's news not yet written); the sentence if it was damaged."""
        self.loaded = True
        if self.path is None:
            return None
        loaded = self._read(self.path)
        self.progress = (loaded.value or Progress()).plus(self.news)
        return loaded.notice

    def add(self, cost: DealCost | None = None, last_match: tuple[str, ...] = ()) -> None:
        """Keep one deal's cost, or the last match's review, and write them."""
        if not self.loaded:
            notice = self.load()
            if notice:
                self.say(notice)
        news = Progress(last_match=last_match)
        if cost is not None:
            news.add(cost)
        self.news = self.news.plus(news)
        self.progress = self.progress.plus(news)
        self._save()

    def _save(self) -> None:
        path = self.path
        if path is None:
            return
        try:
            with updating(path.parent):
                loaded = self._read(path)
                if loaded.notice:
                    self.say(loaded.notice)
                merged = (loaded.value or Progress()).plus(self.news).recent(self.today())
                files.save(path, {"version": PROGRESS_VERSION, **merged.to_json()}, readable=True)
        except OSError as error:
            if not self.unsaved:
                self.unsaved = True
                self.say(f"Your progress figures cannot be saved ({files.reason(error)}); they are kept until "
                         "audiocrib closes, and saved with the next deal if they can be.")
            return
        self.progress, self.news, self.unsaved = merged, Progress(), False

    def words(self) -> list[str]:
        """The figures said week by week, read afresh (a damaged file's sentence first); nothing before the first
        deal is weighed (the statistics say there is nothing yet)."""
        notice = self.load()
        if not self.progress.days:
            return [notice] if notice else []
        today = self.today()
        figures = [(kind, [(f.period, f.deals, f.average) for f in self.progress.figures(kind, today)])
                   for kind in KINDS]
        return ([notice] if notice else []) + progress_words(figures)
