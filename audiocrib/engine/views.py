"""A player's view: their own cards plus what is public at this moment, and nothing else.

The shell and the computer players work only from views. A view holds no reference to the game, so nothing
hidden (other hands, the crib before it is shown, the stock) can be reached through it.

>>> from audiocrib.engine.game import Game
>>> view = Game(seed=3).view(1)
>>> len(view.hand), view.held, view.starter is None
(6, (6, 6), True)
"""

from __future__ import annotations

from dataclasses import dataclass

from audiocrib.engine.cards import Card
from audiocrib.engine.events import CountRequested, Dealt, Event, HandShown
from audiocrib.engine.phase import Phase
from audiocrib.engine.rules import Rules
from audiocrib.engine.state import GameState

__all__ = ["PlayerView", "make_view", "watcher_seat"]


def watcher_seat(rules: Rules) -> int:
    """The seat a watcher's view is seen from: one past the table's last seat, a seat that holds no cards, so that
    every event is seen with every hidden card removed (``seen_by``) and indexing any seat's list by it fails
    loudly rather than reading another seat's."""
    return rules.players


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What one seat may know. ``events`` is the log as this seat saw it (hidden cards removed).

    A watcher's view (`watching`) is seen from `watcher_seat`: it holds no cards and is never waited on."""

    seat: int
    names: tuple[str, ...]
    rules: Rules
    phase: Phase
    game_number: int
    deal_number: int
    dealer: int
    scores: tuple[int, ...]
    match_scores: tuple[int, ...]
    hand: tuple[Card, ...]
    """The cards this seat holds now."""
    kept: tuple[Card, ...]
    """The hand this seat kept after laying away (what the show counts); () until everyone has laid away."""
    discards: tuple[Card, ...] | None
    """What this seat laid away this deal, or None if not yet."""
    laid_away: tuple[bool, ...]
    """For each seat, whether it has laid its cards away this deal."""
    starter: Card | None
    count: int
    series: tuple[tuple[int, Card], ...]
    """The current series: ``(seat, card)`` in the order laid."""
    played: tuple[tuple[Card, ...], ...]
    """Each seat's cards laid in this deal's play."""
    held: tuple[int, ...]
    """How many cards each seat holds now."""
    said_go: frozenset[int]
    turn: int | None
    playable: tuple[Card, ...]
    """The cards this seat may lay now (empty unless it is their turn)."""
    counting: tuple[int, bool] | None
    """``(seat, crib)`` while a manual count is awaited."""
    claiming: int | None
    """Manual pegging: the seat that must claim the points of the card it has just laid, else None."""
    crib: tuple[Card, ...] | None
    """The crib, once it is being counted or has been shown this deal; else None."""
    events: tuple[Event, ...]

    @property
    def watching(self) -> bool:
        """True for a watcher's view: a listener who holds no cards and sits at no seat."""
        return self.seat >= self.rules.players

    @property
    def side(self) -> int:
        """This seat's side (team, or the player alone); for a watcher, one past the last side (no side's)."""
        return self.rules.sides if self.watching else self.rules.side_of(self.seat)

    @property
    def my_turn(self) -> bool:
        """True when the game waits for this seat to play a card."""
        return self.turn == self.seat

    @property
    def my_crib(self) -> bool:
        """True when the crib belongs to this seat's side."""
        return self.rules.side_of(self.dealer) == self.side

    @property
    def must_discard(self) -> int:
        """How many cards this seat must still lay away (0 once done, or outside the discard)."""
        if self.phase is not Phase.DISCARD or self.watching or self.laid_away[self.seat]:
            return 0
        return self.rules.shape.discards_of(self.seat == self.dealer)


_SHOWING = (HandShown, CountRequested)
"""Events that show the crib when their ``crib`` is true (a tuple made once: ``A | B`` makes a new union object
each time it is written)."""


def make_view(game: GameState, seat: int, events: tuple[Event, ...]) -> PlayerView:
    """Build ``seat``'s view of ``game`` (a `Game`); ``events`` is the log already redacted for that seat.
    ``seat`` may be `watcher_seat`: a view with no cards of its own."""
    crib: tuple[Card, ...] | None = None
    for event in reversed(events):
        if isinstance(event, _SHOWING) and event.crib:
            crib = event.cards
            break
        if isinstance(event, Dealt):
            break
    players = range(game.rules.players)
    watching = seat >= game.rules.players
    return PlayerView(
        seat=seat,
        names=game.names,
        rules=game.rules,
        phase=game.phase,
        game_number=game.game_number,
        deal_number=game.deal_number,
        dealer=game.dealer,
        scores=game.scores,
        match_scores=game.match_scores,
        hand=() if watching else game.hand(seat),
        kept=() if watching else game.kept(seat),
        discards=None if watching else game.discards(seat),
        laid_away=tuple(game.discards(s) is not None for s in players),
        starter=game.starter,
        count=game.count,
        series=game.series,
        played=tuple(game.played(s) for s in players),
        held=tuple(len(game.hand(s)) for s in players),
        said_go=game.said_go,
        turn=game.turn,
        playable=() if watching else game.playable(seat),
        counting=game.counting,
        claiming=game.claiming,
        crib=crib,
        events=events,
    )
