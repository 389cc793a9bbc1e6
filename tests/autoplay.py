"""A steady player's keys for any moment of the game, worked out from the game alone.

The same keys come from the same position, so a test can drive the real program from what its autosave says (the
moment and the game) and know the whole game it must end with: every key is chosen from the position, and the
computer players' choices depend only on the position too.
"""

from __future__ import annotations

import json
from pathlib import Path

from audiocrib.engine.events import CountRequested
from audiocrib.engine.game import Game
from audiocrib.engine.scoring import score_hand
from audiocrib.shell.savedgame import SavedTable

SEAT = 0


def keys_for(moment: str, game: Game) -> list[str]:
    """The keys to press at ``moment`` ("discard", "play", "count", "review", "waiting", "over")."""
    view = game.view(SEAT)
    if moment == "discard":
        return [*(str(i) for i in range(1, view.must_discard + 1)), "enter"]
    if moment == "play":
        hand = sorted(view.hand)
        return [str(hand.index(min(view.playable)) + 1), "enter"]
    if moment == "count":
        asked = next(e for e in reversed(view.events) if isinstance(e, CountRequested))
        return [*str(score_hand(asked.cards, asked.starter, crib=asked.crib).total), "enter"]
    if moment in ("review", "over"):
        return ["enter"]
    return []  # waiting: the computer players move by themselves


def read_save(path: Path) -> tuple[SavedTable, str, str] | None:
    """The save, the moment it was written at, and its text (None: no game in progress)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    data = json.loads(text)
    return SavedTable.from_json(data), data["moment"], text


def where_it_stands(saved: SavedTable, moment: str) -> tuple[object, ...]:
    """What a key or a computer player's move changes (a resume rewrites the save but changes none of it)."""
    return len(saved.game.events), saved.told, saved.passed, moment
