"""The table's rules as one validated value: variant, players, teams, target, skunks, match, manual counting and
pegging.

>>> Rules().describe()
'six-card cribbage, 2 players, to 121'
>>> r = Rules(players=4, team_size=2)
>>> r.sides, r.side_of(0), r.side_of(2), r.side_of(3)
(2, 0, 0, 1)
>>> Rules(players=3, variant=Variant.SEVEN_CARD)
Traceback (most recent call last):
...
audiocrib.engine.errors.RulesError: Seven-card cribbage is played by 2 players, or 4 in two teams of two.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any

from audiocrib.engine.errors import RulesError

__all__ = ["OFFERED_TARGETS", "RANGES", "USUAL_TARGET", "DealShape", "Rules", "Variant"]

OFFERED_TARGETS = (61, 91, 121, 181, 241)
"""The targets a table menu offers; any target from 31 to 1000 may be set."""


class Variant(StrEnum):
    """The three forms of cribbage, named by how many cards two players are dealt."""

    FIVE_CARD = "five-card"
    """Five cards each (two players), a single series in the play, 61 up, three for last."""
    SIX_CARD = "six-card"
    """The standard game: six cards each (two players), 121 up."""
    SEVEN_CARD = "seven-card"
    """Seven cards each (two players), five-card hands, 181 up."""


@dataclass(frozen=True, slots=True)
class DealShape:
    """How many cards each player is dealt and lays away, and the sizes of hands and crib."""

    dealt: int
    dealer_dealt: int
    discard: int
    dealer_discard: int
    crib_from_deck: int
    hand: int
    crib: int

    def dealt_to(self, is_dealer: bool) -> int:
        """Cards dealt to the dealer or to another player."""
        return self.dealer_dealt if is_dealer else self.dealt

    def discards_of(self, is_dealer: bool) -> int:
        """Cards the dealer or another player lays away to the crib."""
        return self.dealer_discard if is_dealer else self.discard


def _shape(dealt: int, dealer_dealt: int, discard: int, dealer_discard: int, deck: int, hand: int, crib: int
           ) -> DealShape:
    return DealShape(dealt, dealer_dealt, discard, dealer_discard, deck, hand, crib)


# (variant, players) -> shape; rules.md's variants table, row by row.
_SHAPES: dict[tuple[Variant, int], DealShape] = {
    (Variant.SIX_CARD, 2): _shape(6, 6, 2, 2, 0, 4, 4),
    (Variant.SIX_CARD, 3): _shape(5, 5, 1, 1, 1, 4, 4),
    (Variant.SIX_CARD, 4): _shape(5, 5, 1, 1, 0, 4, 4),
    (Variant.SIX_CARD, 5): _shape(5, 4, 1, 0, 0, 4, 4),
    (Variant.SIX_CARD, 6): _shape(6, 5, 1, 0, 0, 5, 5),
    (Variant.FIVE_CARD, 2): _shape(5, 5, 2, 2, 0, 3, 4),
    (Variant.FIVE_CARD, 4): _shape(4, 4, 1, 1, 0, 3, 4),
    (Variant.SEVEN_CARD, 2): _shape(7, 7, 2, 2, 0, 5, 4),
    (Variant.SEVEN_CARD, 4): _shape(6, 6, 1, 1, 0, 5, 4),
}

_DEFAULT_TARGET = {Variant.FIVE_CARD: 61, Variant.SIX_CARD: 121, Variant.SEVEN_CARD: 181}
USUAL_TARGET = 0
"""The target that stands for the variant's usual one (61, 121 or 181)."""
RANGES: dict[str, tuple[int, int]] = {
    "players": (2, 6), "team_size": (1, 3), "target": (31, 1000), "match_games": (1, 99), "wrong_muggins": (0, 5),
    "count_timer": (15, 90),
}
"""Each whole-number setting's lowest and highest value: `Rules` checks by it, and the protocol's JSON Schema
(`audiocrib.online.jsonschema`) is made from it, so the two cannot differ. A target may also be `USUAL_TARGET`."""


@dataclass(frozen=True, slots=True)
class Rules:
    """Everything that decides how a table plays; refused with a `RulesError` when it cannot be played.

    ``team_size`` is 1 for each player for themselves, 2 for partnerships (four or six players) and 3 for two
    teams of three (six players). Partners never sit side by side: seat ``s`` plays for side ``s % sides``.
    ``target`` 0 (the default) means the variant's usual target (61, 121 or 181). ``match_games`` is how many
    game points win the match (a skunk is worth 2, a double skunk 4); 1 is a single game. ``count_timer`` is
    seconds (15 to 90) for a manual count, or None for no timer. ``overcount_penalty`` applies to manual counts and
    to manual pegging alike. A save written before a setting existed loads with its default.
    """

    players: int = 2
    variant: Variant = Variant.SIX_CARD
    team_size: int = 1
    target: int = field(default=0)
    skunks: bool = True
    match_games: int = 1
    manual_counting: bool = False
    overcount_penalty: bool = True
    count_timer: int | None = None
    muggins: bool = False
    """The computer players count their own hands aloud, and a short count is not given away by itself: an
    opponent may call muggins (`CallMuggins`) before the next deal's first card is laid away and take the points
    missed. (Manual counters' under-counts still go to the opponents at once.)"""
    wrong_muggins: int = 0
    """Points a wrong call of muggins gives to the caller's next opponent; 0, the default, makes it free."""
    manual_pegging: bool = False
    """The people at the table call the points of each card they lay in the play (`ClaimCount` after their
    `Play`); what they miss goes to the opponents, and an over-claim's excess too with ``overcount_penalty``, as in
    a manual count. Go and the last card stay automatic, and so do the computer players."""

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "variant", Variant(self.variant))
        except ValueError:
            named = self.variant if isinstance(self.variant, str) and self.variant.isascii() \
                and self.variant.replace("-", "").isalnum() and len(self.variant) <= 20 else None
            raise RulesError(  # the value is named only when it is a short plain word (it may come from anyone)
                (f"There is no {named} cribbage; choose" if named else "The form of cribbage must be")
                + " five-card, six-card or seven-card."
            ) from None
        for name in ("skunks", "manual_counting", "overcount_penalty", "muggins", "manual_pegging"):
            if type(getattr(self, name)) is not bool:
                raise RulesError(f"The setting {name.replace('_', ' ')} must be true or false.")
        for name in ("players", "team_size", "target", "match_games", "wrong_muggins"):
            if type(getattr(self, name)) is not int:
                raise RulesError(f"The setting {name.replace('_', ' ')} must be a whole number.")
        if self.count_timer is not None and type(self.count_timer) is not int:
            raise RulesError("The counting timer must be a whole number of seconds.")
        if self.target == USUAL_TARGET:
            object.__setattr__(self, "target", _DEFAULT_TARGET[self.variant])
        self._validate()

    def _within(self, name: str) -> bool:
        low, high = RANGES[name]
        return bool(low <= getattr(self, name) <= high)

    def _validate(self) -> None:
        if not self._within("players"):
            raise RulesError("A table has from 2 to 6 players.")
        if self.variant is Variant.FIVE_CARD and self.players not in (2, 4):
            raise RulesError("Five-card cribbage is played by 2 players, or 4 in two teams of two.")
        if self.variant is Variant.SEVEN_CARD and self.players not in (2, 4):
            raise RulesError("Seven-card cribbage is played by 2 players, or 4 in two teams of two.")
        if not self._within("team_size"):
            raise RulesError("Teams are of two or three players; a team size of 1 means each plays for themselves.")
        if self.team_size > 1:
            if self.players not in (4, 6):
                raise RulesError(f"Teams need 4 or 6 players, not {self.players}.")
            if self.team_size == 3 and self.players != 6:
                raise RulesError("Teams of three need 6 players.")
        elif self.variant is not Variant.SIX_CARD and self.players == 4:
            raise RulesError(
                f"{self.variant.value.capitalize()} cribbage for four players is played in two teams of two."
            )
        if not self._within("target"):
            raise RulesError("The target must be a number of points from 31 to 1000.")
        if not self._within("match_games"):
            raise RulesError("A match is won with from 1 to 99 game points.")
        if not self._within("wrong_muggins"):
            raise RulesError("A wrong call of muggins costs from 0 to 5 points.")
        if self.wrong_muggins and not self.muggins:
            raise RulesError("A cost for a wrong call of muggins needs muggins to be on.")
        if self.count_timer is not None:
            if not self.manual_counting:
                raise RulesError("The counting timer needs manual counting to be on.")
            if not self._within("count_timer"):
                raise RulesError("The counting timer is from 15 to 90 seconds.")

    @property
    def shape(self) -> DealShape:
        """How the cards are dealt for this variant and number of players."""
        return _SHAPES[(self.variant, self.players)]

    @property
    def sides(self) -> int:
        """How many scores the table keeps: players, or teams."""
        return self.players // self.team_size

    def side_of(self, seat: int) -> int:
        """The side (team, or the player alone) that seat ``seat`` scores for."""
        return seat % self.sides

    def seats_of(self, side: int) -> tuple[int, ...]:
        """The seats that score for ``side``."""
        return tuple(range(side, self.players, self.sides))

    def opponent_of(self, seat: int) -> int:
        """The first seat clockwise from ``seat`` that is on another side: who receives points given away."""
        for step in range(1, self.players):
            other = (seat + step) % self.players
            if self.side_of(other) != self.side_of(seat):
                return other
        raise AssertionError("every table has an opponent")  # pragma: no cover

    @property
    def single_series(self) -> bool:
        """True in five-card cribbage, whose play stops after one series (at 31 or when nobody can play)."""
        return self.variant is Variant.FIVE_CARD

    @property
    def three_for_last(self) -> bool:
        """True in five-card cribbage: the first non-dealer of each game scores 3 at the start."""
        return self.variant is Variant.FIVE_CARD

    @property
    def skunk_lines(self) -> tuple[tuple[int, int, str], ...]:
        """``(line, game points, name)``, deepest first: a loser below ``line`` gives the winner that many games.

        Targets of 121 and more: skunk below three quarters of the target (91 for 121), double skunk below half
        (61). Smaller targets: a single line at half (31 for 61, the five-card "lurch").

        >>> Rules().skunk_lines
        ((61, 4, 'double skunk'), (91, 2, 'skunk'))
        >>> Rules(variant=Variant.FIVE_CARD).skunk_lines
        ((31, 2, 'lurch'),)
        """
        if not self.skunks:
            return ()
        half = math.ceil(self.target / 2)
        if self.target < 121:
            return ((half, 2, "lurch"),)
        return ((half, 4, "double skunk"), (math.ceil(self.target * 3 / 4), 2, "skunk"))

    def game_points(self, best_loser: int) -> tuple[int, str]:
        """Game points for the winner and the skunk's name ("" for none), given the best losing score."""
        for line, points, name in self.skunk_lines:
            if best_loser < line:
                return points, name
        return 1, ""

    def describe(self) -> str:
        """A short spoken description of the table."""
        teams = ""
        if self.team_size > 1:
            teams = f", {self.sides} teams of {'two' if self.team_size == 2 else 'three'}"
        match = f", match to {self.match_games} games" if self.match_games > 1 else ""
        return f"{self.variant.value} cribbage, {self.players} players{teams}, to {self.target}{match}"

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict of every field (each a plain number, word, true, false or None: nothing to copy)."""
        data = {name: getattr(self, name) for name in _FIELD_NAMES}
        data["variant"] = self.variant.value
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Rules:
        """The inverse of `to_json`; unknown keys are refused."""
        known = set(cls.__dataclass_fields__)
        if not isinstance(data, dict):
            raise RulesError("The rules must be a set of named settings.")
        unknown = set(data) - known
        if unknown:
            raise RulesError(f"Unknown rule setting: {', '.join(sorted(unknown))}.")
        return cls(**data)


_FIELD_NAMES = tuple(f.name for f in fields(Rules))
