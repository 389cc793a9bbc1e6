"""The game in progress as the autosave keeps it in ``saved-game.json``.

>>> from audiocrib.engine.game import Game
>>> import json
>>> saved = SavedTable(Game(seed=3), ("easy",), 0, frozenset(), -1, "a table", ("Welcome.",))
>>> again = SavedTable.from_json(json.loads(saved.dumps("discard")))
>>> again.game.state_key() == saved.game.state_key(), again.history
(True, ('Welcome.',))
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import ClassVar

from audiocrib.engine.errors import AudiocribError
from audiocrib.engine.game import Game
from audiocrib.engine.text import own_word, printable
from audiocrib.shell.history import LIMIT, LINE_LIMIT
from audiocrib.shell.tablesetup import LEVEL_NAMES

__all__ = ["SAVE_VERSION", "SEAT", "SavedTable"]

SEAT = 0
"""The human's seat."""
SAVE_VERSION = 2
"""The version of the game-in-progress file (``saved-game.json``)."""
NAME_LIMIT = 40
"""Characters in a player's name, at most."""


@dataclass(frozen=True, slots=True)
class SavedTable:
    """The game in progress as the autosave keeps it: the game, the computer players' levels, how far it has
    been told, and the messages the player heard."""

    game: Game
    levels: tuple[str, ...]
    told: int
    early: frozenset[int]
    passed: int
    table: str
    """This table's name, so the statistics count each of its games once."""
    history: tuple[str, ...]

    MAX_BYTES: ClassVar[int] = 8 << 20
    """The largest file read back. The longest match there is (five players to 241, first to seven game points)
    is about four megabytes, its history a few hundred kilobytes; a file of big events this size takes seconds
    to refuse, so the limit is no larger than it must be."""

    def dumps(self, moment: str) -> str:
        """The file's text (``moment`` is for people and tests reading it: a resume reads the log)."""
        data = {"version": SAVE_VERSION, "moment": moment, "table": self.table, "levels": list(self.levels),
                "told": self.told, "early": sorted(self.early), "passed": self.passed, "history": list(self.history)}
        return json.dumps(data, separators=(",", ":"))[:-1] + ',"game":' + self.game.dumps() + "}"

    @classmethod
    def from_json(cls, data: dict[str, object]) -> SavedTable:
        """The file read back (`dumps`); ValueError when anything does not fit the game."""
        try:
            game = Game.from_json(data["game"])  # type: ignore[arg-type]  # checked by the game itself
        except AudiocribError as error:
            raise ValueError(str(error)) from error
        levels, told, early, passed = data["levels"], data["told"], data["early"], data["passed"]
        table, history = data["table"], data["history"]
        heard = len(game.view(SEAT).events)
        rules = game.rules
        by_hand = rules.manual_counting or rules.muggins or rules.manual_pegging
        if game.manual_seats != (frozenset({SEAT}) if by_hand else frozenset()) or not game.auto_go:
            # a computer player must never be asked to claim: only the player's own seat counts or pegs by hand
            raise ValueError("the table's settings are not the ones audiocrib plays with")
        if not (isinstance(levels, list) and len(levels) == game.rules.players - 1
                and all(level in LEVEL_NAMES for level in levels)):
            raise ValueError("the computer players' levels do not fit the table")
        if not (type(told) is int and 0 <= told <= heard and type(passed) is int and -1 <= passed <= heard
                and isinstance(early, list) and all(type(i) is int and 0 <= i < heard for i in early)):
            raise ValueError("how far the game was told does not fit its log")
        if not isinstance(table, str) or not isinstance(history, list) or not all(
                isinstance(line, str) for line in history):
            raise ValueError("the table's name or the messages are not text")
        if not all(_text(name, NAME_LIMIT) for name in game.names) or not _text(table, 64):
            raise ValueError("a name is not printable text of a sane length")
        if any(own_word(name) for seat, name in enumerate(game.names) if seat != SEAT):
            raise ValueError("a computer player has the player's own word for a name")
        if len(history) > LIMIT or not all(_text(line, LINE_LIMIT) for line in history):
            raise ValueError("the messages are not what audiocrib keeps")
        return cls(game, tuple(levels), told, frozenset(early), passed, table, tuple(history))


def _text(text: str, limit: int) -> bool:
    """True if ``text`` is a line audiocrib could have kept: printable as it is (the one rule of
    `audiocrib.engine.text`, which the announcer cleans every line by), and at most ``limit`` characters."""
    return len(text) <= limit and printable(text)
