"""Ratings over the protocol: the leaderboard ("Top players") and one person's rating, as messages, and every
sentence said of them (the server's notice of how a rating moved, the lists read in the lobby).

A rating is a whole number (the server's `audiocrib.server.ratings` says how it is made); it is written with a comma
for the thousands, which every screen reader reads as one number.

>>> rating_moved(1000, 1032)
'Your rating went up from 1,000 to 1,032.'
>>> rating_moved(1032, 1032)
'Your rating stays at 1,032.'
>>> rated_line(RatedPlayer(1, "Ann", 1240, 12))
'1. Ann, 1,240, twelve matches'
>>> rating_sentence(RatingOf("Ann", 1032, 1, 3, 1000, 9), own=True)
'Your rating is 1,032, after one rated match, third of nine rated players; your last match moved it up by 32.'
>>> rating_sentence(RatingOf("Bob", 1000, 0, None, None, 9), own=False)
'Bob has no rated match yet; every new player starts at 1,000.'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from audiocrib.engine.numbers import number_words
from audiocrib.engine.rules import Rules
from audiocrib.online.base import Message
from audiocrib.online.fields import NAME, Many, Maybe, Number, Record

__all__ = ["ANSWERS", "ASKS", "RATING", "TOP_PLAYERS", "AskRating", "AskTopPlayers", "RatedPlayer", "RatingOf",
           "TopPlayers", "rated_line", "rated_match", "rating_moved", "rating_sentence", "rating_words",
           "top_players_count"]

RATING = Number(0, 1_000_000)
"""A rating as said (never below 0)."""
MATCHES = Number(0, 10**9)
PLACE = Number(1, 10**9)
TOP_PLAYERS = 20
"""The players a leaderboard lists."""


# From a client to the server.


@dataclass(frozen=True, slots=True)
class AskTopPlayers(Message):
    """Ask for the leaderboard: the `TOP_PLAYERS` best rated players, and where this player stands."""

    type: ClassVar[str] = "top_players"


@dataclass(frozen=True, slots=True)
class AskRating(Message):
    """Ask for a player's rating: ``name``'s, or (null, or left out) this player's own."""

    type: ClassVar[str] = "rating"
    name: str | None = field(default=None, metadata={"field": Maybe(NAME), "optional": True})


# From the server to a client.


@dataclass(frozen=True, slots=True)
class RatedPlayer:
    """One line of the leaderboard: the place (equal ratings share one), the name, the rating, the rated matches."""

    place: int = field(metadata={"field": PLACE})
    name: str = field(metadata={"field": NAME})
    rating: int = field(metadata={"field": RATING})
    matches: int = field(metadata={"field": MATCHES})


@dataclass(frozen=True, slots=True)
class TopPlayers(Message):
    """The answer to `AskTopPlayers`: the best rated players, best first; this player's own line (null until their
    first rated match); and how many players are rated."""

    type: ClassVar[str] = "top_players_list"
    players: tuple[RatedPlayer, ...] = field(metadata={"field": Many(Record(RatedPlayer), TOP_PLAYERS)})
    you: RatedPlayer | None = field(metadata={"field": Maybe(Record(RatedPlayer))})
    rated: int = field(metadata={"field": MATCHES})


@dataclass(frozen=True, slots=True)
class RatingOf(Message):
    """The answer to `AskRating`: the player's name, rating and rated matches, their place (null until their first
    rated match), their rating before their last rated match (null: none yet), and how many players are rated."""

    type: ClassVar[str] = "rating_of"
    name: str = field(metadata={"field": NAME})
    rating: int = field(metadata={"field": RATING})
    matches: int = field(metadata={"field": MATCHES})
    place: int | None = field(metadata={"field": Maybe(PLACE)})
    before: int | None = field(metadata={"field": Maybe(RATING)})
    rated: int = field(metadata={"field": MATCHES})


ASKS = (AskTopPlayers, AskRating)
"""What a client sends of these."""
ANSWERS = (TopPlayers, RatingOf)
"""What the server answers."""


# The words.


def rated_match(rules: Rules, people: Sequence[bool]) -> bool:
    """Whether a match won at a table is rated, as the server decides it: when two sides or more have a person's
    seat (``people``: for each seat, whether it is a person's).

    >>> rated_match(Rules(players=2), (True, False)), rated_match(Rules(players=3), (True, False, True))
    (False, True)
    """
    return sum(any(people[seat] for seat in rules.seats_of(side)) for side in range(rules.sides)) >= 2


def rating_words(rating: int) -> str:
    """A rating as written: "1,032"."""
    return f"{rating:,}"


def rating_moved(before: int, after: int) -> str:
    """What a person hears at the end of a rated match."""
    if after == before:
        return f"Your rating stays at {rating_words(after)}."
    way = "up" if after > before else "down"
    return f"Your rating went {way} from {rating_words(before)} to {rating_words(after)}."


def _matches(count: int) -> str:
    return f"{number_words(count)} {'match' if count == 1 else 'matches'}"


def rated_line(player: RatedPlayer) -> str:
    """One line of the leaderboard: "1. Ann, 1,240, twelve matches"."""
    return f"{player.place}. {player.name}, {rating_words(player.rating)}, {_matches(player.matches)}"


def top_players_count(top: TopPlayers) -> str:
    """The leaderboard's first words: how many are rated, and where this player stands."""
    if not top.players:
        return "Top players: nobody has played a rated match yet."
    standing = (f" You are {_place(top.you.place)}, at {rating_words(top.you.rating)}." if top.you is not None
                else " You have no rated match yet.")
    return f"Top players, {number_words(len(top.players))} of {number_words(top.rated)} rated.{standing}"


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
             "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth",
             "eighteenth", "nineteenth", "twentieth")


def _place(place: int) -> str:
    """A place as said: "third", or past the twentieth "number 31"."""
    return _ORDINALS[place - 1] if 1 <= place <= len(_ORDINALS) else f"number {place}"


def rating_sentence(rating: RatingOf, own: bool) -> str:
    """A player's rating in one sentence (``own``: said to that player)."""
    who = "Your rating is" if own else f"{rating.name}'s rating is"
    if rating.matches == 0 or rating.place is None:
        start = "You have" if own else f"{rating.name} has"
        return f"{start} no rated match yet; every new player starts at {rating_words(rating.rating)}."
    said = (f"{who} {rating_words(rating.rating)}, after {_matches(rating.matches).replace('match', 'rated match')},"
            f" {_place(rating.place)} of {number_words(rating.rated)} rated players")
    if rating.before is not None:
        change = rating.rating - rating.before
        whose = "your" if own else "their"
        moved = ("left it where it was" if change == 0 else
                 f"moved it {'up' if change > 0 else 'down'} by {rating_words(abs(change))}")
        said += f"; {whose} last match {moved}"
    return said + "."
