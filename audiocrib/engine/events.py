"""Everything that happens in a game, as frozen values in the game's log.

The log is the single source for what the shell says, what computer players read, what a save file holds and
what a replay plays. Some events carry cards that only some players may see; `Event.seen_by` returns the event
as one seat sees it.

>>> from audiocrib.engine.cards import parse_cards
>>> from audiocrib.engine.scoring import score_play
>>> e = Played(seat=1, card=Card.parse("5S"), count=15, score=score_play(parse_cards("TH 5S")))
>>> e.points, e.scorer
(2, 1)
>>> event_from_json(event_to_json(e)) == e
True
>>> import json
>>> json.loads(event_text(e)) == json.loads(event_row(e)) == event_to_json(e)
True
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar

from audiocrib.engine.cards import Card
from audiocrib.engine.codec import IdentityCache, record_from_json, record_text, record_to_json
from audiocrib.engine.scoring import Score

__all__ = [
    "EVENT_TYPES",
    "CountRequested",
    "CutForDeal",
    "Dealt",
    "Discarded",
    "Event",
    "GameStarted",
    "GameWon",
    "HandShown",
    "HisHeels",
    "LastCard",
    "MatchWon",
    "MugginsCalled",
    "PlayClaimed",
    "PlayEnded",
    "Played",
    "PointsGiven",
    "SaidGo",
    "SeriesEnded",
    "StarterCut",
    "ThreeForLast",
    "event_from_json",
    "event_row",
    "event_text",
    "event_to_json",
]


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every event. ``kind`` names the event in JSON."""

    kind: ClassVar[str] = "event"

    @property
    def points(self) -> int:
        """Points this event scores (0 for most)."""
        return 0

    @property
    def scorer(self) -> int | None:
        """The seat credited with `points`, or None if the event scores nothing."""
        return None

    def seen_by(self, seat: int) -> Event:
        """This event as ``seat`` may see it; hidden cards are removed."""
        return self


@dataclass(frozen=True, slots=True)
class _Scoring(Event):
    seat: int

    @property
    def scorer(self) -> int | None:
        return self.seat


@dataclass(frozen=True, slots=True)
class CutForDeal(Event):
    """Each seat in ``seats`` cut ``cards`` (same order) for the first deal; the lowest deals, ties cut again."""

    kind: ClassVar[str] = "cut for deal"
    seats: tuple[int, ...]
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    """Game number ``game`` of the match starts with ``dealer`` dealing first."""

    kind: ClassVar[str] = "game started"
    game: int
    dealer: int


@dataclass(frozen=True, slots=True)
class ThreeForLast(_Scoring):
    """Five-card cribbage: the first non-dealer of the game scores 3 at the start."""

    kind: ClassVar[str] = "three for last"

    @property
    def points(self) -> int:
        return 3


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    """A deal: every seat's cards, any cards dealt straight to the crib (three players), and the stock in order.

    Seen by a player: only their own hand; other hands, the crib cards and the stock are emptied.
    """

    kind: ClassVar[str] = "dealt"
    deal: int
    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    crib: tuple[Card, ...]
    stock: tuple[Card, ...]

    def seen_by(self, seat: int) -> Event:
        hands = tuple(hand if i == seat else () for i, hand in enumerate(self.hands))
        return dataclasses.replace(self, hands=hands, crib=(), stock=())


@dataclass(frozen=True, slots=True)
class Discarded(Event):
    """``seat`` laid ``count`` cards away to the crib; the cards are seen only by that seat."""

    kind: ClassVar[str] = "discarded"
    seat: int
    count: int
    cards: tuple[Card, ...]

    def seen_by(self, seat: int) -> Event:
        return self if seat == self.seat else dataclasses.replace(self, cards=())


@dataclass(frozen=True, slots=True)
class StarterCut(Event):
    """``cutter`` (on the dealer's right) cut the stock and the dealer turned up ``card``, the starter."""

    kind: ClassVar[str] = "starter cut"
    cutter: int
    card: Card


@dataclass(frozen=True, slots=True)
class HisHeels(_Scoring):
    """The starter is a jack: 2 to the dealer, ``seat``."""

    kind: ClassVar[str] = "his heels"

    @property
    def points(self) -> int:
        return 2


@dataclass(frozen=True, slots=True)
class Played(_Scoring):
    """``seat`` laid ``card`` in the play, making the count ``count``; ``score`` is what the card scored.

    With manual pegging, ``to_claim`` is True when ``seat`` must call the card's points: ``score`` is then empty
    and nothing is pegged until `PlayClaimed` brings the claim and the true score.
    """

    kind: ClassVar[str] = "played"
    card: Card
    count: int
    score: Score
    to_claim: bool = False

    @property
    def points(self) -> int:
        return self.score.total


@dataclass(frozen=True, slots=True)
class SaidGo(Event):
    """``seat`` could not play without passing 31 and said go; they sit out the rest of this series."""

    kind: ClassVar[str] = "said go"
    seat: int


@dataclass(frozen=True, slots=True)
class LastCard(_Scoring):
    """Nobody could play: ``seat`` laid the last card of the series (count ``count``, under 31) and scores 1."""

    kind: ClassVar[str] = "last card"
    count: int

    @property
    def points(self) -> int:
        return 1


@dataclass(frozen=True, slots=True)
class SeriesEnded(Event):
    """A series of the play is over at ``count``; the count starts again from zero."""

    kind: ClassVar[str] = "series ended"
    count: int


@dataclass(frozen=True, slots=True)
class PlayEnded(Event):
    """The play is over (all cards laid, or the single series of five-card cribbage); the show follows."""

    kind: ClassVar[str] = "play ended"


@dataclass(frozen=True, slots=True)
class CountRequested(Event):
    """Manual counting: ``seat`` is asked to count their hand (or with ``crib`` their crib)."""

    kind: ClassVar[str] = "count requested"
    seat: int
    crib: bool
    cards: tuple[Card, ...]
    starter: Card


@dataclass(frozen=True, slots=True)
class HandShown(_Scoring):
    """``seat``'s hand (or crib) is counted: ``score`` is the true count and ``points`` what ``seat`` pegs.

    With manual counting ``claimed`` is what the player said (None if the timer ran out, ``timed_out``);
    otherwise ``claimed`` is None and the player pegs the true count.
    """

    kind: ClassVar[str] = "hand shown"
    crib: bool
    cards: tuple[Card, ...]
    starter: Card
    score: Score
    pegged: int
    claimed: int | None = None
    timed_out: bool = False

    @property
    def points(self) -> int:
        return self.pegged


@dataclass(frozen=True, slots=True)
class PlayClaimed(_Scoring):
    """Manual pegging: ``seat`` called ``claimed`` for the ``card`` they laid (making ``count``); ``score`` is what
    it truly made and ``pegged`` what ``seat`` pegs (the claim when short or right, the truth when over). What was
    missed, or over-claimed with the penalty on, follows as `PointsGiven`, as after a manual count."""

    kind: ClassVar[str] = "play claimed"
    card: Card
    count: int
    score: Score
    claimed: int
    pegged: int

    @property
    def points(self) -> int:
        return self.pegged


@dataclass(frozen=True, slots=True)
class PointsGiven(_Scoring):
    """Manual counting or pegging: ``offender`` missed, over-counted or ran out of time; ``seat`` pegs ``given``.

    ``reason`` is ``"missed"``, ``"over-counted"``, ``"timer"``, or ``"wrong muggins"`` (``offender`` called
    muggins when nobody had missed anything, at a table where that costs points).
    """

    kind: ClassVar[str] = "points given"
    offender: int
    given: int
    reason: str

    @property
    def points(self) -> int:
        return self.given


@dataclass(frozen=True, slots=True)
class MugginsCalled(_Scoring):
    """Muggins: ``seat`` called it on ``offender``'s short count of their hand (or with ``crib`` their crib) and
    pegs the ``given`` points they missed."""

    kind: ClassVar[str] = "muggins"
    offender: int
    crib: bool
    given: int

    @property
    def points(self) -> int:
        return self.given


@dataclass(frozen=True, slots=True)
class GameWon(Event):
    """Game ``game`` is won by ``side`` with final ``scores``; it is worth ``game_points`` (skunks more)."""

    kind: ClassVar[str] = "game won"
    game: int
    side: int
    scores: tuple[int, ...]
    game_points: int
    skunk: str
    match_scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class MatchWon(Event):
    """The match is won by ``side``, with ``match_scores`` game points per side."""

    kind: ClassVar[str] = "match won"
    side: int
    match_scores: tuple[int, ...]


EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (
        CutForDeal, GameStarted, ThreeForLast, Dealt, Discarded, StarterCut, HisHeels, Played, SaidGo,
        LastCard, SeriesEnded, PlayEnded, CountRequested, HandShown, PointsGiven, MugginsCalled, GameWon, MatchWon,
        PlayClaimed,
    )
}
"""Every event class by its ``kind``."""


def event_to_json(event: Event) -> dict[str, Any]:
    """A JSON-ready dict: ``{"kind": "played", "seat": 1, ...}``."""
    return record_to_json(event)


event_text: IdentityCache[Event, str] = IdentityCache(record_text)
"""``json.dumps(event_to_json(event))``, written directly and kept for the event met again (an event a server
sends to several seats, or to a seat again)."""


def event_row(event: Event) -> str:
    """``json.dumps(event_to_json(event), separators=(",", ":"))``, written directly: the event as a log keeps
    it (a save file, a server's row)."""
    return record_text(event, compact=True)


def event_from_json(data: dict[str, Any]) -> Event:
    """The inverse of `event_to_json`; raises `ValueError` on anything malformed."""
    return record_from_json(EVENT_TYPES, data, "event")

