"""The table played in this process: the `Game`, the computer players in their worker thread, and the autosave.

>>> from audiocrib.engine.rules import Rules
>>> table = OfflineTable.new(Rules(), ("You", "Ann"), ("easy",), seed=4, save_path=None)
>>> table.view().phase.value, table.waiting_for() == {0, 1}
('discard', True)
>>> table.caught_up(), table.waiting_for() == {0}
(True, True)
>>> table.send(Discard(0, ()))
'Lay away exactly two cards to the crib.'
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from pathlib import Path

from audiocrib.bots.levels import COUNT_MISTAKES
from audiocrib.bots.player import Player, load_player
from audiocrib.engine.actions import Action, ClaimCount, Discard, Go, Play
from audiocrib.engine.errors import IllegalActionError
from audiocrib.engine.game import Game, Phase
from audiocrib.engine.rules import Rules
from audiocrib.engine.scoring import score_play
from audiocrib.engine.views import PlayerView
from audiocrib.shell import files
from audiocrib.shell.savedgame import SEAT, SavedTable
from audiocrib.shell.table import Heard

__all__ = ["OfflineTable"]

_TICK = 0.02
"""How often the pause before a computer player's move looks whether it was hurried."""


class OfflineTable:
    """A `Table` whose game runs here: ``game`` (for tests and tools that check the game itself: the shell never
    reads it), the computer players at the other seats, and the game kept at ``save_path`` (None: not kept)."""

    def __init__(self, saved: SavedTable, save_path: Path | None) -> None:
        self.game = saved.game
        self._levels = saved.levels
        self._name = saved.table
        self.save_path = save_path
        mistakes = COUNT_MISTAKES if self.game.rules.muggins else 0.0
        self.players: list[Player | None] = [
            None, *(load_player(level, seed=self.game.seed * 8 + seat, count_mistakes=mistakes)
                    for seat, level in enumerate(saved.levels, start=1))]
        self.hurried = False
        self._news: Callable[[], None] = lambda: None

    @classmethod
    def new(cls, rules: Rules, names: tuple[str, ...], levels: tuple[str, ...], seed: int | None,
            save_path: Path | None) -> OfflineTable:
        """A new game at ``rules``, the player at seat 0 and computer players of ``levels`` at the others."""
        game = Game(rules, names, seed=seed, manual_seats=(SEAT,))
        return cls(SavedTable(game, levels, 0, frozenset(), -1, secrets.token_hex(8), ()), save_path)

    # ------------------------------------------------------------ the Table
    @property
    def name(self) -> str:
        """This table's own name (kept with the game, so a resumed game is counted once)."""
        return self._name

    @property
    def levels(self) -> tuple[str, ...]:
        """The computer players' levels, from seat 1."""
        return self._levels

    @property
    def phase(self) -> Phase:
        """Where the game is."""
        return self.game.phase

    def waiting_for(self) -> frozenset[int]:
        """The seats the game waits on."""
        return self.game.waiting_for()

    def view(self) -> PlayerView:
        """The player's view now."""
        return self.game.view(SEAT)

    def view_after(self, told: int, early: frozenset[int]) -> PlayerView:
        """The player's view after the first ``told`` events and those at ``early``."""
        return self.game.at(told, {i for i in early if i >= told}).view(SEAT)

    def send(self, action: Action) -> str | None:
        """Make the player's move, or say why not."""
        try:
            self.game.apply(action)
        except IllegalActionError as error:
            return str(error)
        self.hurried = False
        return None

    def count_time(self) -> float | None:
        """None: the shell keeps the counting clock here, and pauses it while the game menu is open."""
        return None

    def advice_allowed(self) -> bool:
        """True: a table of one person and computer players."""
        return True

    def move_time(self) -> tuple[int, float] | None:
        """None: a game on this computer has no move time limit."""
        return None

    def caught_up(self) -> bool:
        """The computer players lay away at once (not paced: everyone lays away together); True if any did."""
        game = self.game
        bots = sorted(s for s in game.waiting_for() if s != SEAT) if game.phase is Phase.DISCARD else []
        for seat in bots:
            player = self._bot(seat)
            game.apply(Discard(seat, tuple(player.discard(game.view(seat)))))
            self.hurried = False
        return bool(bots)

    def hurry(self) -> None:
        """The next computer player's move comes without its pause."""
        self.hurried = True

    def listen(self, news: Callable[[], None]) -> None:
        """``news`` is called after each computer player's paced move."""
        self._news = news

    async def others_move(self, pace: float, ready: Callable[[], bool]) -> None:
        """After the pause (unless hurried: the flag is cleared as the game moves, so a key pressed just before now
        counts), decide the move off the event loop so keys stay quick, and make it if still due."""
        waited = 0.0
        while waited < pace and not self.hurried:
            await asyncio.sleep(_TICK)
            waited += _TICK
        if not ready():
            return
        stamp, action = await asyncio.get_running_loop().run_in_executor(None, self.bot_move)
        self.apply_bot_move(stamp, action, ready)

    def keep(self, heard: Heard, moment: str, history: tuple[str, ...]) -> None:
        """Write the game in progress (or, once the match is over, delete it)."""
        path = self.save_path
        if path is None:
            return
        if self.game.over:
            files.remove(path)
            return
        saved = SavedTable(self.game, self._levels, heard.told, heard.early, heard.passed, self._name, history)
        files.save(path, saved.dumps(moment))

    # ------------------------------------------------------------ the computer players
    def _bot(self, seat: int) -> Player:
        """The computer player at ``seat``, its random source set from the position (so a resumed game goes on
        exactly as it would have: the same cards to come and the same choices)."""
        player = self.players[seat]
        assert player is not None
        reseed: Callable[..., None] | None = getattr(player, "reseed", None)
        if reseed is not None:
            reseed(self.game.seed, seat, len(self.game.events))
        return player

    def bot_move(self) -> tuple[int, Action]:
        """The next computer player's move, decided from its own view; (events so far, action).

        Safe to run off the event loop: it only reads. `apply_bot_move` checks the game has not moved since.
        """
        seat = min(self.game.waiting_for())
        player = self._bot(seat)
        stamp = len(self.game.events)
        view = self.game.view(seat)
        if self.game.phase is Phase.PLAY:
            return stamp, (Play(seat, player.play(view)) if view.playable else Go(seat))
        if self.game.phase is Phase.PEG_CLAIM:  # a seat claiming by hand: it claims the true points
            return stamp, ClaimCount(seat, score_play([card for _, card in view.series]).total)
        if self.game.phase is Phase.COUNT:
            return stamp, ClaimCount(seat, player.count(view))
        return stamp, Discard(seat, tuple(player.discard(view)))

    def apply_bot_move(self, stamp: int, action: Action, ready: Callable[[], bool]) -> None:
        """Apply a move from `bot_move` if the game is still where it was and the player still waits for it, and
        tell the shell."""
        if len(self.game.events) != stamp or not ready():
            return
        self.game.apply(action)
        self.hurried = False
        self._news()
