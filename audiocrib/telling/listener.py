"""The listener: how much they want to hear (`Verbosity`), and the seats and sides of the table as they hear
them, themselves as "you" and the others by name (`SeatNames`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from audiocrib.engine.numbers import number_words
from audiocrib.engine.rules import Rules
from audiocrib.telling.phrases import capitalised, join_words

__all__ = ["SeatNames", "Verbosity", "match_phrase", "side_list", "third_person"]


class Verbosity(StrEnum):
    """How much the narrator says; the narrator module's docstring lists what each level says for each event."""

    BRIEF = "brief"
    """Short fragments, for players who know the game well."""
    NORMAL = "normal"
    """Full sentences (the default)."""
    FULL = "full"
    """Everything, with the scores after every scoring event and the cards of every hand shown."""


@dataclass(frozen=True, slots=True)
class SeatNames:
    """How one listener hears the seats and sides of a table: themselves as "you", the others by name."""

    names: tuple[str, ...]
    rules: Rules
    me: int

    def seat(self, seat: int, capital: bool = False) -> str:
        """``"you"`` for the listener, else the seat's name."""
        word = "you" if seat == self.me else self.names[seat]
        return capitalised(word) if capital else word

    def possessive(self, seat: int, capital: bool = False) -> str:
        """``"your"`` or ``"Bob's"``."""
        word = "your" if seat == self.me else f"{self.names[seat]}'s"
        return capitalised(word) if capital else word

    def owner(self, seat: int) -> str:
        """``"yours"`` or ``"Bob's"``, as in "the crib is yours"."""
        return "yours" if seat == self.me else f"{self.names[seat]}'s"

    def verb(self, seat: int, verb: str) -> str:
        """``verb`` agreeing with the seat: "play" for the listener, "plays" for another."""
        return verb if seat == self.me else third_person(verb)

    def does(self, seat: int, verb: str, capital: bool = False) -> str:
        """The seat and a verb that agrees: ``does(1, "play")`` is ``"Bob plays"``, for the listener "you play"."""
        return f"{self.seat(seat, capital)} {self.verb(seat, verb)}"

    def side(self, side: int, capital: bool = False) -> str:
        """A side named by its players, the listener first: ``"you and Carol"``, ``"Bob and Dave"``, ``"Bob"``."""
        seats = self.rules.seats_of(side)
        ordered = sorted(seats, key=lambda s: (s != self.me, s))
        word = join_words([self.seat(s) for s in ordered])
        return capitalised(word) if capital else word

    def side_verb(self, side: int, verb: str) -> str:
        """``verb`` agreeing with the side: "win" for "you" or a team, "wins" for one other player."""
        seats = self.rules.seats_of(side)
        plural = len(seats) > 1 or seats == (self.me,)
        return verb if plural else third_person(verb)

    def side_does(self, side: int, verb: str, capital: bool = False) -> str:
        """A side and a verb that agrees: ``"Bob and Dave win"``, ``"you win"``, ``"Bob wins"``."""
        return f"{self.side(side, capital)} {self.side_verb(side, verb)}"

    def sides_from_mine(self) -> list[int]:
        """Every side, the listener's first, then clockwise (a watcher's: the first side's first)."""
        mine = 0 if self.me >= self.rules.players else self.rules.side_of(self.me)
        return [(mine + step) % self.rules.sides for step in range(self.rules.sides)]


def third_person(verb: str) -> str:
    """``verb`` as said of one other player: "plays", "has", "is", "wins"."""
    if verb == "have":
        return "has"
    if verb == "are":
        return "is"
    if verb.endswith(("s", "sh", "ch", "x")):
        return verb + "es"
    return verb + "s"


def side_list(seats: SeatNames, parts: Sequence[str]) -> str:
    """Clauses about several sides: joined with "and", or with semicolons at team tables, where the sides' own
    names hold "and" ("you and Carol have one; Bob and Dave have two")."""
    if seats.rules.team_size > 1:
        return "; ".join(parts)
    return join_words(parts)


def match_phrase(seats: SeatNames, match_scores: Sequence[int]) -> str:
    """The match score as a sentence: ``"In the match to three game points, you have one and Bob has none."``."""
    parts = []
    for side in seats.sides_from_mine():
        points = match_scores[side]
        parts.append(f"{seats.side_does(side, 'have')} {number_words(points) if points else 'none'}")
    return f"In the match to {number_words(seats.rules.match_games)} game points, {side_list(seats, parts)}."
