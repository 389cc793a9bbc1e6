"""The player's record at the table: games and wins, skunks each way, by opponent strength and by variant.

`Statistics.record` reads a game's log for the games won in it, each counted once however often it is read
(a game resumed after a crash reads its log again), and `Statistics.summary` says the record in sentences.

>>> from audiocrib import Game, Rules
>>> from audiocrib.bots.player import drive
>>> from audiocrib.bots.beginner import Beginner
>>> from audiocrib.bots.medium import Medium
>>> game = drive(Game(Rules(), ("You", "Bob"), seed=3), [Medium(seed=1), Beginner(seed=2)])
>>> stats = Statistics()
>>> stats.record(game, "table-1", ("beginner",), seat=0)
1
>>> stats.record(game, "table-1", ("beginner",), seat=0)  # the same game again: not counted twice
0
>>> stats.total.games, stats.total.wins
(1, 1)
>>> stats.summary()[0]
'One game finished; you won one, one hundred percent. You skunked your opponents once, and you were never skunked.'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from audiocrib.engine.events import GameWon, MatchWon
from audiocrib.engine.numbers import number_words
from audiocrib.engine.rules import Variant
from audiocrib.engine.text import printable

__all__ = ["LEVELS", "Statistics", "Tally"]

LEVELS = ("beginner", "easy", "medium", "expert")
"""The computer players' strengths, weakest first (the order the summary reads them in)."""
_KEPT_IDS = 200
"""How many recent games' names are kept to stop one being counted twice."""
MOST_GAMES = 10**7
"""More games than anyone finishes in a lifetime: a count beyond it is not a real record."""


@dataclass(slots=True)
class Tally:
    """Games finished, won, and skunks given and taken (a double skunk counts in both skunks and doubles)."""

    games: int = 0
    wins: int = 0
    skunks_given: int = 0
    skunked: int = 0
    doubles_given: int = 0
    doubled: int = 0

    def add(self, won: bool, skunk: str) -> None:
        """One finished game, won or lost, with its skunk ("" for none)."""
        self.games += 1
        self.wins += won
        if skunk:
            if won:
                self.skunks_given += 1
                self.doubles_given += skunk == "double skunk"  # a lurch is a single skunk
            else:
                self.skunked += 1
                self.doubled += skunk == "double skunk"

    def to_json(self) -> dict[str, int]:
        """The counts by name."""
        return {"games": self.games, "wins": self.wins, "skunks_given": self.skunks_given,
                "skunked": self.skunked, "doubles_given": self.doubles_given, "doubled": self.doubled}

    @classmethod
    def from_json(cls, data: Any) -> Tally:
        """The inverse of `to_json`; ValueError on anything but whole numbers that add up."""
        if not isinstance(data, dict):
            raise ValueError("a tally is a set of named counts")
        tally = cls(**{name: data.get(name, 0) for name in cls().to_json()})
        if not all(type(n) is int and 0 <= n <= MOST_GAMES for n in tally.to_json().values()):
            raise ValueError("a tally's counts are not whole numbers of games")
        if not (tally.wins <= tally.games and tally.skunks_given <= tally.wins
                and tally.skunked <= tally.games - tally.wins and tally.doubles_given <= tally.skunks_given
                and tally.doubled <= tally.skunked):
            raise ValueError("a tally's counts do not add up")
        return tally


@dataclass(slots=True)
class Statistics:
    """Everything kept about the player's games (the practice figures are kept with the drills)."""

    total: Tally = field(default_factory=Tally)
    by_level: dict[str, Tally] = field(default_factory=dict)
    """By the strongest opponent's level."""
    by_variant: dict[str, Tally] = field(default_factory=dict)
    matches: int = 0
    """Matches of more than one game, finished."""
    match_wins: int = 0
    counted: list[str] = field(default_factory=list)
    """The names of the last games counted, so none is counted twice."""

    def record(self, game: Any, table: str, levels: tuple[str, ...], seat: int = 0) -> int:
        """Count every game won in ``game``'s log not yet counted; returns how many were new.

        ``table`` names this table uniquely (a game is ``table/number``); ``levels`` are the computer players' in
        seat order from seat 1; ``seat`` is the player's.
        """
        rules = game.rules
        side = rules.side_of(seat)
        opponents = [level for other, level in enumerate(levels, start=1) if rules.side_of(other) != side]
        strongest = max(opponents, key=lambda level: LEVELS.index(level) if level in LEVELS else -1)
        new = 0
        for event in game.events:
            if isinstance(event, GameWon):
                name = f"{table}/{event.game}"
                if name in self.counted:
                    continue
                won = event.side == side
                for tally in (self.total, self.by_level.setdefault(strongest, Tally()),
                              self.by_variant.setdefault(rules.variant.value, Tally())):
                    tally.add(won, event.skunk)
                self._remember(name)
                new += 1
            elif isinstance(event, MatchWon) and rules.match_games > 1:
                name = f"{table}/match"
                if name not in self.counted:
                    self.matches += 1
                    self.match_wins += event.side == side
                    self._remember(name)
        return new

    def _remember(self, name: str) -> None:
        self.counted.append(name)
        del self.counted[:-_KEPT_IDS]

    def summary(self) -> list[str]:
        """The record in sentences: the totals, then by opponent strength, by variant and matches."""
        total = self.total
        if not total.games:
            return ["No games finished yet."]
        lines = [f"{_games(total.games).capitalize()} finished; you won {_none(total.wins)}, "
                 f"{number_words(round(100 * total.wins / total.games))} percent. {_skunks(total)}"]
        levels = sorted(self.by_level.items(), key=lambda item: LEVELS.index(item[0]) if item[0] in LEVELS else 9)
        lines.append("By the strongest opponent: " + "; ".join(
            f"{level}, {_games(t.games)}, won {_none(t.wins)}" for level, t in levels) + ".")
        lines.append("By variant: " + "; ".join(
            f"{variant}, {_games(t.games)}, won {_none(t.wins)}" for variant, t in sorted(
                self.by_variant.items())) + ".")
        if self.matches:
            lines.append(f"Matches: {number_words(self.matches)}, you won {_none(self.match_wins)}.")
        return lines

    def to_json(self) -> dict[str, Any]:
        """Everything, by name (the file adds its version)."""
        return {"total": self.total.to_json(),
                "by_level": {k: v.to_json() for k, v in self.by_level.items()},
                "by_variant": {k: v.to_json() for k, v in self.by_variant.items()},
                "matches": self.matches, "match_wins": self.match_wins, "counted": list(self.counted)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Statistics:
        """The inverse of `to_json`; ValueError on anything malformed."""
        by_level, by_variant = data.get("by_level", {}), data.get("by_variant", {})
        counted = data.get("counted", [])
        if not isinstance(by_level, dict) or not isinstance(by_variant, dict) or not isinstance(counted, list):
            raise ValueError("the statistics are not in their usual shape")
        if not set(by_level) <= set(LEVELS) or not set(by_variant) <= {v.value for v in Variant}:
            raise ValueError("the statistics name a level or a variant audiocrib does not have")
        if len(counted) > _KEPT_IDS or not all(
                isinstance(name, str) and len(name) <= 100 and printable(name) for name in counted):
            raise ValueError("the games counted are not audiocrib's names for games")
        matches, match_wins = data.get("matches", 0), data.get("match_wins", 0)
        if not (type(matches) is int and type(match_wins) is int and 0 <= match_wins <= matches <= MOST_GAMES):
            raise ValueError("the match counts do not add up")
        stats = cls(total=Tally.from_json(data.get("total", {})),
                    by_level={k: Tally.from_json(v) for k, v in by_level.items()},
                    by_variant={k: Tally.from_json(v) for k, v in by_variant.items()},
                    matches=matches, match_wins=match_wins, counted=list(counted))
        for part in (stats.by_level, stats.by_variant):  # every game is counted in each
            if [sum(getattr(t, name) for t in part.values()) for name in ("games", "wins")] != [
                    stats.total.games, stats.total.wins]:
                raise ValueError("the statistics by level or variant do not add up to the total")
        return stats


def _games(n: int) -> str:
    return f"{number_words(n)} game" + ("" if n == 1 else "s")


def _skunks(tally: Tally) -> str:
    """Skunks each way, lurches among them: "You skunked your opponents twice (once a double skunk), and you were
    never skunked."."""
    given = (f"you skunked your opponents {_times(tally.skunks_given)}{_doubles(tally.doubles_given)}"
             if tally.skunks_given else "you never skunked your opponents")
    taken = (f"you were skunked {_times(tally.skunked)}{_doubles(tally.doubled)}" if tally.skunked
             else "you were never skunked")
    return f"{given[0].upper()}{given[1:]}, and {taken}."


def _doubles(n: int) -> str:
    return f" ({'once' if n == 1 else _times(n)} a double skunk)" if n else ""


def _times(n: int) -> str:
    """How often, as said: "never", "once", "twice", "three times"."""
    return {0: "never", 1: "once", 2: "twice"}.get(n, f"{number_words(n)} times")


def _none(n: int) -> str:
    return number_words(n) if n else "none"
