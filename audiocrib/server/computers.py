"""The computer players of one table: each made once for its seat and level, and asked for its move from that
seat's own view, its random source set afresh before each move from the game's seed, the seat and the number of
events (as offline), so a server started again makes the same choices."""

from __future__ import annotations

from audiocrib.bots.levels import COUNT_MISTAKES
from audiocrib.bots.player import Player, load_player
from audiocrib.engine.actions import Action, ClaimCount, Discard, Go, Play
from audiocrib.engine.game import Game, Phase
from audiocrib.engine.scoring import score_play

__all__ = ["Computers"]


class Computers:
    """A table's computer players by (seat, level)."""

    def __init__(self) -> None:
        self._players: dict[tuple[int, str], Player] = {}

    def choice(self, game: Game, seat: int, level: str) -> tuple[int, Action]:
        """The move a computer player of ``level`` makes at ``seat`` now: (events so far, move). Only reads the
        game, so it may run off the event loop."""
        player = self._players.get((seat, level))
        if player is None:
            mistakes = COUNT_MISTAKES if game.rules.muggins else 0.0
            player = load_player(level, seed=game.seed * 8 + seat, count_mistakes=mistakes)
            self._players[seat, level] = player
        reseed = getattr(player, "reseed", None)
        if reseed is not None:
            reseed(game.seed, seat, len(game.events))
        stamp, view = len(game.events), game.view(seat)
        if game.phase is Phase.DISCARD:
            return stamp, Discard(seat, tuple(player.discard(view)))
        if game.phase is Phase.PLAY:
            return stamp, (Play(seat, player.play(view)) if view.playable else Go(seat))
        if game.phase is Phase.PEG_CLAIM:  # keeping a person's seat that pegs by hand: it claims the true points
            return stamp, ClaimCount(seat, score_play([card for _, card in view.series]).total)
        return stamp, ClaimCount(seat, player.count(view))
