"""The game state machine: a whole match of cribbage for 2 to 6 players, driven by actions, recorded as events.

The state is a fold over the event log: `Game._fold` is the only place state changes, so replaying the log from
the start reaches the same state, and a save file is the rules, the seed and the log. Actions are checked before
anything happens (`Game.verify`); an illegal one raises `IllegalActionError` and changes nothing. Steps that need
no decision (cutting for deal, dealing, the starter, goes, the show) happen by themselves. The state it folds
into is `state.GameState`; the refusals are in `refusals`, the cards from the seed in `dealing`, the show's counts
in `show`, and the save in `saving`.

>>> game = Game(Rules(), names=("Ann", "Bob"), seed=7)
>>> game.phase
<Phase.DISCARD: 'discard'>
>>> len(game.view(0).hand)
6
>>> from audiocrib.engine.actions import Discard
>>> events = game.apply(Discard(0, game.view(0).hand[:2]))
>>> [e.kind for e in events]
['discarded']
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from audiocrib.engine.actions import Action, CallMuggins, ClaimCount, CountTimeout, Discard, Go, Play
from audiocrib.engine.cards import Rank
from audiocrib.engine.dealing import cut_for_deal, cut_starter, deal, next_game_dealer
from audiocrib.engine.errors import IllegalActionError, RulesError
from audiocrib.engine.events import (
    CountRequested,
    CutForDeal,
    Dealt,
    Discarded,
    Event,
    GameStarted,
    GameWon,
    HandShown,
    HisHeels,
    LastCard,
    MatchWon,
    MugginsCalled,
    PlayClaimed,
    Played,
    PlayEnded,
    PointsGiven,
    SaidGo,
    SeriesEnded,
    StarterCut,
    ThreeForLast,
    event_to_json,
)
from audiocrib.engine.phase import Phase
from audiocrib.engine.refusals import (
    MAX_PLAY_SCORE,
    PLAY_POINTS,
    check_count,
    check_discard,
    check_form,
    check_go,
    check_muggins,
    check_peg_claim,
    check_play,
    check_seat,
    check_turn,
)
from audiocrib.engine.rules import Rules
from audiocrib.engine.saving import SAVE_VERSION, moves, read_save, reading_save, save_header, save_text, save_value
from audiocrib.engine.scoring import Score, score_hand, score_play
from audiocrib.engine.show import counted, show_order, timed_out
from audiocrib.engine.state import GameState
from audiocrib.engine.views import PlayerView, make_view

__all__ = ["MAX_PLAY_SCORE", "PLAY_POINTS", "SAVE_VERSION", "Game", "Phase"]


class Game(GameState):
    """A match of cribbage: rules, seats, a seed for the shuffles, and the log of what has happened.

    ``names`` are the seats' names in clockwise order (default "Player 1", ...). ``manual_seats`` are the people
    at the table: they count their own hands when ``rules.manual_counting`` is on, they claim the points of their
    cards in the play when ``rules.manual_pegging`` is on, and at a table that plays muggins (``rules.muggins``)
    every other seat, a computer player, counts its own hands aloud. With ``auto_go``
    (the default) the game says go for a player who cannot play; without it that player must send `Go`.
    Same rules, seed and actions give the same game.
    """

    def __init__(
        self,
        rules: Rules | None = None,
        names: Sequence[str] | None = None,
        seed: int | None = None,
        manual_seats: Iterable[int] = (),
        auto_go: bool = True,
        *,
        _events: Iterable[Event] | None = None,
    ) -> None:
        rules = rules if rules is not None else Rules()
        n = rules.players
        seats = tuple(names) if names is not None else tuple(f"Player {i + 1}" for i in range(n))
        if len(seats) != n:
            raise RulesError(f"This table needs {n} names, not {len(seats)}.")
        counting = rules.manual_counting or rules.muggins or rules.manual_pegging
        manual = frozenset(manual_seats) if counting else frozenset()
        if any(not 0 <= s < n for s in manual):
            raise RulesError("A manual counter must be one of the table's seats.")
        super().__init__(rules, seats, seed if seed is not None else secrets.randbits(63), manual, auto_go)
        self._encoded: list[str] = []  # the log's events as JSON text, kept as the log grows (saved often)
        self._seen: list[list[Event]] = [[] for _ in range(n + 1)]  # the last is the watchers' log
        if _events is None:
            self._advance()
        else:
            for event in _events:
                self._fold(event)
                self._log.append(event)

    # ----------------------------------------------------------------- reading
    def waiting_for(self) -> frozenset[int]:
        """The seats the game is waiting on for a decision."""
        if self._phase is Phase.DISCARD:
            return frozenset(s for s, d in enumerate(self._discards) if d is None)
        if self._phase is Phase.PLAY and self._turn is not None:
            return frozenset({self._turn})
        if self._phase is Phase.COUNT:
            return frozenset({self._show[0][0]})
        if self._phase is Phase.PEG_CLAIM and self._claimant is not None:
            return frozenset({self._claimant})
        return frozenset()

    def muggins_open_to(self, seat: int) -> bool:
        """True while ``seat`` may call muggins on a count an opponent made short: from that show until the next
        deal's first card laid away (anyone's) closes it."""
        return self._muggins_open and bool(self._missed_by_opponents(seat))

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may know now: their own cards and what is public. ``seat`` may be the watchers'
        (`watcher_seat`): what anyone may know who holds no cards."""
        check_seat(seat, self.rules.players + 1)
        seen = self._seen[seat]
        seen.extend(e.seen_by(seat) for e in self._log[len(seen):])
        return make_view(self, seat, tuple(seen))

    # ----------------------------------------------------------------- actions
    def verify(self, action: Action) -> None:
        """Raise `IllegalActionError` with a sentence that reads well aloud if ``action`` is not allowed now.

        Anything at all may be passed (the online server passes on what arrives from the network): what is not one
        of the game's own actions with every field of its type is refused before anything else is looked at.
        """
        check_form(action)
        seat = action.seat
        check_seat(seat, self.rules.players)
        if self._phase is Phase.MATCH_OVER:
            raise IllegalActionError("The match is over.")
        if isinstance(action, Discard):
            check_discard(self.rules, self._phase, seat == self._dealer, self._discards[seat], self._hands[seat],
                          action.cards)
        elif isinstance(action, Play | Go):
            check_turn(self._phase, seat, self._discards[seat] is not None, self._claimant, self._turn, self.names,
                       "play a card" if isinstance(action, Play) else "say go")
            if isinstance(action, Play):
                check_play(action.card, self._hands[seat], self._count)
            else:
                check_go(self.playable(seat))
        elif isinstance(action, CallMuggins):
            check_muggins(self.rules, seat, self._muggins_open, self._missed_by_opponents(seat), self._taken,
                          self._called_wrong)
        elif isinstance(action, ClaimCount | CountTimeout) and self.claiming == seat:
            check_peg_claim(action)
        elif isinstance(action, ClaimCount | CountTimeout):
            counting = self.counting
            check_count(self.rules, action, counting, len(self._show_cards(*counting)) if counting else 0)
        else:
            raise IllegalActionError("That is not something a player can do.")

    def can(self, action: Action) -> bool:
        """True if ``action`` is allowed now."""
        try:
            self.verify(action)
        except IllegalActionError:
            return False
        return True

    def apply(self, action: Action) -> tuple[Event, ...]:
        """Check ``action``, carry it out, run every automatic step after it, and return the new events."""
        self.verify(action)
        start = len(self._log)
        for event in self._events_of(action):
            self._emit(event)
            if self._phase in (Phase.GAME_OVER, Phase.MATCH_OVER):
                break
        self._advance()
        return tuple(self._log[start:])

    def _events_of(self, action: Action) -> Iterator[Event]:
        seat = action.seat
        if isinstance(action, Discard):
            yield Discarded(seat, len(action.cards), tuple(action.cards))
        elif isinstance(action, Play):
            count = self._count + action.card.value
            if self._pegs_by_hand(seat):  # the points wait for the player's claim
                yield Played(seat, action.card, count, Score(), True)
            else:
                yield Played(seat, action.card, count, score_play([c for _, c in self._series] + [action.card]))
        elif isinstance(action, Go):
            yield SaidGo(seat)
        elif isinstance(action, ClaimCount) and self._phase is Phase.PEG_CLAIM:
            yield from self._settle_peg(action)
        elif isinstance(action, ClaimCount | CountTimeout):
            yield from self._settle(action)
        elif isinstance(action, CallMuggins):
            missed = self._missed_by_opponents(seat)
            for offender, crib, points in missed:
                yield MugginsCalled(seat, offender, crib, points)
            if not missed:
                yield PointsGiven(self.rules.opponent_of(seat), seat, self.rules.wrong_muggins, "wrong muggins")

    def _settle(self, action: ClaimCount | CountTimeout) -> Iterator[Event]:
        seat, crib = self._show[0]
        cards = self._show_cards(seat, crib)
        assert self._starter is not None
        if isinstance(action, CountTimeout):
            yield from timed_out(self.rules, seat, crib, cards, self._starter)
            return
        score = score_hand(cards, self._starter, crib)
        claimed = action.points
        # A computer's short count waits for muggins; a person's is settled at once.
        pegged, given = self._settlement(seat, score.total, claimed, give_missed=self._counts_by_hand(seat))
        yield HandShown(seat, crib, cards, self._starter, score, pegged, claimed)
        if given is not None:
            yield given

    def _settle_peg(self, action: ClaimCount) -> Iterator[Event]:
        seat, card = self._series[-1]
        score = score_play([c for _, c in self._series])
        pegged, given = self._settlement(seat, score.total, action.points)
        yield PlayClaimed(seat, card, self._count, score, action.points, pegged)
        if given is not None:
            yield given

    def _settlement(self, seat: int, true: int, claimed: int, give_missed: bool = True
                    ) -> tuple[int, PointsGiven | None]:
        """The one rule for a claim, in the show or the play: what ``seat`` pegs for claiming ``claimed`` when
        the truth is ``true``, and what goes to the opponents. Short: the claim is pegged and the points missed
        are given away (with ``give_missed``). Over: the truth is pegged and, with the over-count penalty, the
        excess is given away."""
        receiver = self.rules.opponent_of(seat)
        if claimed < true:
            return claimed, PointsGiven(receiver, seat, true - claimed, "missed") if give_missed else None
        if claimed > true and self.rules.overcount_penalty:
            return true, PointsGiven(receiver, seat, claimed - true, "over-counted")
        return true, None

    # ----------------------------------------------------------------- the automatic steps
    def _advance(self) -> None:
        while (event := self._next_automatic()) is not None:
            self._emit(event)

    def _next_automatic(self) -> Event | None:
        n = self.rules.players
        phase = self._phase
        if phase is Phase.CUT_FOR_DEAL:
            if self._first_dealer is None:
                return cut_for_deal(self.seed, self._cuts, self._cutting)
            return GameStarted(1, self._first_dealer)
        if phase is Phase.GAME_OVER:
            return GameStarted(self._game_no + 1, next_game_dealer(self.rules, self._dealer, self._scores))
        if phase is Phase.THREE_FOR_LAST:
            return ThreeForLast((self._dealer + 1) % n)
        if phase is Phase.DEAL:
            return deal(self.rules, self.seed, self._game_no, self._deal_no + 1, self._dealer)
        if phase is Phase.STARTER:
            return cut_starter(self.seed, self._game_no, self._deal_no, (self._dealer - 1) % n, self._stock)
        if phase is Phase.HIS_HEELS:
            return HisHeels(self._dealer)
        if phase is Phase.PLAY:
            return self._next_in_play()
        if phase is Phase.PLAY_ENDED:
            return PlayEnded()
        if phase is Phase.SHOW:
            if not self._show:
                return deal(self.rules, self.seed, self._game_no, self._deal_no + 1, (self._dealer + 1) % n)
            seat, crib = self._show[0]
            cards = self._show_cards(seat, crib)
            assert self._starter is not None
            if self._counts_by_hand(seat) or (self.rules.muggins and seat not in self.manual_seats):
                return CountRequested(seat, crib, cards, self._starter)
            return counted(seat, crib, cards, self._starter)
        return None

    def _next_in_play(self) -> Event | None:
        if self._turn is None:
            if self._count < 31 and not self._last_card_scored and self._last_player is not None:
                return LastCard(self._last_player, self._count)
            return SeriesEnded(self._count)
        if self.playable(self._turn) or not self.auto_go:
            return None
        return SaidGo(self._turn)

    # ----------------------------------------------------------------- the fold
    def _emit(self, event: Event) -> None:
        self._fold(event)
        self._log.append(event)
        scorer = event.scorer
        if scorer is None or not event.points or self._phase is Phase.GAME_OVER:
            return
        side = self.rules.side_of(scorer)
        if self._scores[side] >= self.rules.target:
            best_loser = max(s for i, s in enumerate(self._scores) if i != side)
            points, skunk = self.rules.game_points(best_loser)
            match = list(self._match)
            match[side] += points
            self._emit(GameWon(self._game_no, side, tuple(self._scores), points, skunk, tuple(match)))
            if match[side] >= self.rules.match_games:
                self._emit(MatchWon(side, tuple(match)))

    def _credit(self, event: Event) -> None:
        if event.scorer is not None and event.points:
            self._scores[self.rules.side_of(event.scorer)] += event.points

    def _fold(self, event: Event) -> None:
        """Apply one event to the state: the only place the state changes."""
        n = self.rules.players
        self._credit(event)
        if isinstance(event, CutForDeal):
            self._cuts += 1
            low = min(c.rank for c in event.cards)
            lowest = tuple(s for s, c in zip(event.seats, event.cards, strict=True) if c.rank == low)
            if len(lowest) == 1:
                self._first_dealer = lowest[0]
            else:
                self._cutting = lowest
        elif isinstance(event, GameStarted):
            self._game_no = event.game
            self._deal_no = 0
            self._dealer = event.dealer
            self._scores = [0] * self.rules.sides
            self._phase = Phase.THREE_FOR_LAST if self.rules.three_for_last else Phase.DEAL
        elif isinstance(event, ThreeForLast):
            self._phase = Phase.DEAL
        elif isinstance(event, Dealt):
            self._deal_no = event.deal
            self._dealer = event.dealer
            self._hands = [list(h) for h in event.hands]
            self._crib = list(event.crib)
            self._stock = list(event.stock)
            self._discards = [None] * n
            if self.rules.shape.dealer_discard == 0:
                self._discards[event.dealer] = ()
            self._kept = [() for _ in range(n)]
            self._starter = None
            self._played = [[] for _ in range(n)]
            self._count = 0
            self._series = []
            self._out = set()
            self._turn = None
            self._last_player = None
            self._last_card_scored = False
            self._phase = Phase.DISCARD
        elif isinstance(event, Discarded):
            self._muggins_open = False
            self._missed = []
            self._taken = []
            self._called_wrong = set()
            for card in event.cards:
                self._hands[event.seat].remove(card)
            self._crib.extend(event.cards)
            self._discards[event.seat] = event.cards
            if all(d is not None for d in self._discards):
                self._kept = [tuple(h) for h in self._hands]
                self._phase = Phase.STARTER
        elif isinstance(event, StarterCut):
            self._starter = event.card
            self._stock.remove(event.card)
            if event.card.rank is Rank.JACK:
                self._phase = Phase.HIS_HEELS
            else:
                self._start_play()
        elif isinstance(event, HisHeels):
            self._start_play()
        elif isinstance(event, Played):
            self._hands[event.seat].remove(event.card)
            self._played[event.seat].append(event.card)
            self._series.append((event.seat, event.card))
            self._count = event.count
            self._last_player = event.seat
            self._turn = None if event.count == 31 else self._next_turn(event.seat)
            if event.to_claim:
                self._claimant = event.seat
                self._phase = Phase.PEG_CLAIM
        elif isinstance(event, PlayClaimed):
            self._claimant = None
            self._phase = Phase.PLAY
        elif isinstance(event, SaidGo):
            self._out.add(event.seat)
            self._turn = self._next_turn(event.seat)
        elif isinstance(event, LastCard):
            self._last_card_scored = True
        elif isinstance(event, SeriesEnded):
            self._count = 0
            self._series = []
            self._out = set()
            self._last_card_scored = False
            leader = self._next_active(self._last_player) if self._last_player is not None else None
            if leader is None or self.rules.single_series:
                self._phase = Phase.PLAY_ENDED
            self._turn = leader
        elif isinstance(event, PlayEnded):
            self._turn = None
            self._show = show_order(self._dealer, n)
            self._phase = Phase.SHOW
        elif isinstance(event, CountRequested):
            self._phase = Phase.COUNT
        elif isinstance(event, HandShown):
            self._called_wrong = set()  # a new count to judge
            self._show.pop(0)
            self._phase = Phase.SHOW
            if self.rules.muggins:
                self._muggins_open = True
                short = event.claimed is not None and event.claimed < event.score.total
                if short and event.seat not in self.manual_seats:
                    self._missed.append((event.seat, event.crib, event.score.total - event.pegged))
        elif isinstance(event, MugginsCalled):
            self._missed.remove((event.offender, event.crib, event.given))
            self._taken.append((event.offender, event.crib, event.given))
        elif isinstance(event, PointsGiven) and event.reason == "wrong muggins":
            self._called_wrong.add(self.rules.side_of(event.offender))
        elif isinstance(event, GameWon):
            self._claimant = None
            self._muggins_open = False
            self._missed = []
            self._taken = []
            self._called_wrong = set()
            self._match = list(event.match_scores)
            self._winner = event.side
            self._phase = Phase.GAME_OVER
        elif isinstance(event, MatchWon):
            self._phase = Phase.MATCH_OVER

    def _start_play(self) -> None:
        self._phase = Phase.PLAY
        self._turn = self._next_active(self._dealer)

    # ----------------------------------------------------------------- saving and replaying
    def to_json(self) -> dict[str, Any]:
        """Everything needed to rebuild this game: version, rules, names, seed, settings and the log."""
        return {**self.to_json_header(), "events": [event_to_json(e) for e in self._log]}

    def dumps(self) -> str:
        """`to_json` as text.

        The log only grows, so each event is written as text once and kept: saving after every move costs the
        new events, not the whole log again.

        >>> import json
        >>> game = Game(seed=7)
        >>> json.loads(game.dumps()) == game.to_json()
        True
        """
        return save_text(self.to_json_header(), self._encoded, self._log)

    def to_json_header(self) -> dict[str, Any]:
        """`to_json` without the events."""
        return save_header(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Game:
        """Rebuild a game from `to_json`'s output; raise `SaveError` if it is unreadable or not a real game.

        The players' moves are read from the log and played again from the seed; the result must be the saved
        log exactly, so a damaged or edited save is refused rather than loaded into a state no game can reach.
        """
        with reading_save():
            saved = read_save(data)
            game = cls(saved.rules, saved.names, saved.seed, saved.manual_seats, saved.auto_go)
            for action in moves(saved.events, game.auto_go):
                game.apply(action)
            if game._log != saved.events:
                raise ValueError("the log is not what these moves give")
        return game

    @classmethod
    def loads(cls, text: str) -> Game:
        """`from_json` from text."""
        return cls.from_json(save_value(text))

    @classmethod
    def from_events(
        cls,
        events: Iterable[Event],
        rules: Rules | None = None,
        names: Sequence[str] | None = None,
        seed: int = 0,
        manual_seats: Iterable[int] = (),
        auto_go: bool = True,
    ) -> Game:
        """A game whose log begins with ``events``, carried on to its next decision.

        A saved log rests at a decision already, so nothing is added; a hand-made log (a stacked deal in a
        test or a practice drill) goes on from where it stops.
        """
        game = cls(rules, names, seed, manual_seats, auto_go, _events=events)
        game._advance()
        return game

    def at(self, n: int, also: Iterable[int] = ()) -> Game:
        """The game as it stood after its first ``n`` events, for looking back at a moment already passed;
        then the events at the indexes ``also`` (later ones a player heard first, such as a muggins call made while
        looking back at a show).

        >>> game = Game(seed=7)
        >>> game.at(2).events == game.events[:2]
        True
        """
        events = [*self._log[:n], *(self._log[i] for i in sorted(also))]
        return Game(self.rules, self.names, self.seed, self.manual_seats, self.auto_go, _events=events)

    def replayed(self) -> Game:
        """A new game built by replaying this game's log from the start."""
        return Game(self.rules, self.names, self.seed, self.manual_seats, self.auto_go, _events=self._log)
