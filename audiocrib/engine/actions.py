"""What a player can do: frozen values that the game checks before it applies them.

>>> from audiocrib.engine.cards import parse_cards
>>> Play(seat=0, card=Card.parse("7C"))
Play(seat=0, card=Card.parse('7C'))
>>> action_from_json(action_to_json(Discard(1, parse_cards("5H 5D")))) == Discard(1, parse_cards("5H 5D"))
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from audiocrib.engine.cards import Card
from audiocrib.engine.codec import record_from_json, record_to_json

__all__ = [
    "ACTION_TYPES",
    "Action",
    "CallMuggins",
    "ClaimCount",
    "CountTimeout",
    "Discard",
    "Go",
    "Play",
    "action_from_json",
    "action_to_json",
]


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every action; ``seat`` is the player who acts."""

    kind: ClassVar[str] = "action"
    seat: int


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Lay ``cards`` away to the crib (all of this player's discards at once)."""

    kind: ClassVar[str] = "discard"
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Lay ``card`` in the play."""

    kind: ClassVar[str] = "play"
    card: Card


@dataclass(frozen=True, slots=True)
class Go(Action):
    """Say go: allowed only when no card in hand can be laid without passing 31."""

    kind: ClassVar[str] = "go"


@dataclass(frozen=True, slots=True)
class ClaimCount(Action):
    """Manual counting: claim ``points`` for the hand or crib being counted; with manual pegging, also the points
    of the card this player has just laid in the play."""

    kind: ClassVar[str] = "claim"
    points: int


@dataclass(frozen=True, slots=True)
class CountTimeout(Action):
    """Manual counting: the counting timer ran out for this player (made by the clock of whoever holds the game:
    the server's online, where a client's is refused)."""

    kind: ClassVar[str] = "timeout"


@dataclass(frozen=True, slots=True)
class CallMuggins(Action):
    """Call "muggins!" on the opponents' short counts in this show, taking the points they missed.

    Only at a table that plays muggins (`Rules.muggins`), from the first hand shown until the next deal's first
    card is laid away.
    """

    kind: ClassVar[str] = "muggins"


ACTION_TYPES: dict[str, type[Action]] = {
    c.kind: c for c in (Discard, Play, Go, ClaimCount, CountTimeout, CallMuggins)
}


def action_to_json(action: Action) -> dict[str, Any]:
    """A JSON-ready dict: ``{"kind": "play", "seat": 0, "card": "7C"}``."""
    return record_to_json(action)


def action_from_json(data: dict[str, Any]) -> Action:
    """The inverse of `action_to_json`; raises `ValueError` on anything malformed."""
    return record_from_json(ACTION_TYPES, data, "action")
