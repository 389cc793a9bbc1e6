"""The player protocol: what the game asks of every participant, human or computer, and the loop that asks.

A player answers from its own `PlayerView` only: which cards to lay away, which card to play, and (with manual
counting) what its hand is worth. The game says go for a player who cannot play, so a player is asked to play only
when it holds a card that fits. A computer player from outside the package is named ``module:Class``.

>>> from audiocrib.engine.game import Game
>>> from audiocrib.bots.beginner import Beginner
>>> game = Game(seed=1)
>>> finished = drive(game, [Beginner(seed=1), Beginner(seed=2)])
>>> finished.over
True
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from audiocrib.engine.actions import Action, ClaimCount, Discard, Go, Play
from audiocrib.engine.cards import Card
from audiocrib.engine.errors import AudiocribError
from audiocrib.engine.game import Game, Phase
from audiocrib.engine.views import PlayerView

__all__ = ["Player", "PlayerError", "drive", "load_player", "next_action"]


class PlayerError(AudiocribError):
    """A player could not be loaded, or answered with something that is not a move."""


@runtime_checkable
class Player(Protocol):
    """What the game asks a participant. Every method gets the seat's view and nothing else."""

    def discard(self, view: PlayerView) -> tuple[Card, ...]:
        """The cards to lay away to the crib: ``view.must_discard`` of them, from ``view.hand``."""
        ...

    def play(self, view: PlayerView) -> Card:
        """The card to lay in the play: one of ``view.playable`` (never empty when asked)."""
        ...

    def count(self, view: PlayerView) -> int:
        """Manual counting: the points claimed for the hand being counted (``view.counting``)."""
        ...


def next_action(game: Game, seat: int, player: Player) -> Action:
    """Ask ``player`` for ``seat``'s next move in ``game`` and wrap it as an action."""
    view = game.view(seat)
    if game.phase is Phase.DISCARD:
        return Discard(seat, tuple(player.discard(view)))
    if game.phase is Phase.PLAY:
        if not view.playable:
            return Go(seat)
        return Play(seat, player.play(view))
    if game.phase is Phase.COUNT:
        return ClaimCount(seat, player.count(view))
    raise PlayerError(f"Nothing is asked of a player in the {game.phase.value} phase.")


def drive(game: Game, players: Sequence[Player], until_deals: int | None = None) -> Game:
    """Play ``game`` to the end of the match with ``players`` in seat order (or until ``until_deals`` deals).

    Seats are asked in seat order whenever several are waiting (the discard). A player's illegal answer
    raises `IllegalActionError` from the game, as it would for a person.
    """
    if len(players) != game.rules.players:
        raise PlayerError(f"This table needs {game.rules.players} players, not {len(players)}.")
    while not game.over:
        if until_deals is not None and game.deal_number > until_deals:
            break
        seat = min(game.waiting_for())
        game.apply(next_action(game, seat, players[seat]))
    return game


def load_player(name: str, **options: object) -> Player:
    """A computer player by level name (``beginner``, ``easy``, ...) or ``module:Class`` from anywhere.

    >>> type(load_player("easy")).__name__
    'Easy'
    >>> load_player("nowhere:Nobody")
    Traceback (most recent call last):
    ...
    audiocrib.bots.player.PlayerError: There is no player called nowhere:Nobody.
    """
    from audiocrib.bots.levels import LEVELS

    if ":" not in name:
        cls = LEVELS.get(name.lower())
        if cls is None:
            levels = ", ".join(LEVELS)
            raise PlayerError(f"There is no computer player called {name}; the levels are {levels}.")
        return cls(**options)  # type: ignore[arg-type]  # options are each level's own
    module_name, _, class_name = name.partition(":")
    try:
        cls = getattr(importlib.import_module(module_name), class_name)
        player = cls(**options)
    except (ImportError, AttributeError, TypeError, ValueError) as error:
        raise PlayerError(f"There is no player called {name}.") from error
    if not isinstance(player, Player):
        raise PlayerError(f"{name} does not have the discard, play and count methods of a player.")
    return player
