"""The past matches on this computer: each match finished here is kept in a file of its own in the data folder's
``past-matches`` folder (the newest `KEEP`), and the list of them, newest first, from which any is heard again.

A file is written as the game in progress is (`files.save`: a new file flushed and renamed into place, never
through a link) and read back as hostile: its size, its JSON, and the game itself, which the engine plays again
from its seed and checks against its log (`Game.from_json`). A damaged file is set aside with one sentence and
left out of the list.

>>> import tempfile
>>> from audiocrib.engine.game import Game
>>> from audiocrib.bots.player import drive, load_player
>>> game = Game(names=("You", "Bob"), seed=5)
>>> _ = drive(game, [load_player("easy", seed=1), load_player("easy", seed=2)])
>>> folder = PastMatchFolder(Path(tempfile.mkdtemp()) / "past-matches")
>>> name = folder.keep(game, ("", "easy"), 1795795200.0, "a table").name
>>> folder.names() == [name], folder.holds("a table")
(True, True)
>>> match = folder.load(name).value
>>> match.result.side, match.levels, match.events == game.events
(0, ('', 'easy'), True)
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from audiocrib.engine.errors import AudiocribError
from audiocrib.engine.game import Game, Phase
from audiocrib.engine.pastmatch import PastMatch
from audiocrib.engine.text import own_word, printable
from audiocrib.shell import files
from audiocrib.shell.core import SessionCore
from audiocrib.shell.keys import MAIN_ITEMS, Mode
from audiocrib.shell.offline import OfflineTable
from audiocrib.shell.savedgame import NAME_LIMIT, SEAT, SavedTable
from audiocrib.shell.tablesetup import LEVEL_NAMES
from audiocrib.telling.replaying import listed, match_line

__all__ = ["FOLDER", "KEEP", "PAST_VERSION", "PastMatchFolder", "PastMatchList"]

FOLDER = "past-matches"
"""The folder of past matches, in the data folder."""
PAST_VERSION = 1
"""The version of a past match's file."""
KEEP = 300
"""The past matches kept: the newest, the older ones deleted as new ones come."""
PLACE = "on this computer"
_EARLIEST, _LATEST = 2 * 86400, 32503680000
"""The times a match may have ended: from 3 January 1970 to the year 3000, which every system's local time can
say (Windows' cannot go before 1970 nor past 3000)."""
_NAME = re.compile(r"[0-9]{8}-[0-9]{6}-[0-9a-f]{16}\.json")
"""A past match's file name: when it ended (UTC, so that the names sort by time) and its table's mark."""


def _mark(table: str) -> str:
    """A table's name as a file name may hold it (a name from a save is any printable text)."""
    return hashlib.sha256(table.encode("utf-8", "replace")).hexdigest()[:16]


class PastMatchFolder:
    """The folder of past matches: the names of its files, newest first, each kept and read back."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def names(self) -> list[str]:
        """The past matches' file names, newest first (none when the folder is not there or cannot be read)."""
        try:
            found = [entry.name for entry in os.scandir(self.folder) if _NAME.fullmatch(entry.name)]
        except OSError:
            return []
        return sorted(found, reverse=True)

    def holds(self, table: str) -> bool:
        """True if a match of the table named ``table`` is kept already (a finished game resumed again)."""
        return any(name.endswith(f"-{_mark(table)}.json") for name in self.names())

    def keep(self, game: Game, levels: tuple[str, ...], ended: float, table: str) -> Path:
        """Write the finished match ``game`` (the computer players' ``levels`` by seat, "" for the player),
        ended at ``ended`` (seconds since the epoch), and delete the oldest beyond `KEEP`; the file's path. Raises
        OSError when it cannot be written."""
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(ended))
        path = self.folder / f"{stamp}-{_mark(table)}.json"
        head = {"version": PAST_VERSION, "ended": ended, "seat": SEAT, "levels": list(levels)}
        files.save(path, files_text(head, game))
        for old in self.names()[KEEP:]:
            try:
                files.remove(self.folder / old)
            except OSError:  # an old one that cannot go is left; the newest are what matter
                pass
        return path

    def load(self, name: str) -> files.Loaded[PastMatch]:
        """The past match in the file ``name``, or the one sentence saying why it is set aside."""
        return files.load(self.folder / name, "past match", PAST_VERSION, read_match, "it is left out of the list",
                          limit=SavedTable.MAX_BYTES)


def files_text(head: dict[str, Any], game: Game) -> str:
    """A past match's file: ``head`` and the game (its text written once, as the save writes it)."""
    return json.dumps(head, separators=(",", ":"))[:-1] + ',"game":' + game.dumps() + "}"


def read_match(data: dict[str, Any]) -> PastMatch:
    """A past match's file read back (`PastMatchFolder.keep`): ValueError when anything does not fit."""
    ended, seat, levels = data["ended"], data["seat"], data["levels"]
    if type(ended) not in (int, float) or not math.isfinite(ended) or not _EARLIEST <= ended < _LATEST:
        raise ValueError("when the match ended is not a time")
    if seat != SEAT or type(seat) is not int:
        raise ValueError("the match is not heard from the player's seat")
    try:
        game = Game.from_json(data["game"])
    except AudiocribError as error:
        raise ValueError(str(error)) from error
    if not (isinstance(levels, list) and len(levels) == game.rules.players and levels[SEAT] == ""
            and all(level in LEVEL_NAMES for level in levels[1:])):
        raise ValueError("the computer players' levels do not fit the table")
    if not all(len(name) <= NAME_LIMIT and printable(name) for name in game.names):
        raise ValueError("a name is not printable text of a sane length")
    if any(own_word(name) for index, name in enumerate(game.names) if index != SEAT):
        raise ValueError("a computer player has the player's own word for a name")
    if game.phase is not Phase.MATCH_OVER:
        raise ValueError("the match is not over")
    return PastMatch.of(game, SEAT, float(ended), PLACE, tuple(levels))


class PastMatchList(SessionCore):
    """The list of past matches on this computer, and each match kept as it ends."""

    wall_clock: Callable[[], float] = staticmethod(time.time)
    """The time of day (seconds since the epoch), for when a match ended and the list's "Today at 14:05"."""
    _past_names: list[str]
    _past_index = 0
    _past_seen: dict[str, PastMatch]
    """The matches read this run, by file name (a file is read once: its name holds when it ended)."""
    _past_count: int | None = None
    """How many past matches the folder holds, as last looked (None: look again)."""

    if TYPE_CHECKING:  # the menus' and the keeping's, found after this class: a stub here would stand in their way

        def _say_item(self, prefix: str = "") -> None:
            """Defined in `menus`."""

        def _write(self, what: str, write: Callable[[], None]) -> None:
            """Defined in `keeping`."""

    def _past_folder(self) -> PastMatchFolder | None:
        """The folder of past matches, beside the statistics (None when the data folder cannot be used)."""
        path = self.statistics_path
        return PastMatchFolder(path.with_name(FOLDER)) if path is not None else None

    def _has_past_matches(self) -> bool:
        """True when there are past matches to hear (the main menu then offers them)."""
        if self._past_count is None:
            folder = self._past_folder()
            self._past_count = len(folder.names()) if folder is not None else 0
        return self._past_count > 0

    def _keep_past_match(self) -> None:
        """The match at this table is over: keep it among the past matches, once (before its save is let go)."""
        table = self.table
        folder = self._past_folder()
        if not isinstance(table, OfflineTable) or self.save_path is None or folder is None:
            return
        if table.phase is not Phase.MATCH_OVER or folder.holds(table.name):
            return
        ended = self.wall_clock()

        def keep() -> None:
            assert isinstance(table, OfflineTable)
            folder.keep(table.game, ("", *table.levels), ended, table.name)

        self._write("past matches", keep)
        self._past_count = None

    def _open_past_matches(self) -> None:
        """The main menu's Past matches: the list, newest first."""
        folder = self._past_folder()
        self._past_names = folder.names() if folder is not None else []
        self._past_seen = getattr(self, "_past_seen", {})
        self._past_count = len(self._past_names)
        if not self._past_names:
            self.say("There are no past matches yet: each match you finish on this computer is kept here.")
            return
        self.mode = Mode.PAST_MATCHES
        self._past_index = 0
        self._say_past(listed(len(self._past_names)) + " ")

    def _past_match(self) -> PastMatch | None:
        """The match the list is on, read if it was not (a damaged one is set aside, said, and left out, and the
        list moves to the next); None when none is left."""
        folder = self._past_folder()
        while self._past_names and folder is not None:
            self._past_index %= len(self._past_names)
            name = self._past_names[self._past_index]
            if name in self._past_seen:
                return self._past_seen[name]
            loaded = folder.load(name)
            if loaded.value is not None:
                self._past_seen[name] = loaded.value
                return loaded.value
            self.say(loaded.notice or "That past match is no longer there; it is left out of the list.")
            del self._past_names[self._past_index]
            self._past_count = len(self._past_names)
        return None

    def _say_past(self, prefix: str = "") -> None:
        match = self._past_match()
        if match is None:
            self.say("No past match is left to hear.")
            self._main_on_past_matches()
            return
        line = match_line(match, datetime.fromtimestamp(match.ended), datetime.fromtimestamp(self.wall_clock()))
        self.say(f"{prefix}{line} {self._past_index + 1} of {len(self._past_names)}.")

    def _past_step(self, index: int) -> None:
        self._past_index = index
        self._say_past()

    def _past_newer(self, key: str) -> None:
        self._past_step(self._past_index - 1)

    def _past_older(self, key: str) -> None:
        self._past_step(self._past_index + 1)

    def _past_newest(self, key: str) -> None:
        self._past_step(0)

    def _past_oldest(self, key: str) -> None:
        self._past_step(len(self._past_names) - 1)

    def _past_choose(self, key: str) -> None:
        match = self._past_match()
        if match is None:
            self._say_past()
            return
        self._replay(match, back=self._past_again)

    def _past_again(self) -> None:
        """Back in the list from a replay, on the match heard."""
        self.mode = Mode.PAST_MATCHES
        self._say_past("Past matches: ")

    def _past_escape(self, key: str) -> None:
        self._main_on_past_matches()

    def _main_on_past_matches(self) -> None:
        """The main menu, on its Past matches item (or its first, when none is left)."""
        self.mode = Mode.MAIN
        self._past_count = None
        items = self._main_items()
        self.menu_index = items.index("past matches") if "past matches" in items else 0
        self._say_item(prefix="Main menu: ")

    def _main_items(self) -> tuple[str, ...]:
        """The main menu's items: Past matches after Statistics, once there are any."""
        saved = ("resume the unfinished game",) if self.saved is not None else ()
        if not self._has_past_matches():
            return (*saved, *MAIN_ITEMS)
        at = MAIN_ITEMS.index("statistics") + 1
        return (*saved, *MAIN_ITEMS[:at], "past matches", *MAIN_ITEMS[at:])
