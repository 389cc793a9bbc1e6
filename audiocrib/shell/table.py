"""What the shell needs from a game in progress, and nothing more: the `Table` it plays at.

The shell narrates, answers keys and sends the player's moves; a table holds the game. It may be played in this
process (`audiocrib.shell.offline.OfflineTable`: the `Game`, the computer players and the autosave) or anywhere
else: nothing here gives the shell the game itself, its seed, or any seat's view but the player's own. The legal
moves are in the view (``playable``, ``must_discard``, ``counting``, ``claiming``); a move that is not legal is
refused by `Table.send` with one sentence.

The view carries the events: ``view().events`` is everything the player's seat has been told of, in order, and the
shell narrates those past its own place (`Heard`). The limit on a count is in the view's rules
(``rules.count_timer``): the shell times it (the clock stops while the game menu is open) and sends `CountTimeout`
when it runs out, unless the table keeps the clock itself (`Table.count_time`), as a table played elsewhere does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from audiocrib.engine.actions import Action
from audiocrib.engine.game import Phase
from audiocrib.engine.views import PlayerView

__all__ = ["Heard", "Table"]


@dataclass(frozen=True, slots=True)
class Heard:
    """How far the player has heard the game: ``told`` events narrated in order, ``early`` ones told ahead of their
    place (during a pause), and ``passed``, the pause point the player went on from (-1: none)."""

    told: int
    early: frozenset[int]
    passed: int


class Table(Protocol):
    """A game in progress, as the player's seat sees and plays it."""

    @property
    def name(self) -> str:
        """This table's own name, so the statistics count each of its games once."""

    @property
    def levels(self) -> tuple[str, ...]:
        """The computer players' levels, in seat order from seat 1 (for the statistics)."""

    @property
    def phase(self) -> Phase:
        """Where the game is (`Phase.MATCH_OVER` once it is won)."""

    def waiting_for(self) -> frozenset[int]:
        """The seats the game waits on: the player's own (0), or others' (a computer player, or a person)."""

    def view(self) -> PlayerView:
        """The player's view now, with every event the seat has been told of."""

    def view_after(self, told: int, early: frozenset[int]) -> PlayerView:
        """The player's view as it stood after the first ``told`` events, then those at ``early`` (later ones the
        player already heard): the game as it was at a pause the player is looking back on."""

    def send(self, action: Action) -> str | None:
        """Make the player's move: None once made, or the one sentence that refuses it (then nothing changed).
        The shell narrates its own move's news itself: the news callback is for the others' moves."""

    def count_time(self) -> float | None:
        """Seconds left for the player's count now asked, when the table keeps the counting clock itself (a table
        played elsewhere, whose clock is the one that counts): the shell then says the warnings and answers ``t``
        from it, does not stop it while the game menu is open, and sends no `CountTimeout` (the table's own
        timeout comes as news). None: the table leaves the clock to the shell, which times ``rules.count_timer``
        and sends `CountTimeout` when it runs out."""

    def advice_allowed(self) -> bool:
        """Whether the coach's advice may be asked for here (always at a table of one person and computer
        players; at a table of people, as its host chose)."""
        ...

    def move_time(self) -> tuple[int, float] | None:
        """At a table with a move time limit (kept elsewhere): the seat whose move is waited on (the player's own
        when it is theirs) and the seconds it has left; None without one."""

    def caught_up(self) -> bool:
        """The player has heard every event and is not looking back at a pause: the computer players may lay away
        now (so a muggins call stays open until the player goes on). True if anything happened."""

    def hurry(self) -> None:
        """A key was pressed: the computer players' next move comes without its pause."""

    def listen(self, news: Callable[[], None]) -> None:
        """Call ``news`` (on the event loop) whenever another player's move has changed the game."""

    async def others_move(self, pace: float, ready: Callable[[], bool]) -> None:
        """Wait for the next move of another player and make it (the news callback then runs): a computer player
        moves after ``pace`` seconds (at once when hurried), and only while ``ready()`` (the player is at the table
        and not at a pause) still holds."""

    def keep(self, heard: Heard, moment: str, history: tuple[str, ...]) -> None:
        """Keep the game in progress with how far the player has heard it, the shell's moment and the messages
        heard (a table with nowhere to keep it does nothing); once the match is over, let it go. OSError if the
        file cannot be written."""
