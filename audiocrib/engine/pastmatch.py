"""A match that is over, as the list of past matches and a replay need it: where and when it was played, its rules,
the seats' names and its whole log with every card. After the match every hand may be shown; the seed is never
part of it (a server's match is replayed from its log alone: `Game` folds the events, dealing nothing).

"""

from __future__ import annotations

from dataclasses import dataclass, field

from audiocrib.engine.events import Event, GameWon, MatchWon
from audiocrib.engine.game import Game
from audiocrib.engine.rules import Rules
from audiocrib.engine.views import PlayerView

__all__ = ["MatchResult", "PastMatch"]


@dataclass(frozen=True, slots=True)
class MatchResult:
    """How a match ended: the winning side, each side's games won (``match_scores``, game points with skunks) and
    each side's points in the last game."""

    side: int
    match_scores: tuple[int, ...]
    last_scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PastMatch:
    """A match over: ``seat`` is the seat it is heard from (the player's own, or `watcher_seat` for a match they
    did not play), ``ended`` when it ended (seconds since the epoch), ``place`` where it was played, as said ("on
    this computer", "table 12 on example.org")."""

    rules: Rules
    names: tuple[str, ...]
    events: tuple[Event, ...]
    seat: int
    ended: float
    place: str
    manual_seats: frozenset[int] = field(default_factory=frozenset)
    auto_go: bool = True

    @property
    def result(self) -> MatchResult | None:
        """How the match ended, or None for a log with no match won (a match cut short is not a past match)."""
        last_game: GameWon | None = None
        for event in reversed(self.events):
            if isinstance(event, GameWon):
                last_game = event
                break
        won = next((e for e in reversed(self.events) if isinstance(e, MatchWon)), None)
        if won is None or last_game is None:
            return None
        return MatchResult(won.side, won.match_scores, last_game.scores)

    def game_at(self, n: int) -> Game:
        """The match as it stood after its first ``n`` events (folded from the log; no card is dealt afresh)."""
        return Game(self.rules, self.names, 0, self.manual_seats, self.auto_go, _events=self.events[:n])

    def view_at(self, n: int, seat: int | None = None) -> PlayerView:
        """``seat``'s view (this match's own seat when None) after the first ``n`` events."""
        return self.game_at(n).view(self.seat if seat is None else seat)
