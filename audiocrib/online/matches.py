"""Past matches over the protocol: the list of a server's past matches (the ones this player sat in, newest first,
a page at a time, or one public match by its table number) and one match's whole log, as messages, and how a
past match is said in the list (telling.replaying.listed_line, by the client).

A match is listed, and its log sent, only once it is won: its log then holds every card (every hand may be shown
after the match), never the seed. `MatchLog.past_match` makes the `PastMatch` a replay plays.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from audiocrib.engine.events import Event
from audiocrib.engine.numbers import number_words
from audiocrib.engine.pastmatch import PastMatch
from audiocrib.engine.rules import Rules
from audiocrib.engine.viewcodec import MAX_VIEW_EVENTS
from audiocrib.online.base import EVENT, RULES, SEAT, TABLE_NUMBER, Message
from audiocrib.online.fields import NAME, Flag, Many, Maybe, Number, ProtocolError, Record

__all__ = ["ANSWERS", "ASKS", "PAST_PAGE", "AskMatchLog", "AskPastMatches", "MatchLog", "PastMatchList",
           "PastMatchSummary"]

PAST_PAGE = 20
"""Past matches on one page of the list."""
WHEN = Number(0, 2**40)
"""When a match ended: whole seconds since 1970 (UTC)."""
SCORE = Number(0, 1_000_000)
LOOKER = Number(0, 6)
"""The seat a match is heard from: a player's, or the watchers' seat, one past the last (six at six players)."""


# From a client to the server.


@dataclass(frozen=True, slots=True)
class AskPastMatches(Message):
    """Ask for a page of the past matches this player sat in (newest first; the first page when ``page`` is left
    out), or (``table``) the one match played at that table, if this player sat there or it was public."""

    type: ClassVar[str] = "past_matches"
    page: int = field(default=1, metadata={"field": Number(1, 10**6), "optional": True})
    table: int | None = field(default=None, metadata={"field": Maybe(TABLE_NUMBER), "optional": True})


@dataclass(frozen=True, slots=True)
class AskMatchLog(Message):
    """Ask for the whole log of the match played at ``table`` (refused unless it is won, and this player sat there
    or it was public)."""

    type: ClassVar[str] = "match_log"
    table: int = field(metadata={"field": TABLE_NUMBER})


# From the server to a client.


def _checked(rules: Rules, names: tuple[str, ...], seat: int | None, side: int | None = None) -> None:
    if len(names) != rules.players:
        raise ProtocolError(f"A past match needs {number_words(rules.players)} names, one for each player.")
    if seat is not None and seat > rules.players:
        raise ProtocolError("A past match is heard from one of its seats, or the watchers' seat.")
    if side is not None and side >= rules.sides:
        raise ProtocolError("A past match is won by one of its sides.")


@dataclass(frozen=True, slots=True)
class PastMatchSummary:
    """One past match as the list says it: its table's number, when it ended, its rules, the seats' names, this
    player's seat (null: a public match they did not play), the side that won, each side's game points and each
    side's points in the last game."""

    number: int = field(metadata={"field": TABLE_NUMBER})
    ended: int = field(metadata={"field": WHEN})
    rules: Rules = field(metadata={"field": RULES})
    names: tuple[str, ...] = field(metadata={"field": Many(NAME, 6)})
    seat: int | None = field(metadata={"field": Maybe(SEAT)})
    side: int = field(metadata={"field": SEAT})
    match_scores: tuple[int, ...] = field(metadata={"field": Many(SCORE, 6)})
    last_scores: tuple[int, ...] = field(metadata={"field": Many(SCORE, 6)})

    def __post_init__(self) -> None:
        _checked(self.rules, self.names, self.seat, self.side)
        if not len(self.match_scores) == len(self.last_scores) == self.rules.sides:
            raise ProtocolError("A past match has a score for each side.")


@dataclass(frozen=True, slots=True)
class PastMatchList(Message):
    """A page of past matches (the ``page``-th `PAST_PAGE`, of ``pages``), newest first; ``table`` is the table
    asked for, if one was."""

    type: ClassVar[str] = "past_match_list"
    matches: tuple[PastMatchSummary, ...] = field(metadata={"field": Many(Record(PastMatchSummary), PAST_PAGE)})
    page: int = field(metadata={"field": Number(1, 10**6)})
    pages: int = field(metadata={"field": Number(1, 10**6)})
    table: int | None = field(default=None, metadata={"field": Maybe(TABLE_NUMBER)})


@dataclass(frozen=True, slots=True)
class MatchLog(Message):
    """The whole log of a match won: its table, when it ended, its rules and names, the seat it is heard from
    (the player's own, or the watchers' seat for a public match they did not play), the seats counted by hand,
    whether go is said for the players, and every event with every card."""

    type: ClassVar[str] = "match_record"
    number: int = field(metadata={"field": TABLE_NUMBER})
    ended: int = field(metadata={"field": WHEN})
    rules: Rules = field(metadata={"field": RULES})
    names: tuple[str, ...] = field(metadata={"field": Many(NAME, 6)})
    seat: int = field(metadata={"field": LOOKER})
    manual_seats: tuple[int, ...] = field(metadata={"field": Many(SEAT, 6)})
    auto_go: bool = field(metadata={"field": Flag()})
    events: tuple[Event, ...] = field(metadata={"field": Many(EVENT, MAX_VIEW_EVENTS)})

    def __post_init__(self) -> None:
        _checked(self.rules, self.names, self.seat)
        if any(seat >= self.rules.players for seat in self.manual_seats):
            raise ProtocolError("The seats counted by hand must be seats of the table.")

    def past_match(self, place: str) -> PastMatch:
        """The match for a replay, ``place`` where it was played as said ("table 12 on example.org")."""
        return PastMatch(self.rules, self.names, self.events, self.seat, float(self.ended), place,
                         frozenset(self.manual_seats), self.auto_go)


ASKS = (AskPastMatches, AskMatchLog)
"""What a client sends of these."""
ANSWERS = (PastMatchList, MatchLog)
"""What the server answers."""
