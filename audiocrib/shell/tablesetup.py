"""Setting up a table: how many play, teams, the variant, the target, the match, counting and pegging, and the
opponents.

A `TableSetup` is a frozen value that is always playable: changing one setting adjusts the others it depends on
(five-card cribbage for four players is played in teams, so choosing four players with five-card turns teams on)
and says what it adjusted in a sentence. The human always sits in seat 0 and is called "You".

>>> setup = TableSetup()
>>> setup.describe()
'six-card cribbage, 2 players, to 121. Bob plays at expert level.'
>>> setup, note = setup.step("players", 2)
>>> setup.players, setup.levels
(4, ('expert', 'expert', 'expert'))
>>> setup, note = setup.step("variant", -1)
>>> setup.variant.value, setup.teams, note
('five-card', 2, 'Five-card cribbage for four is played in two teams of two, so teams are on.')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from audiocrib.engine.errors import RulesError
from audiocrib.engine.rules import Rules, Variant

__all__ = ["BOT_NAMES", "LEVEL_NAMES", "SETTINGS", "TARGETS", "TableSetup"]

BOT_NAMES = ("Bob", "Carol", "Dave", "Erin", "Frank")
"""The computer players' names, clockwise from the human."""
LEVEL_NAMES = ("beginner", "easy", "medium", "expert")
"""The computer players' strengths, weakest first."""
TARGETS = (61, 91, 121, 151, 181, 211, 241)
"""The targets offered in the menu (0 stands for the variant's usual one)."""
MATCHES = (1, 2, 3, 5, 7)
TIMERS = (None, 15, 30, 45, 60, 90)
T = TypeVar("T")
VARIANTS = (Variant.FIVE_CARD, Variant.SIX_CARD, Variant.SEVEN_CARD)

SETTINGS = ("players", "teams", "variant", "target", "match_games", "skunks", "manual_counting", "count_timer",
            "manual_pegging", "muggins", "wrong_muggins")
"""The table settings the menu steps through, in menu order (the opponents' levels follow)."""


@dataclass(frozen=True, slots=True)
class TableSetup:
    """A table the player has chosen; `rules` turns it into the engine's rules."""

    players: int = 2
    teams: int = 1
    """1: each plays for themselves; 2 or 3: teams of that size."""
    variant: Variant = Variant.SIX_CARD
    target: int = 0
    """0 means the variant's usual target."""
    match_games: int = 1
    skunks: bool = True
    manual_counting: bool = False
    count_timer: int | None = None
    manual_pegging: bool = False
    """The player calls the points of each card they lay in the play."""
    muggins: bool = False
    """The computer players count their own hands aloud and sometimes count short; ``m`` calls muggins."""
    wrong_muggins: int = 0
    """Points a wrong call of muggins gives away."""
    levels: tuple[str, ...] = ("expert",)
    """The computer players' levels, for seats 1, 2, ... in order."""

    def rules(self) -> Rules:
        """The engine's rules for this table."""
        return Rules(
            players=self.players, variant=self.variant, team_size=self.teams, target=self.target,
            skunks=self.skunks, match_games=self.match_games, manual_counting=self.manual_counting,
            count_timer=self.count_timer if self.manual_counting else None,
            muggins=self.muggins, wrong_muggins=self.wrong_muggins if self.muggins else 0,
            manual_pegging=self.manual_pegging,
        )

    def to_json(self) -> dict[str, object]:
        """The table as kept in the settings file.

        >>> setup, _ = TableSetup().step("players", 1)
        >>> TableSetup.from_json(setup.to_json()) == setup
        True
        """
        return {"players": self.players, "teams": self.teams, "variant": self.variant.value,
                "target": self.target, "match_games": self.match_games, "skunks": self.skunks,
                "manual_counting": self.manual_counting, "count_timer": self.count_timer, "muggins": self.muggins,
                "wrong_muggins": self.wrong_muggins, "manual_pegging": self.manual_pegging,
                "levels": list(self.levels)}

    @classmethod
    def from_json(cls, data: object) -> TableSetup:
        """The inverse of `to_json`: a table the menu could have made, or ValueError (say what is wrong)."""
        if not isinstance(data, dict):
            raise ValueError("the table is not a set of named values")
        whole = {name: data[name] for name in ("players", "teams", "target", "match_games", "wrong_muggins")}
        flags = {name: data[name] for name in ("skunks", "manual_counting", "muggins")}
        flags["manual_pegging"] = data.get("manual_pegging", False)  # absent from tables kept before it existed
        if not all(type(v) is int for v in whole.values()) or not all(type(v) is bool for v in flags.values()):
            raise ValueError("a table setting has the wrong kind of value")
        timer, levels = data["count_timer"], data["levels"]
        if timer not in TIMERS or type(timer) not in (int, type(None)):
            raise ValueError(f"the counting timer {timer!r} is not one the menu offers")
        if not isinstance(levels, list) or not all(level in LEVEL_NAMES for level in levels):
            raise ValueError("the computer players' levels are not known")
        setup = cls(variant=Variant(data["variant"]), count_timer=timer, levels=tuple(levels),
                    **whole, **flags)
        fixed, note = setup._fixed()
        if note or fixed != setup or (setup.target not in (0, *TARGETS)) or setup.match_games not in MATCHES:
            raise ValueError("the table is not one the menu offers")
        return setup

    def names(self) -> tuple[str, ...]:
        """Every seat's name: "You", then the computer players."""
        return ("You", *BOT_NAMES[: self.players - 1])

    @property
    def real_target(self) -> int:
        """The target in points (the variant's usual one when `target` is 0)."""
        return self.rules().target

    def value_text(self, setting: str) -> str:
        """How ``setting`` is said in the menu: "2", "teams of two", "on", "off"."""
        if setting == "teams":
            return {1: "each for themselves", 2: "teams of two", 3: "teams of three"}[self.teams]
        if setting == "variant":
            return self.variant.value
        if setting == "target":
            return f"{self.real_target}" + (" (the usual)" if self.target == 0 else "")
        if setting == "match_games":
            return "a single game" if self.match_games == 1 else f"first to {self.match_games} game points"
        if setting in ("skunks", "manual_counting", "manual_pegging"):
            return "on" if getattr(self, setting) else "off"
        if setting == "muggins":
            return "sometimes short, press m to call muggins" if self.muggins else "always right"
        if setting == "wrong_muggins":
            return {0: "nothing", 1: "1 point"}.get(self.wrong_muggins, f"{self.wrong_muggins} points")
        if setting == "count_timer":
            return "off" if self.count_timer is None else f"{self.count_timer} seconds"
        if setting.startswith("level "):
            return self.levels[int(setting.split()[1]) - 1]
        return str(getattr(self, setting))

    def label(self, setting: str) -> str:
        """The menu label of ``setting``: "Players", "Carol, your partner"."""
        if setting.startswith("level "):
            seat = int(setting.split()[1])
            name = BOT_NAMES[seat - 1]
            if self.teams > 1 and seat % (self.players // self.teams) == 0:
                return f"{name}, your partner"
            return name
        return {
            "players": "Players", "teams": "Teams", "variant": "Cribbage", "target": "Game to",
            "match_games": "Match", "skunks": "Skunks", "manual_counting": "Count your own hands",
            "count_timer": "Counting timer", "manual_pegging": "Call your own points in the play",
            "muggins": "Computer players' counts",
            "wrong_muggins": "A wrong call of muggins costs",
        }[setting]

    def menu_settings(self) -> tuple[str, ...]:
        """The settings shown in the menu now: the table's, then one level per computer player."""
        hidden = {"count_timer": not self.manual_counting, "wrong_muggins": not self.muggins}
        shown = [s for s in SETTINGS if not hidden.get(s, False)]
        return (*shown, *(f"level {seat}" for seat in range(1, self.players)))

    def step(self, setting: str, direction: int) -> tuple[TableSetup, str]:
        """``setting`` moved one choice on (1) or back (-1), with the others adjusted to stay playable; at the
        first or last choice it stays (on/off settings flip).

        Returns the new setup and a sentence saying what else changed ("" when nothing did).
        """
        if setting.startswith("level "):
            index = int(setting.split()[1]) - 1
            levels = list(self.levels)
            levels[index] = _step(LEVEL_NAMES, levels[index], direction)
            return dataclasses.replace(self, levels=tuple(levels)), ""
        if setting == "players":
            return self._fixed(players=_step((2, 3, 4, 5, 6), self.players, direction))
        if setting == "teams":
            choices = {4: (1, 2), 6: (1, 2, 3)}.get(self.players, (1,))
            if len(choices) == 1:
                return self, "Teams need four or six players."
            if self.variant is not Variant.SIX_CARD:
                return self, f"{self.variant.value.capitalize()} cribbage for four is always played in teams."
            return self._fixed(teams=_step(choices, self.teams, direction))
        if setting == "variant":
            variant = _step(VARIANTS, self.variant, direction)
            if variant is self.variant:  # at the first or last: the target chosen stays too
                return self, ""
            return self._fixed(variant=variant, target=0)
        if setting == "target":
            return self._fixed(target=_step(TARGETS, self.real_target, direction))
        if setting == "match_games":
            return self._fixed(match_games=_step(MATCHES, self.match_games, direction))
        if setting in ("skunks", "manual_counting", "manual_pegging", "muggins"):
            return self._fixed(**{setting: not getattr(self, setting)})
        if setting == "wrong_muggins":
            return self._fixed(wrong_muggins=_step((0, 1, 2), self.wrong_muggins, direction))
        if setting == "count_timer":
            return self._fixed(count_timer=_step(TIMERS, self.count_timer, direction))
        raise KeyError(setting)

    def _fixed(self, **changes: object) -> tuple[TableSetup, str]:
        setup = dataclasses.replace(self, **changes)  # type: ignore[arg-type]  # names checked by the callers
        notes: list[str] = []
        if setup.players not in (2, 4) and setup.variant is not Variant.SIX_CARD:
            notes.append(f"{setup.variant.value.capitalize()} cribbage is for two or four players, "
                         "so the game is now six-card.")
            setup = dataclasses.replace(setup, variant=Variant.SIX_CARD, target=0)
        if (setup.teams > 1 and setup.players not in (4, 6)) or (setup.teams == 3 and setup.players != 6):
            notes.append("Teams are off at this table size.")
            setup = dataclasses.replace(setup, teams=1)
        if setup.players == 4 and setup.variant is not Variant.SIX_CARD and setup.teams != 2:
            notes.append(f"{setup.variant.value.capitalize()} cribbage for four is played in two teams of two, "
                         "so teams are on.")
            setup = dataclasses.replace(setup, teams=2)
        levels = setup.levels[: setup.players - 1]
        levels += (levels[-1] if levels else "expert",) * (setup.players - 1 - len(levels))
        setup = dataclasses.replace(setup, levels=levels)
        try:
            setup.rules()
        except RulesError as error:  # pragma: no cover - every path above keeps the rules playable
            return self, str(error)
        return setup, " ".join(notes)

    def describe(self) -> str:
        """The table in one or two sentences."""
        opponents = ", ".join(f"{BOT_NAMES[i]}" for i in range(self.players - 1))
        levels = set(self.levels)
        if len(levels) == 1:
            strength = f" at {self.levels[0]} level"
            who = opponents if self.players == 2 else "Everyone else"
            tail = f"{who} plays{strength}."
        else:
            tail = "Levels: " + ", ".join(f"{BOT_NAMES[i]} {lvl}" for i, lvl in enumerate(self.levels)) + "."
        timer = ""
        if self.manual_counting:
            timer = " You count your own hands" + (
                f", with {self.count_timer} seconds each." if self.count_timer else ".")
        pegging = " You call your own points in the play." if self.manual_pegging else ""
        muggins = " Computer players sometimes count short: press m to call muggins." if self.muggins else ""
        return f"{self.rules().describe()}.{timer}{pegging} {tail}{muggins}"


def _step(choices: Sequence[T], current: T, direction: int) -> T:
    """The choice ``direction`` steps from ``current``, staying at the first or the last as the settings do (the
    first if ``current`` is not offered).

    >>> _step((61, 121, 241), 241, 1), _step((61, 121, 241), 61, -1), _step((61, 121, 241), 61, 2)
    (241, 61, 241)
    """
    if current not in choices:
        return choices[0]
    return choices[max(0, min(len(choices) - 1, list(choices).index(current) + direction))]
