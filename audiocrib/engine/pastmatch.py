"""A match that is over, as the list of past matches and a replay need it: where and when it was played, its rules,
the seats' names and its whole log with every card. After the match every hand may be shown; the seed is never
part of it (a server's match is replayed from its log alone: `Game` folds the events, dealing nothing).

"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from audiocrib.engine.cards import Card
from audiocrib.engine.events import (
    CutForDeal,
    Dealt,
    Discarded,
    Event,
    GameStarted,
    GameWon,
    MatchWon,
    MugginsCalled,
    PointsGiven,
    StarterCut,
    ThreeForLast,
)
from audiocrib.engine.game import Game
from audiocrib.engine.rules import Rules
from audiocrib.engine.views import PlayerView

__all__ = ["DealHands", "Hearing", "MatchResult", "PastMatch"]


@dataclass(frozen=True, slots=True)
class MatchResult:
    """How a match ended: the winning side, each side's games won (``match_scores``, game points with skunks) and
    each side's points in the last game."""

    side: int
    match_scores: tuple[int, ...]
    last_scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DealHands:
    """Every hand of one deal, as all may be shown once the match is over: what each seat was ``dealt``, what it
    ``laid_away`` (empty for a seat that had not yet), the ``crib`` as far as it is known (the cards laid away, and
    any dealt straight to it), and the ``starter`` once cut."""

    game: int
    deal: int
    dealer: int
    dealt: tuple[tuple[Card, ...], ...]
    laid_away: tuple[tuple[Card, ...], ...]
    crib: tuple[Card, ...]
    starter: Card | None

    def kept(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` kept for the play and the show (all it was dealt, before it laid away)."""
        return tuple(card for card in self.dealt[seat] if card not in self.laid_away[seat])


@dataclass(frozen=True, slots=True)
class Hearing:
    """The order in which a seat heard a match: ``order`` the log's indexes as told (a muggins call made at the
    pause before a deal already dealt is heard before that deal; a deal voided by a game the call won is never
    heard), and ``pauses`` the places in that order where the game stopped for the player to go over a show."""

    order: tuple[int, ...]
    pauses: tuple[int, ...]

    def covered(self, steps: int) -> tuple[int, tuple[int, ...]]:
        """The game as heard after the first ``steps`` of the order, as `PastMatch.game_at` takes it: the log's
        first ``n`` events (those never heard within them included, as the game holds them) and the later ones
        heard already."""
        told, heard = set(self.order[:steps]), set(self.order)
        last = max(told, default=-1)
        n = 0
        while n in told or (n not in heard and n < last):
            n += 1
        return n, tuple(sorted(i for i in told if i >= n))


def _a_call(event: Event) -> bool:
    """True for the events of a muggins call (a call that takes points, or a wrong one that gives them)."""
    return isinstance(event, MugginsCalled) or (isinstance(event, PointsGiven) and event.reason == "wrong muggins")


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
    levels: tuple[str, ...] = ()
    """Each seat's computer player level ("expert"), "" for a person; empty when not known (a server's match)."""

    @classmethod
    def of(cls, game: Game, seat: int, ended: float, place: str, levels: tuple[str, ...] = ()) -> PastMatch:
        """The match ``game`` (over), heard from ``seat``."""
        return cls(game.rules, game.names, game.events, seat, ended, place, game.manual_seats, game.auto_go, levels)

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

    def game_at(self, n: int, also: Iterable[int] = ()) -> Game:
        """The match as it stood after its first ``n`` events (folded from the log; no card is dealt afresh), then
        the events at the indexes ``also`` (later ones heard first: a muggins call made at the pause before a deal
        already dealt, as `Game.at` takes them)."""
        events = [*self.events[:n], *(self.events[i] for i in sorted(also))]
        return Game(self.rules, self.names, 0, self.manual_seats, self.auto_go, _events=events)

    def view_at(self, n: int, seat: int | None = None, also: Iterable[int] = ()) -> PlayerView:
        """``seat``'s view (this match's own seat when None) after the first ``n`` events, and those at ``also``."""
        return self.game_at(n, also).view(self.seat if seat is None else seat)

    @property
    def watched(self) -> bool:
        """True when it is heard from the watchers' seat (a match the listener did not play)."""
        return self.seat >= self.rules.players

    def deal_starts(self) -> tuple[int, ...]:
        """The index in the log of each deal's `Dealt`, in order."""
        return tuple(i for i, event in enumerate(self.events) if isinstance(event, Dealt))

    def pauses(self) -> tuple[int, ...]:
        """The places in the log where the game stopped for the player to go over a show (as the shell pauses):
        before each deal but a game's first, and before each game but the first."""
        stops = []
        for index, event in enumerate(self.events):
            if index == 0:
                continue
            if isinstance(event, GameStarted) and event.game > 1:
                stops.append(index)
            elif isinstance(event, Dealt) and not isinstance(self.events[index - 1],
                                                             GameStarted | ThreeForLast | CutForDeal):
                stops.append(index)
        return tuple(stops)

    def hearing(self) -> Hearing:
        """The order its seat heard the log in, as the shell tells a game (see `Hearing`)."""
        events, pauses = self.events, set(self.pauses())
        order: list[int] = []
        stops: list[int] = []
        index = 0
        while index < len(events):
            if index in pauses:
                stops.append(len(order))
                calls = index + 1
                while isinstance(events[index], Dealt) and calls < len(events) and _a_call(events[calls]):
                    calls += 1
                if calls > index + 1 and calls < len(events) and isinstance(events[calls], GameWon):
                    end = calls  # the call won the game: what followed it is heard with it, the deal never
                    while end < len(events) - 1 and not isinstance(events[end], Dealt | MatchWon):
                        end += 1
                    order += range(index + 1, end + 1)
                    index = end + 1
                    continue
                if calls > index + 1:  # heard during the pause, before the deal
                    order += [*range(index + 1, calls), index]
                    index = calls
                    continue
            order.append(index)
            index += 1
        return Hearing(tuple(order), tuple(stops))

    def match_end(self) -> int:
        """The index of the `MatchWon` that ends the log (its length when there is none)."""
        return next((i for i in range(len(self.events) - 1, -1, -1) if isinstance(self.events[i], MatchWon)),
                    len(self.events))

    def hands_at(self, n: int) -> DealHands | None:
        """Every hand of the deal under way after the first ``n`` events (the deal just shown, at a pause), with
        what was laid away in all of it; None before the first deal."""
        start = next((i for i in range(min(n, len(self.events)) - 1, -1, -1)
                      if isinstance(self.events[i], Dealt)), None)
        if start is None:
            return None
        dealt = self.events[start]
        assert isinstance(dealt, Dealt)
        game = sum(1 for event in self.events[:start] if isinstance(event, GameStarted))
        laid: list[tuple[Card, ...]] = [() for _ in dealt.hands]
        crib = list(dealt.crib)
        starter: Card | None = None
        for event in self.events[start + 1:]:
            if isinstance(event, Dealt | GameStarted):
                break
            if isinstance(event, Discarded):
                laid[event.seat] = event.cards
                crib += event.cards
            elif isinstance(event, StarterCut):
                starter = event.card
        return DealHands(max(game, 1), dealt.deal, dealt.dealer, dealt.hands, tuple(laid), tuple(crib), starter)
