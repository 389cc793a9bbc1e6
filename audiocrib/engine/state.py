"""The state of a match at one moment, and what may be read of it: the phase, the scores, every hand.

`Game` is this state and the machine that moves it: `Game._fold`, the only place the state changes, writes
the fields set here. Players never read it; they get a `PlayerView` built from it.
"""

from __future__ import annotations

from audiocrib.engine.cards import Card
from audiocrib.engine.events import Event
from audiocrib.engine.phase import Phase
from audiocrib.engine.rules import Rules

__all__ = ["GameState"]


class GameState:
    """A match at one moment: rules, seats, seed and settings, the log so far, and the state it folds into.

    ``manual_seats`` and ``auto_go`` are the table's settings, as `Game` takes them.
    """

    def __init__(
        self, rules: Rules, names: tuple[str, ...], seed: int, manual_seats: frozenset[int], auto_go: bool
    ) -> None:
        self.rules = rules
        self.names = names
        self.seed = seed
        self.manual_seats = manual_seats
        self.auto_go = auto_go
        n, sides = rules.players, rules.sides
        self._log: list[Event] = []
        self._phase = Phase.CUT_FOR_DEAL
        self._cutting: tuple[int, ...] = tuple(range(n))
        self._cuts = 0
        self._first_dealer: int | None = None
        self._game_no = 0
        self._deal_no = 0
        self._dealer = 0
        self._scores = [0] * sides
        self._match = [0] * sides
        self._hands: list[list[Card]] = [[] for _ in range(n)]
        self._kept: list[tuple[Card, ...]] = [() for _ in range(n)]
        self._discards: list[tuple[Card, ...] | None] = [None] * n
        self._crib: list[Card] = []
        self._stock: list[Card] = []
        self._starter: Card | None = None
        self._count = 0
        self._series: list[tuple[int, Card]] = []
        self._played: list[list[Card]] = [[] for _ in range(n)]
        self._out: set[int] = set()
        self._turn: int | None = None
        self._last_player: int | None = None
        self._last_card_scored = False
        self._claimant: int | None = None
        """Manual pegging: the seat that must claim the points of the card it has just laid."""
        self._show: list[tuple[int, bool]] = []
        self._winner: int | None = None
        self._muggins_open = False
        """Muggins may be called: from the first hand shown until the next deal's first discard."""
        self._missed: list[tuple[int, bool, int]] = []
        """Short counts open to a muggins call: (seat, crib, points missed)."""
        self._taken: list[tuple[int, bool, int]] = []
        """Short counts already taken by a muggins call, since the last deal's first discard."""
        self._called_wrong: set[int] = set()
        """The sides that paid for a wrong muggins call since the last hand was shown."""

    # ----------------------------------------------------------------- public reading
    @property
    def phase(self) -> Phase:
        """Where the game rests now."""
        return self._phase

    @property
    def events(self) -> tuple[Event, ...]:
        """The whole log, hidden cards included (for saves and replays, never for players)."""
        return tuple(self._log)

    @property
    def scores(self) -> tuple[int, ...]:
        """This game's score for each side."""
        return tuple(self._scores)

    @property
    def match_scores(self) -> tuple[int, ...]:
        """Game points won in the match by each side."""
        return tuple(self._match)

    @property
    def dealer(self) -> int:
        """The dealer's seat (the crib's owner)."""
        return self._dealer

    @property
    def turn(self) -> int | None:
        """Whose turn it is in the play, or None."""
        return self._turn if self._phase is Phase.PLAY else None

    @property
    def count(self) -> int:
        """The running count of the current series of the play."""
        return self._count

    @property
    def starter(self) -> Card | None:
        """The starter, once it has been cut."""
        return self._starter

    @property
    def game_number(self) -> int:
        """The number of the game in the match, from 1."""
        return self._game_no

    @property
    def deal_number(self) -> int:
        """The number of the deal in this game, from 1."""
        return self._deal_no

    @property
    def over(self) -> bool:
        """True once the match is won."""
        return self._phase is Phase.MATCH_OVER

    @property
    def counting(self) -> tuple[int, bool] | None:
        """``(seat, crib)`` while waiting for a manual count, else None."""
        if self._phase is Phase.COUNT:
            return self._show[0]
        return None

    @property
    def claiming(self) -> int | None:
        """Manual pegging: the seat that must claim the points of the card it has just laid, else None."""
        return self._claimant if self._phase is Phase.PEG_CLAIM else None

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds now (all seats' hands are visible here; players get `view` instead)."""
        return tuple(self._hands[seat])

    def playable(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` could lay now without passing 31 (empty unless it is their turn)."""
        if self._phase is not Phase.PLAY or self._turn != seat:
            return ()
        return tuple(c for c in self._hands[seat] if self._count + c.value <= 31)

    def crib_cards(self) -> tuple[Card, ...]:
        """The crib as it stands (hidden from players until it is shown)."""
        return tuple(sorted(self._crib))

    def discards(self, seat: int) -> tuple[Card, ...] | None:
        """What ``seat`` laid away this deal, or None if they have not yet."""
        return self._discards[seat]

    def kept(self, seat: int) -> tuple[Card, ...]:
        """The hand ``seat`` kept after laying away (what the show counts), or () before everyone has."""
        return self._kept[seat]

    def played(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` has laid in this deal's play, in order."""
        return tuple(self._played[seat])

    @property
    def series(self) -> tuple[tuple[int, Card], ...]:
        """The current series of the play: ``(seat, card)`` in the order laid."""
        return tuple(self._series)

    @property
    def said_go(self) -> frozenset[int]:
        """The seats that have said go in the current series."""
        return frozenset(self._out)

    @property
    def winner(self) -> int | None:
        """The side that won the last game, if any game is won."""
        return self._winner

    def _next_turn(self, after: int) -> int | None:
        """Whose turn follows ``after`` in the play, or None when the series is over: nobody else can play and
        the player who laid the last card cannot either (they take the last card without saying go)."""
        seat = self._next_active(after)
        if seat is not None and seat == self._last_player:
            if all(self._count + c.value > 31 for c in self._hands[seat]):
                return None
        return seat

    def _next_active(self, after: int) -> int | None:
        """The first seat clockwise after ``after`` (ending with ``after`` itself) that holds cards and has not
        said go in this series."""
        n = self.rules.players
        for step in range(1, n + 1):
            seat = (after + step) % n
            if self._hands[seat] and seat not in self._out:
                return seat
        return None

    def _show_cards(self, seat: int, crib: bool) -> tuple[Card, ...]:
        return tuple(sorted(self._crib)) if crib else self._kept[seat]

    def _counts_by_hand(self, seat: int) -> bool:
        """A person counting their own hands: their mistakes are settled at once."""
        return self.rules.manual_counting and seat in self.manual_seats

    def _pegs_by_hand(self, seat: int) -> bool:
        """A person calling the points of their own cards in the play."""
        return self.rules.manual_pegging and seat in self.manual_seats

    def _missed_by_opponents(self, seat: int) -> list[tuple[int, bool, int]]:
        side = self.rules.side_of(seat)
        return [m for m in self._missed if self.rules.side_of(m[0]) != side]

    def state_key(self) -> tuple[object, ...]:
        """Everything that makes up the state, for comparing two games."""
        return (
            self.rules, self.names, self.seed, self.manual_seats, self.auto_go, self._phase, self._cutting,
            self._cuts, self._first_dealer, self._game_no, self._deal_no, self._dealer, tuple(self._scores),
            tuple(self._match), tuple(map(tuple, self._hands)), tuple(self._kept), tuple(self._discards),
            tuple(self._crib), tuple(self._stock), self._starter, self._count, tuple(self._series),
            tuple(map(tuple, self._played)), frozenset(self._out), self._turn, self._last_player,
            self._last_card_scored, self._claimant, tuple(self._show), self._winner, self._muggins_open,
            tuple(self._missed), tuple(self._taken), frozenset(self._called_wrong), tuple(self._log),
        )
