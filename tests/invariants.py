"""The engine's invariants, checked over a game's event log: the judge of the soak test (``tests/test_soak.py``).

`check_game` walks a game's whole log, from the cut for deal to the last event, keeping its own account of the
cards, the turn, the count, the show and the scores, and checks every event against the rules as
``/work/shared/notes/rules.md`` and ``docs/rules.md`` state them. It reads nothing of the game's private state;
it compares its own account with the game's public properties only at the end. `check_view` checks what one seat
is shown: its own cards and what is public, nothing more; `check_views` does so for every seat at sampled moments
of a game, rebuilt with `Game.at`.

Every failure is an `AssertionError` naming the event (its index in the log, game and deal) and what is wrong.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from itertools import combinations
from typing import Any, NoReturn

from audiocrib.engine.cards import DECK, Card, Rank
from audiocrib.engine.errors import SaveError
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
)
from audiocrib.engine.game import MAX_PLAY_SCORE, Game
from audiocrib.engine.rules import Rules, Variant
from audiocrib.engine.scoring import MAX_SCORE, Score, score_hand, score_play

__all__ = [
    "SPEC_SHAPES", "check_game", "check_view", "check_views", "expected_game_points", "hand_points", "peg_points",
]

SPEC_SHAPES: dict[tuple[Variant, int], tuple[int, int, int, int, int, int, int]] = {
    (Variant.SIX_CARD, 2): (6, 6, 2, 2, 0, 4, 4),
    (Variant.SIX_CARD, 3): (5, 5, 1, 1, 1, 4, 4),
    (Variant.SIX_CARD, 4): (5, 5, 1, 1, 0, 4, 4),
    (Variant.SIX_CARD, 5): (5, 4, 1, 0, 0, 4, 4),
    (Variant.SIX_CARD, 6): (6, 5, 1, 0, 0, 5, 5),
    (Variant.FIVE_CARD, 2): (5, 5, 2, 2, 0, 3, 4),
    (Variant.FIVE_CARD, 4): (4, 4, 1, 1, 0, 3, 4),
    (Variant.SEVEN_CARD, 2): (7, 7, 2, 2, 0, 5, 4),
    (Variant.SEVEN_CARD, 4): (6, 6, 1, 1, 0, 5, 4),
}
"""rules.md's variants table, copied here rather than read from `Rules.shape`, so the deal is checked against the
spec: ``(variant, players)`` to (dealt, dealt to the dealer, laid away, laid away by the dealer, cards from the
deck to the crib, hand, crib)."""

_PAIR_POINTS = {1: 0, 2: 2, 3: 6, 4: 12}
_DECK = frozenset(DECK)


def peg_points(series: Iterable[Card]) -> int:
    """What the last card of ``series`` (the current series, in order) pegs: fifteen 2, thirty-one 2, the last 2,
    3 or 4 cards of one rank 2, 6 or 12, the longest run of the last k >= 3 cards k. Written from rules.md, apart
    from `audiocrib.engine.scoring.score_play`, so the two check each other.

    >>> from audiocrib.engine.cards import parse_cards
    >>> peg_points(parse_cards("9S 6H 8D 7C")), peg_points(parse_cards("8S 7H 7D 6C")), peg_points(parse_cards("5H 5S"))
    (4, 0, 2)
    """
    ranks = [int(card.rank) for card in series]
    count = sum(min(rank, 10) for rank in ranks)
    points = 2 * (count == 15) + 2 * (count == 31)
    same = 1
    while same < min(len(ranks), 4) and ranks[-same - 1] == ranks[-1]:
        same += 1
    points += _PAIR_POINTS[same]
    for k in range(len(ranks), 2, -1):
        window = set(ranks[-k:])
        if len(window) == k and max(window) - min(window) == k - 1:
            points += k
            break
    return points


@cache
def _rank_points(ranks: tuple[int, ...]) -> int:
    """Fifteens, pairs and runs of cards given by their ranks in ascending order (remembered: few patterns)."""
    values = [min(rank, 10) for rank in ranks]
    fifteens = sum(sum(combo) == 15 for size in range(2, len(values) + 1) for combo in combinations(values, size))
    counts = Counter(ranks)
    points = 2 * fifteens + sum(c * (c - 1) for c in counts.values())  # c cards of a rank make c(c-1)/2 pairs
    run, ways = 0, 1
    for rank in range(1, 15):
        if counts[rank]:
            run, ways = run + 1, ways * counts[rank]
        else:
            if run >= 3:
                points += run * ways  # one run for each way to pick a card of each rank
            run, ways = 0, 1
    return points


def hand_points(cards: Iterable[Card], starter: Card, crib: bool) -> int:
    """A hand's (or with ``crib`` a crib's) count with the starter, written from rules.md's show apart from
    `audiocrib.engine.scoring.score_hand`, so the two check each other.

    >>> from audiocrib.engine.cards import parse_cards
    >>> hand_points(parse_cards("5H 5D 5S JC"), Card.parse("5C"), False)
    29
    >>> hand = parse_cards("5H 6H 7H 8H")  # two fifteens, a run of four and a flush in a hand, not in a crib
    >>> hand_points(hand, Card.parse("KS"), False), hand_points(hand, Card.parse("KS"), True)
    (12, 8)
    """
    hand = tuple(cards)
    points = _rank_points(tuple(sorted(int(card.rank) for card in (*hand, starter))))
    suits = {card.suit for card in hand}
    if len(suits) == 1:
        if starter.suit in suits:
            points += len(hand) + 1
        elif not crib:
            points += len(hand)
    return points + any(card.rank is Rank.JACK and card.suit is starter.suit for card in hand)


def expected_game_points(rules: Rules, best_loser: int) -> tuple[int, str]:
    """The game points a win is worth and the skunk's name, from the best losing score, by docs/rules.md's lines
    (half and three quarters of the target, rounded up), computed here apart from `Rules.game_points`.

    >>> expected_game_points(Rules(), 90), expected_game_points(Rules(), 60), expected_game_points(Rules(), 91)
    ((2, 'skunk'), (4, 'double skunk'), (1, ''))
    >>> expected_game_points(Rules(variant=Variant.FIVE_CARD), 30), expected_game_points(Rules(target=91), 46)
    ((2, 'lurch'), (1, ''))
    """
    if not rules.skunks:
        return 1, ""
    half = -(-rules.target // 2)
    if rules.target < 121:
        return (2, "lurch") if best_loser < half else (1, "")
    if best_loser < half:
        return 4, "double skunk"
    if best_loser < -(-3 * rules.target // 4):
        return 2, "skunk"
    return 1, ""


def _short(event: Event) -> str:
    """An event in one line: cards in notation, scores as their totals, the stock left out."""
    parts = []
    for f in dataclasses.fields(event):
        value = getattr(event, f.name)
        if f.name == "stock":
            text = f"{len(value)} cards"
        elif isinstance(value, Score):
            text = f"{value.total} ({', '.join(f'{i.kind.value} {i.points}' for i in value.items)})"
        elif isinstance(value, Card):
            text = str(value)
        elif isinstance(value, tuple) and value and all(isinstance(v, tuple) for v in value):
            text = "/".join(" ".join(str(c) for c in hand) for hand in value)
        elif isinstance(value, tuple) and value and isinstance(value[0], Card):
            text = " ".join(str(c) for c in value)
        else:
            text = repr(value)
        parts.append(f"{f.name}={text}")
    return f"{type(event).__name__}({', '.join(parts)})"


def _cards_in(value: object) -> Iterator[Card]:
    """Every card named anywhere in ``value`` (events, scores, tuples of them)."""
    if isinstance(value, Card):
        yield value
    elif isinstance(value, tuple | list | frozenset | set):
        for item in value:
            yield from _cards_in(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type | Rules):
        for f in dataclasses.fields(value):
            yield from _cards_in(getattr(value, f.name))


class _Walk:
    """One pass over a game's log with an account of the state kept apart from the engine's."""

    def __init__(self, game: Game, exact: bool) -> None:
        self.game = game
        self.exact = exact
        self.rules = rules = game.rules
        self.n = n = rules.players
        self.sides = n // rules.team_size
        if (rules.variant, n) not in SPEC_SHAPES:
            raise AssertionError(f"{rules.describe()}: no row of rules.md's variants table; add it to SPEC_SHAPES")
        (self.dealt, self.dealer_dealt, self.discard, self.dealer_discard, self.from_deck, self.hand_size,
         self.crib_size) = SPEC_SHAPES[(rules.variant, n)]
        self.manual = game.manual_seats
        self.index = -1
        self.event: Event | None = None
        # Cutting for deal.
        self.cutting: tuple[int, ...] = tuple(range(n))
        self.first_dealer: int | None = None
        # The match and the game: stage is "cut", "game", "game over" or "match over".
        self.stage = "cut"
        self.game_no = 0
        self.scores = [0] * self.sides
        self.match = [0] * self.sides
        self.winner: int | None = None
        self.must_win: int | None = None
        self.match_reached = False
        self.game_dealer = 0
        # The deal: phase is "start", "discard", "starter", "heels", "play", "play over", "show" or "deal over".
        self.phase = "start"
        self.deal_no = 0
        self.dealer = 0
        self.three_for_last = False
        self.hands: list[tuple[Card, ...]] = []
        self.deal_stock: tuple[Card, ...] = ()
        self.crib: list[Card] = []
        self.laid: list[tuple[Card, ...] | None] = []
        self.kept: list[tuple[Card, ...]] = []
        self.starter: Card | None = None
        self.remaining: list[list[Card]] = []
        self.count = 0
        self.series: list[Card] = []
        self.series_no = 0
        self.out: set[int] = set()
        self.last_player: int | None = None
        self.last_card_done = False
        self.next_seat: int | None = None
        self.plays_this_deal = 0
        self.show: list[tuple[int, bool]] = []
        self.requested = False
        self.pending_given: PointsGiven | None = None
        self.claim_due: Played | None = None
        """Manual pegging: a person's card whose points must be claimed by the very next event."""
        self.muggins_open = False
        self.missed: list[tuple[int, bool, int]] = []
        self.muggins_caller: int | None = None

    # ----------------------------------------------------------------- helpers
    def fail(self, message: str) -> NoReturn:
        """Raise the AssertionError for the event being checked."""
        where = f"game {self.game_no}, deal {self.deal_no}"
        shown = _short(self.event) if self.event is not None else "end of log"
        raise AssertionError(f"{self.rules.describe()}, seed {self.game.seed}: event {self.index} ({where}) "
                             f"{shown}: {message}")

    def side(self, seat: int) -> int:
        """The side seat ``seat`` scores for: seats sit round the table side after side."""
        return seat % self.sides

    def opponent(self, seat: int) -> int:
        """The first seat clockwise on another side: who receives the points ``seat`` gives away."""
        return next(s % self.n for s in range(seat + 1, seat + self.n) if self.side(s % self.n) != self.side(seat))

    def can_play(self, seat: int) -> bool:
        """True if ``seat`` holds a card that fits under 31."""
        return any(self.count + card.value <= 31 for card in self.remaining[seat])

    def candidate(self, after: int) -> int | None:
        """Who must act after ``after`` in the play: the first seat clockwise still holding cards that has not
        said go; None when the series is over (nobody else is in, and the one who laid the last card cannot play)."""
        for step in range(1, self.n + 1):
            seat = (after + step) % self.n
            if self.remaining[seat] and seat not in self.out:
                if seat == self.last_player and not self.can_play(seat):
                    return None
                return seat
        return None

    def pegs_by_hand(self, seat: int) -> bool:
        """True if ``seat`` claims the points of its own cards in the play: a person, with manual pegging."""
        return self.rules.manual_pegging and seat in self.manual

    def settle(self, seat: int, true: int, claimed: int) -> tuple[int, PointsGiven | None]:
        """What a person's claim for a card in the play pegs and gives away, as for a manual count in rules.md:
        short pegs the claim and gives the rest; over pegs the truth and gives the excess with the over-count
        penalty on; what is given goes to the first seat clockwise on another side."""
        receiver = self.opponent(seat)
        if claimed < true:
            return claimed, PointsGiven(receiver, seat, true - claimed, "missed")
        if claimed > true:
            return true, PointsGiven(receiver, seat, claimed - true, "over-counted") if (
                self.rules.overcount_penalty) else None
        return true, None

    def counts_aloud(self, seat: int) -> bool:
        """True if ``seat`` is asked for its count: a person counting by hand, or a computer player at a muggins
        table (which counts aloud)."""
        if self.rules.manual_counting and seat in self.manual:
            return True
        return self.rules.muggins and seat not in self.manual

    # ----------------------------------------------------------------- the walk
    def walk(self) -> None:
        """Check every event in order, then the game's public state against the account."""
        handlers: dict[type[Event], Callable[[Any], None]] = {
            CutForDeal: self.cut_for_deal, GameStarted: self.game_started, ThreeForLast: self.three,
            Dealt: self.dealt_, Discarded: self.discarded, StarterCut: self.starter_cut, HisHeels: self.his_heels,
            Played: self.played, SaidGo: self.said_go, LastCard: self.last_card, SeriesEnded: self.series_ended,
            PlayEnded: self.play_ended, CountRequested: self.count_requested, HandShown: self.hand_shown,
            PointsGiven: self.points_given, MugginsCalled: self.muggins_called, GameWon: self.game_won,
            MatchWon: self.match_won, PlayClaimed: self.play_claimed,
        }
        for index, event in enumerate(self.game.events):
            self.index, self.event = index, event
            if self.must_win is not None and not isinstance(event, GameWon):
                self.fail(f"side {self.must_win} reached the target {self.rules.target} "
                          "but the game went on instead of being won at once")
            if self.pending_given is not None:
                if event != self.pending_given:
                    self.fail(f"expected {_short(self.pending_given)} right after the count")
                self.pending_given = None
                self.score(event)
                continue
            caller = self.muggins_caller
            if caller is not None and not (isinstance(event, MugginsCalled) and event.seat == caller):
                # One call takes every short count of the caller's opponents, unless the game is won on the way.
                left = [m for m in self.missed if self.side(m[0]) != self.side(caller)]
                if left and not isinstance(event, GameWon):
                    self.fail(f"a call of muggins by seat {caller} left short counts untaken: {left}")
                self.muggins_caller = None
            if self.stage == "match over":
                self.fail("an event after the match was won")
            if self.claim_due is not None and not isinstance(event, PlayClaimed):
                self.fail(f"seat {self.claim_due.seat}'s card was not claimed before the game went on")
            handler = handlers.get(type(event))
            if handler is None:
                self.fail("an event of a kind the checker does not know")
            handler(event)
            self.score(event)
        self.index, self.event = len(self.game.events), None
        self.finish()

    def score(self, event: Event) -> None:
        """Credit a scoring event to its side; note the side that reaches the target."""
        points = event.points
        if points < 0:
            self.fail("negative points: scores never go down")
        if event.scorer is None or points == 0:
            return
        if not 0 <= event.scorer < self.n:
            self.fail("points for a seat that is not at the table")
        if self.stage != "game":
            self.fail("points scored outside a game")
        side = self.side(event.scorer)
        before = self.scores[side]
        if before >= self.rules.target:
            self.fail(f"side {side} scored after reaching the target")
        self.scores[side] += points
        if self.scores[side] >= self.rules.target:
            self.must_win = side
            self.pending_given = None  # the counter's own points won the game: nothing more is given

    # ----------------------------------------------------------------- before the deal
    def cut_for_deal(self, e: CutForDeal) -> None:
        """Only the seats tied for the lowest card cut again; a single lowest card deals first."""
        if self.stage != "cut" or self.first_dealer is not None:
            self.fail("a cut for deal after the first dealer was found")
        if e.seats != self.cutting:
            self.fail(f"seats {self.cutting} should cut")
        if len(e.cards) != len(e.seats) or len(set(e.cards)) != len(e.cards):
            self.fail("one distinct card for each seat cutting")
        low = min(card.rank for card in e.cards)
        lowest = tuple(s for s, c in zip(e.seats, e.cards, strict=True) if c.rank == low)
        if len(lowest) == 1:
            self.first_dealer = lowest[0]
        else:
            self.cutting = lowest

    def game_started(self, e: GameStarted) -> None:
        """Game 1 is dealt by the cut; each later game by the first seat clockwise (from the last dealer's left)
        on the side with the lowest score in the game just finished."""
        if self.stage == "cut":
            if self.first_dealer is None or e.game != 1 or e.dealer != self.first_dealer:
                self.fail(f"the first game is game 1, dealt by the lowest cut, seat {self.first_dealer}")
        elif self.stage == "game over":
            if self.match_reached:
                self.fail("a new game after the match was won")
            lowest = min(self.scores)
            expected = next(s % self.n for s in range(self.dealer + 1, self.dealer + self.n + 1)
                            if self.scores[self.side(s % self.n)] == lowest)
            if e.game != self.game_no + 1 or e.dealer != expected:
                self.fail(f"game {self.game_no + 1} should be dealt first by seat {expected}, on the side with the "
                          f"lowest score of {self.scores}")
        else:
            self.fail("a game started before the last one was won")
        self.stage = "game"
        self.game_no = e.game
        self.game_dealer = self.dealer = e.dealer
        self.scores = [0] * self.sides
        self.deal_no = 0
        self.phase = "start"
        self.three_for_last = False

    def three(self, e: ThreeForLast) -> None:
        """Five-card cribbage: the dealer's left scores 3 once, at the start of every game."""
        if self.rules.variant is not Variant.FIVE_CARD:
            self.fail("three for last outside five-card cribbage")
        if self.phase != "start" or self.deal_no != 0 or self.three_for_last:
            self.fail("three for last comes once, before the game's first deal")
        if e.seat != (self.dealer + 1) % self.n:
            self.fail(f"three for last goes to the dealer's left, seat {(self.dealer + 1) % self.n}")
        self.three_for_last = True

    # ----------------------------------------------------------------- the deal
    def dealt_(self, e: Dealt) -> None:
        """A whole, distinct pack; every hand of the variant's size; the deal passes to the left."""
        if self.stage != "game":
            self.fail("a deal outside a game")
        if self.phase == "start":
            if (self.rules.variant is Variant.FIVE_CARD) != self.three_for_last:
                self.fail("five-card games, and only they, start with three for last")
            expected_dealer = self.game_dealer
        elif self.phase == "deal over":
            expected_dealer = (self.dealer + 1) % self.n
        else:
            self.fail(f"a new deal in the {self.phase} phase, before the last deal's show was over")
        if e.deal != self.deal_no + 1 or e.dealer != expected_dealer:
            self.fail(f"deal {self.deal_no + 1} should be dealt by seat {expected_dealer}: the deal passes left")
        if len(e.hands) != self.n:
            self.fail("one hand for each seat")
        for seat, hand in enumerate(e.hands):
            size = self.dealer_dealt if seat == e.dealer else self.dealt
            if len(hand) != size:
                self.fail(f"seat {seat} was dealt {len(hand)} cards, not {size}")
        if len(e.crib) != self.from_deck:
            self.fail(f"{len(e.crib)} cards dealt to the crib, not {self.from_deck}")
        pack = [card for hand in e.hands for card in hand] + list(e.crib) + list(e.stock)
        if len(pack) != 52 or set(pack) != _DECK:
            self.fail("the hands, crib and stock are not the 52 cards, each once")
        self.deal_no, self.dealer = e.deal, e.dealer
        self.hands = list(e.hands)
        self.deal_stock = e.stock
        self.crib = list(e.crib)
        self.laid = [() if s == e.dealer and self.dealer_discard == 0 else None for s in range(self.n)]
        self.kept = [()] * self.n
        self.starter = None
        self.remaining = [[] for _ in range(self.n)]
        self.count, self.series, self.series_no, self.out = 0, [], 0, set()
        self.last_player, self.last_card_done, self.next_seat, self.plays_this_deal = None, False, None, 0
        self.show, self.requested = [], False
        self.phase = "discard"

    def discarded(self, e: Discarded) -> None:
        """Each seat lays away its share once, from its own hand; then the hands and the crib have their sizes."""
        if self.phase != "discard":
            self.fail(f"cards laid away in the {self.phase} phase")
        if self.laid[e.seat] is not None:
            self.fail(f"seat {e.seat} laid away twice, or is the dealer who lays nothing away")
        needed = self.dealer_discard if e.seat == self.dealer else self.discard
        if e.count != len(e.cards) or len(e.cards) != needed or len(set(e.cards)) != needed:
            self.fail(f"seat {e.seat} must lay away {needed} distinct cards")
        if not all(card in self.hands[e.seat] for card in e.cards):
            self.fail(f"seat {e.seat} laid away cards it was not dealt")
        self.laid[e.seat] = e.cards
        self.crib += e.cards
        self.muggins_open, self.missed = False, []  # the first card laid away closes muggins
        if all(laid is not None for laid in self.laid):
            self.kept = [tuple(c for c in hand if c not in (self.laid[s] or ())) for s, hand in enumerate(self.hands)]
            for seat, kept in enumerate(self.kept):
                if len(kept) != self.hand_size:
                    self.fail(f"seat {seat} kept {len(kept)} cards, not {self.hand_size}")
            if len(self.crib) != self.crib_size or len(set(self.crib)) != self.crib_size:
                self.fail(f"the crib has {len(self.crib)} cards, not {self.crib_size}")
            self.remaining = [list(kept) for kept in self.kept]
            self.phase = "starter"

    def starter_cut(self, e: StarterCut) -> None:
        """The dealer's right cuts; the starter is from the stock, so in no hand and not in the crib."""
        if self.phase != "starter":
            self.fail(f"a starter cut in the {self.phase} phase")
        if e.cutter != (self.dealer - 1) % self.n:
            self.fail(f"the dealer's right, seat {(self.dealer - 1) % self.n}, cuts")
        if e.card not in self.deal_stock:
            self.fail("the starter is not from the stock")
        self.starter = e.card
        if e.card.rank is Rank.JACK:
            self.phase = "heels"
        else:
            self.start_play()

    def his_heels(self, e: HisHeels) -> None:
        """A jack turned up: 2 to the dealer, at once."""
        if self.phase != "heels":
            self.fail("his heels without a jack turned up")
        if e.seat != self.dealer:
            self.fail("his heels goes to the dealer")
        self.start_play()

    def start_play(self) -> None:
        self.phase = "play"
        self.next_seat = (self.dealer + 1) % self.n  # the pone leads

    # ----------------------------------------------------------------- the play
    def played(self, e: Played) -> None:
        """In turn, from the seat's own kept hand, never past 31, pegging what the rules say."""
        if self.phase != "play":
            self.fail(f"a card laid in the {self.phase} phase")
        if self.next_seat is None:
            self.fail("a card laid after the series was over")
        if e.seat != self.next_seat:
            leads = " (the pone leads)" if self.plays_this_deal == 0 else ""
            self.fail(f"out of turn: seat {self.next_seat} should play{leads}")
        if e.card not in self.remaining[e.seat]:
            self.fail(f"seat {e.seat} does not hold the {e.card} (not kept, or laid already)")
        count = self.count + e.card.value
        if e.count != count or count > 31:
            self.fail(f"the count should be {count}, and never past 31")
        series = [*self.series, e.card]
        if e.to_claim != self.pegs_by_hand(e.seat):
            self.fail("a person's card waits for their claim with manual pegging, and only then")
        if e.to_claim:
            if e.score != Score():
                self.fail("a card whose points are to be claimed pegs nothing, and tells nothing, until the claim")
            self.claim_due = e
        else:
            if self.exact and e.score != score_play(series):
                self.fail(f"the card pegs {score_play(series).total} by score_play on {' '.join(map(str, series))}")
            if e.score.total != peg_points(series):
                self.fail(f"the card pegs {peg_points(series)} by the rules on {' '.join(map(str, series))}")
        self.remaining[e.seat].remove(e.card)
        self.series, self.count, self.last_player = series, count, e.seat
        self.plays_this_deal += 1
        self.next_seat = None if count == 31 else self.candidate(e.seat)

    def play_claimed(self, e: PlayClaimed) -> None:
        """Right after the person's card: its true points, the claim, and the same settlement as a count."""
        due = self.claim_due
        if due is None:
            self.fail("a claim for the play with no card waiting for one")
        self.claim_due = None
        if (e.seat, e.card, e.count) != (due.seat, due.card, due.count):
            self.fail(f"the claim is for seat {due.seat}'s {due.card} at {due.count}")
        if self.exact and e.score != score_play(self.series):
            self.fail(f"the card makes {score_play(self.series).total} by score_play")
        if e.score.total != peg_points(self.series):
            self.fail(f"the card makes {peg_points(self.series)} by the rules on {' '.join(map(str, self.series))}")
        if not 0 <= e.claimed <= MAX_PLAY_SCORE:
            self.fail(f"a claim for a card is from 0 to {MAX_PLAY_SCORE}")
        pegged, given = self.settle(e.seat, e.score.total, e.claimed)
        if e.pegged != pegged:
            self.fail(f"the claim pegs {pegged}")
        self.pending_given = given

    def said_go(self, e: SaidGo) -> None:
        """Only the seat whose turn it is, and only with no card that fits."""
        if self.phase != "play" or self.next_seat is None or e.seat != self.next_seat:
            self.fail(f"go said out of turn: seat {self.next_seat} is to act")
        if self.can_play(e.seat):
            self.fail(f"seat {e.seat} said go holding a card that fits under 31")
        self.out.add(e.seat)
        self.next_seat = self.candidate(e.seat)

    def last_card(self, e: LastCard) -> None:
        """Nobody can play: the last card of the series scores 1, once, and never at 31."""
        if self.phase != "play" or self.next_seat is not None:
            self.fail(f"a last card while seat {self.next_seat} can still act")
        if self.last_card_done or self.count >= 31 or e.count != self.count or e.seat != self.last_player:
            self.fail(f"the last card at {self.count} goes once to seat {self.last_player}, and never at 31")
        self.last_card_done = True

    def series_ended(self, e: SeriesEnded) -> None:
        """A series ends at 31 or after the last card; the next is led from the left of its last player."""
        if self.phase != "play" or self.next_seat is not None:
            self.fail(f"a series ended while seat {self.next_seat} can still act")
        if e.count != self.count or not (self.count == 31 or self.last_card_done):
            self.fail(f"the series ends at {self.count}, after 31 or the last card")
        if self.last_player is None:
            self.fail("a series ended with no card laid")
        leader = next((s % self.n for s in range(self.last_player + 1, self.last_player + self.n + 1)
                       if self.remaining[s % self.n]), None)
        self.series_no += 1
        self.count, self.series, self.out, self.last_card_done, self.last_player = 0, [], set(), False, None
        if leader is None or self.rules.variant is Variant.FIVE_CARD:
            self.phase = "play over"
        self.next_seat = leader

    def play_ended(self, e: PlayEnded) -> None:
        """Every card is played, or five-card's single series is over; the show goes round from the dealer's left
        to the dealer, then the crib."""
        if self.phase != "play over":
            self.fail(f"the play ended in the {self.phase} phase")
        if self.rules.variant is Variant.FIVE_CARD:
            if self.series_no != 1:
                self.fail("five-card cribbage plays a single series")
        elif any(self.remaining):
            self.fail(f"the play ended with cards still held: {self.remaining}")
        self.show = [((self.dealer + step) % self.n, False) for step in range(1, self.n + 1)]
        self.show.append((self.dealer, True))
        self.phase = "show"

    # ----------------------------------------------------------------- the show
    def show_cards(self, seat: int, crib: bool) -> list[Card]:
        return sorted(self.crib) if crib else sorted(self.kept[seat])

    def check_show_head(self, seat: int, crib: bool, cards: tuple[Card, ...], starter: Card) -> None:
        if self.phase != "show" or not self.show:
            self.fail(f"a hand counted in the {self.phase} phase")
        if (seat, crib) != self.show[0]:
            self.fail(f"out of order: the show is at {self.show[0]} (seat, crib)")
        if sorted(cards) != self.show_cards(seat, crib) or starter != self.starter:
            self.fail(f"the cards shown are not what seat {seat} {'has in the crib' if crib else 'kept'}")

    def count_requested(self, e: CountRequested) -> None:
        """A count is asked of people counting by hand, and of computer players at a muggins table."""
        self.check_show_head(e.seat, e.crib, e.cards, e.starter)
        if self.requested or not self.counts_aloud(e.seat):
            self.fail(f"seat {e.seat} is not asked for a count here")
        self.requested = True

    def hand_shown(self, e: HandShown) -> None:
        """The true count is score_hand's; what is pegged and given away follows the manual counting rules."""
        self.check_show_head(e.seat, e.crib, e.cards, e.starter)
        size = self.crib_size if e.crib else self.hand_size
        if len(e.cards) != size:
            self.fail(f"{len(e.cards)} cards shown, not {size}")
        assert self.starter is not None
        if self.exact and e.score != score_hand(e.cards, self.starter, e.crib):
            self.fail(f"the true count is {score_hand(e.cards, self.starter, e.crib).total} by score_hand")
        total = hand_points(e.cards, self.starter, e.crib)
        if e.score.total != total:
            self.fail(f"the true count is {total} by the rules")
        if self.requested != self.counts_aloud(e.seat):
            self.fail(f"seat {e.seat}'s count should have been asked for first")
        receiver = self.opponent(e.seat)
        given: PointsGiven | None = None
        if not self.requested:
            if e.claimed is not None or e.timed_out or e.pegged != total:
                self.fail(f"counted by the game: pegs the true {total}, nothing claimed")
        elif e.timed_out:
            if self.rules.count_timer is None or e.claimed is not None or e.pegged != total - total // 2:
                self.fail(f"timed out: keeps {total - total // 2}, gives {total // 2}, only with a timer")
            if total // 2:
                given = PointsGiven(receiver, e.seat, total // 2, "timer")
        elif e.claimed is None or not 0 <= e.claimed <= MAX_SCORE[size]:
            self.fail(f"a claim is from 0 to {MAX_SCORE[size]}")
        elif e.claimed <= total:
            if e.pegged != e.claimed:
                self.fail(f"an under-count or right count pegs the claim, {e.claimed}")
            if e.claimed < total:
                if self.rules.manual_counting and e.seat in self.manual:
                    given = PointsGiven(receiver, e.seat, total - e.claimed, "missed")
                else:  # a computer player's short count waits for a call of muggins
                    self.missed.append((e.seat, e.crib, total - e.claimed))
        else:
            if e.pegged != total:
                self.fail(f"an over-count pegs the true count, {total}")
            if self.rules.overcount_penalty:
                given = PointsGiven(receiver, e.seat, e.claimed - total, "over-counted")
        self.pending_given = given
        self.requested = False
        if self.rules.muggins:
            self.muggins_open = True
        self.show.pop(0)
        if not self.show:
            self.phase = "deal over"

    def muggins_moment(self) -> bool:
        """True when a call of muggins may come: the game rests at a count, or at the next deal's first lay away."""
        waiting_count = self.phase == "show" and self.requested
        first_discard = self.phase == "discard" and not any(self.laid)
        return self.rules.muggins and self.muggins_open and (waiting_count or first_discard)

    def points_given(self, e: PointsGiven) -> None:
        """Outside a count (checked in `hand_shown`), points are given only for a wrong call of muggins."""
        if e.reason != "wrong muggins":
            self.fail("points given away that no count called for")
        if not self.muggins_moment() or not self.rules.wrong_muggins:
            self.fail("a wrong call of muggins outside its moment, or at a table where it is free")
        if e.given != self.rules.wrong_muggins or e.seat != self.opponent(e.offender):
            self.fail(f"a wrong call costs {self.rules.wrong_muggins}, to seat {self.opponent(e.offender)}")
        if any(self.side(m[0]) != self.side(e.offender) for m in self.missed):
            self.fail("a call of muggins with short counts open was not wrong")

    def muggins_called(self, e: MugginsCalled) -> None:
        """A call takes an opponent's open short count, for exactly the points missed, once."""
        if not self.muggins_moment():
            self.fail("muggins called outside its moment (after a count, before the next lay away)")
        if (e.offender, e.crib, e.given) not in self.missed or self.side(e.offender) == self.side(e.seat):
            self.fail(f"no such short count by an opponent is open: {self.missed}")
        self.missed.remove((e.offender, e.crib, e.given))
        self.muggins_caller = e.seat

    # ----------------------------------------------------------------- winning
    def game_won(self, e: GameWon) -> None:
        """Won exactly when a side reaches the target, by that side, worth what the skunk lines say."""
        if self.must_win is None or self.stage != "game":
            self.fail("a game won with no side at the target")
        side, target = self.must_win, self.rules.target
        others = [s for i, s in enumerate(self.scores) if i != side]
        if e.side != side or e.game != self.game_no or list(e.scores) != self.scores or max(others) >= target:
            self.fail(f"game {self.game_no} is won by side {side} with scores {self.scores}")
        points, skunk = expected_game_points(self.rules, max(others))
        self.match[side] += points
        if (e.game_points, e.skunk) != (points, skunk) or list(e.match_scores) != self.match:
            self.fail(f"the win is worth {points} ({skunk or 'no skunk'}), match scores {self.match}")
        self.must_win, self.winner, self.stage = None, side, "game over"
        self.match_reached = self.match[side] >= self.rules.match_games
        self.muggins_open, self.missed = False, []
        self.pending_given = None

    def match_won(self, e: MatchWon) -> None:
        """The match is won right after the game that brings a side to the match's game points."""
        if self.stage != "game over" or not self.match_reached or not isinstance(
            self.game.events[self.index - 1], GameWon
        ):
            self.fail("a match won before a side reached the match's game points")
        if e.side != self.winner or list(e.match_scores) != self.match:
            self.fail(f"the match is won by side {self.winner} with {self.match}")
        self.stage = "match over"

    def finish(self) -> None:
        """At the end of the log: nothing left half done, and the game's public state is the account's."""
        game = self.game
        if self.must_win is not None or self.pending_given is not None:
            self.fail("the log ends before a win or a give-away that was due")
        if self.stage == "game over":
            self.fail("the log ends between a game won and what follows it")
        if game.over != (self.stage == "match over"):
            self.fail("the game is over exactly when the match is won")
        if self.stage == "cut":
            return
        state = (game.scores, game.match_scores, game.winner, game.game_number, game.deal_number, game.dealer)
        account = (tuple(self.scores), tuple(self.match), self.winner, self.game_no, self.deal_no, self.dealer)
        if state != account:
            self.fail(f"the game's scores, match scores, winner, game, deal and dealer are {state}, "
                      f"the events' sum is {account}")
        if self.stage == "game" and self.phase == "play":
            held = tuple(sorted(game.hand(s)) for s in range(self.n))
            if held != tuple(sorted(r) for r in self.remaining) or game.count != self.count:
                self.fail("the hands held or the count differ from the cards laid")


def check_game(game: Game, *, exact_scores: bool = True, round_trip: bool = True) -> None:
    """Check every invariant of ``game`` over its log; raise AssertionError naming the first that fails.

    Checked, event by event:

    - the cut for deal: only seats tied for the lowest rank cut again; the single lowest deals game 1;
    - every deal: the hands, the crib's cards from the deck and the stock are the 52 cards once each; each hand and
      the deck's crib cards have rules.md's sizes; each seat lays away its share once from its own hand (the dealer
      nothing at 5 or 6 players); the kept hands and the crib end at their sizes; the dealer's right cuts a starter
      from the stock (so in no hand and not in the crib); a jack turned up gives the dealer his heels;
    - turn order: the deal passes left each deal; the pone leads; each card or go is by the seat whose turn it is
      (the first seat clockwise holding cards that has not said go); go only with no card that fits;
    - the play: each card is from the seat's kept hand and laid once; the count never passes 31; each card pegs
      `peg_points` of the series (and with ``exact_scores`` its score is `score_play`'s, item by item); the last
      card scores 1 once, never at 31; the next series is led from the last player's left; five-card plays one
      series, the others every card;
    - the show: from the dealer's left round to the dealer, then the crib; each is the seat's kept hand (or the
      crib) with the starter, worth `hand_points` (and with ``exact_scores`` scored `score_hand`, item by item;
      the soak leaves that to a share of its games, as `score_hand` costs ten times `hand_points`, which remembers
      its rank patterns); a count is asked exactly of people counting by hand and of
      computer players at a muggins table; a claim pegs itself when short and the truth when over; what is
      given away (missed, over-counted with the penalty on, half on a timeout) goes at once to the first seat
      clockwise on another side; computer players' short counts wait for muggins, which takes them once for the
      points missed, only between the count and the next lay away; a wrong call costs the table's price;
    - scores: each side's score is the sum of its events' points, none negative; nobody scores outside a game or
      after reaching the target; a game is won right after the event that brings a side to the target, by that
      side, with the other sides below it; skunks by `expected_game_points`; the match's game points add up and
      the match is won when they reach its length; a later game is dealt by the lowest side's first seat
      clockwise; five-card games open with three for last to the dealer's left;
    - manual pegging: exactly the people's cards wait for a claim, pegging nothing and telling nothing until it
      comes, as the very next event; the claim is for that card, with its true points (`peg_points`), from 0 to
      the most a card can make; it pegs and gives away as a manual count does;
    - at the end: the game's public scores, match scores, winner, game, deal, dealer (and in the play its hands
      and count) agree with the log.

    Then `Game.replayed` reaches the same `state_key`; with ``round_trip`` so does the save's text loaded back
    (`Game.loads`, which plays every move again from the seed and refuses a log those moves do not give).
    """
    _Walk(game, exact_scores).walk()
    key = game.state_key()
    if game.replayed().state_key() != key:
        raise AssertionError(f"{game.rules.describe()}, seed {game.seed}: replaying the log gives another state")
    if round_trip:
        try:
            loaded = Game.loads(game.dumps())
        except SaveError as error:
            raise AssertionError(f"{game.rules.describe()}, seed {game.seed}: the save does not load: "
                                 f"{error} ({error.__cause__})") from error
        if loaded.state_key() != key:
            raise AssertionError(f"{game.rules.describe()}, seed {game.seed}: the save loads to another state")


def check_view(game: Game, seat: int) -> None:
    """Check that ``seat``'s view of ``game`` holds its own cards and what is public, and nothing else.

    - every event is as that seat may see it: a deal shows only its own hand (not the others', the crib's cards
      from the deck or the stock), another seat's lay away only how many cards; every other event is whole;
    - no card of this deal that the seat may not know (another seat's hand or lay away, the crib, the stock) is
      named anywhere in the view, until it is laid in the play or shown; what it may know is its own dealt hand,
      the cards laid, the starter and the hands and crib shown;
    - the view's fields agree with the game's public state: the seat's own hand, kept hand and lay away; each
      seat's cards held and laid; the starter, count, series, turn, scores; the crib only once it is counted;
    - with manual pegging, a card waiting for its claim shows no points to anyone, the claimer included.
    """
    view = game.view(seat)
    log = game.events
    where = f"{game.rules.describe()}, seed {game.seed}, after {len(log)} events, seat {seat}"
    if view.seat != seat or len(view.events) != len(log):
        raise AssertionError(f"{where}: the view is of another seat or another log")
    for index, (full, seen) in enumerate(zip(log, view.events, strict=True)):
        if isinstance(full, Dealt):
            hands = tuple(hand if s == seat else () for s, hand in enumerate(full.hands))
            expected: Event = dataclasses.replace(full, hands=hands, crib=(), stock=())
        elif isinstance(full, Discarded) and full.seat != seat:
            expected = dataclasses.replace(full, cards=())
        else:
            expected = full
        if seen != expected:
            raise AssertionError(f"{where}: event {index} is seen as {_short(seen)}, should be {_short(expected)}")
        if isinstance(seen, Played) and seen.to_claim and (seen.score != Score() or seen.points):
            raise AssertionError(f"{where}: event {index} tells the points of a card before they are claimed")
    last_deal = max((i for i, e in enumerate(log) if isinstance(e, Dealt)), default=None)
    if last_deal is not None:
        deal = log[last_deal]
        assert isinstance(deal, Dealt)
        known = set(deal.hands[seat])
        for event in log[last_deal:]:
            if isinstance(event, Played):
                known.add(event.card)
            elif isinstance(event, StarterCut):
                known.add(event.card)
            elif isinstance(event, CountRequested | HandShown):
                known.update(event.cards)
        secret = set(_cards_in((deal.hands, deal.crib, deal.stock))) - known
        fields = (view.hand, view.kept, view.discards, view.starter, view.series, view.played, view.playable,
                  view.crib, view.events[last_deal:])
        leaked = set(_cards_in(fields)) & secret
        if leaked:
            raise AssertionError(f"{where}: the view names cards the seat may not know: {sorted(leaked)}")
    players = range(game.rules.players)
    crib: tuple[Card, ...] | None = None
    if last_deal is not None:
        shown = [e for e in log[last_deal:] if isinstance(e, CountRequested | HandShown) and e.crib]
        crib = shown[-1].cards if shown else None
    public = (
        view.hand == game.hand(seat), view.kept == game.kept(seat), view.discards == game.discards(seat),
        view.held == tuple(len(game.hand(s)) for s in players),
        view.laid_away == tuple(game.discards(s) is not None for s in players),
        view.played == tuple(game.played(s) for s in players), view.starter == game.starter,
        view.count == game.count, view.series == game.series, view.turn == game.turn,
        view.playable == game.playable(seat), view.scores == game.scores, view.match_scores == game.match_scores,
        view.dealer == game.dealer, view.phase == game.phase, view.counting == game.counting, view.crib == crib,
        view.claiming == game.claiming,
    )
    if not all(public):
        names = ("hand", "kept", "discards", "held", "laid_away", "played", "starter", "count", "series", "turn",
                 "playable", "scores", "match_scores", "dealer", "phase", "counting", "crib", "claiming")
        wrong = [name for name, ok in zip(names, public, strict=True) if not ok]
        raise AssertionError(f"{where}: the view's {', '.join(wrong)} disagree with the game")


def check_views(game: Game, samples: int, seed: int = 0) -> int:
    """`check_view` for every seat at ``samples`` moments of ``game`` picked with ``seed`` (and at its end), each
    rebuilt with `Game.at`; returns how many views were checked."""
    rng = random.Random(seed)
    length = len(game.events)
    moments = sorted({length, *(rng.randint(1, length) for _ in range(samples))})
    checked = 0
    for moment in moments:
        position = game.at(moment) if moment < length else game
        for seat in range(game.rules.players):
            check_view(position, seat)
            checked += 1
    return checked
