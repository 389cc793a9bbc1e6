"""The four levels of computer player by name, weakest first."""

from __future__ import annotations

from audiocrib.bots.base import Bot
from audiocrib.bots.beginner import Beginner
from audiocrib.bots.easy import Easy
from audiocrib.bots.expert import Expert
from audiocrib.bots.medium import Medium

__all__ = ["COUNT_MISTAKES", "LEVELS"]

LEVELS: dict[str, type[Bot]] = {"beginner": Beginner, "easy": Easy, "medium": Medium, "expert": Expert}
"""The computer players by level name, weakest first."""

COUNT_MISTAKES = 0.25
"""How often a computer player overlooks something in its count at a muggins table (offline and online alike), so
that muggins can be practised."""
