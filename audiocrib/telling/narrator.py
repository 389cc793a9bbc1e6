"""The narrator: the game's events, as one seat sees them, turned into sentences a player hears.

Feed a `Narrator` every event of ``game.view(seat).events`` in order (``tell`` one at a time, or ``tell_all``);
each call returns zero or more announcements. An announcement is one plain ASCII line, a sentence or a few, that
ends with a full stop. Counts and points are always words ("twenty-two", never "22"), as players hear them. The
listener is "you"; the others are named. At team tables a side is named by its players ("Bob and Dave",
"you and Carol").

>>> from audiocrib.engine.cards import Card
>>> from audiocrib.engine.scoring import Score, score_play
>>> from audiocrib.engine.cards import parse_cards
>>> narrator = Narrator(("Ann", "Bob"), Rules(), seat=0)
>>> narrator.tell(Played(seat=1, card=Card.parse("7C"), count=22, score=Score()))
['Bob plays the seven of clubs for twenty-two.']
>>> narrator.tell(Played(seat=0, card=Card.parse("6H"), count=28, score=score_play(parse_cards("7C 8D 6H"))))
['You play the six of hearts for twenty-eight: a run of three, three points.']
>>> narrator.verbosity = Verbosity.BRIEF
>>> narrator.tell(Played(seat=1, card=Card.parse("8C"), count=15, score=score_play(parse_cards("7D 8C"))))
['Bob: eight of clubs, fifteen for two.']

What each verbosity says, event by event (NORMAL is the default; FULL is NORMAL plus the extras noted; BRIEF is
NORMAL cut down as noted):

- Cut for deal: who cut what, and who tie for lowest and cut again ("You cut the five of hearts; Bob cuts the
  king of clubs."). BRIEF: "Cut for deal: you, five of hearts; Bob, king of clubs."
- Game started: who deals first, with the game number when the match is longer than one game ("Game two: Bob
  deals first."). FULL adds the target, and the game points that win the match.
- Three for last: "Three for last to Bob." at every verbosity.
- Deal: the deal number and the dealer ("Deal three: Bob deals."), then your hand in sorted order as a second
  announcement ("Your hand: ace of clubs, five of hearts, ..."). BRIEF: "Deal three, Bob deals." and no hand
  (the hand key reads it). FULL says whose crib it is, and with three players that a card from the pack goes to
  the crib.
- Laying away: your own always ("You lay away the five of hearts and the six of clubs."; BRIEF "Laid away: five
  of hearts and six of clubs."); the others' at FULL only ("Bob lays away two cards.").
- The starter: "Bob cuts; the starter is the jack of hearts." BRIEF: "Starter: jack of hearts."
- His heels: "Ann pegs two for his heels." (or "You peg two ...") at every verbosity.
- A card played: "Bob plays the seven of clubs for twenty-two." With points: after the count, the items and the
  points ("You play the six of hearts for twenty-eight: a run of three, three points."); when the only item is
  fifteen at fifteen, or thirty-one at thirty-one, the count already says it: "Bob plays the eight of clubs for
  fifteen: two points." BRIEF: "Bob: seven of clubs, twenty-two." and "Bob: eight of clubs, fifteen for two."
- A card played with manual pegging, by a player who calls their own points: no points yet. To that player, what
  to do ("You play the six of hearts for twenty-one; type its points and press Enter."; BRIEF "You: six of
  hearts, twenty-one. Your points?"); to everyone else the card and the count ("Ann plays the six of hearts for
  twenty-one.").
- The points of a card claimed (manual pegging), in the voice of a manual count: "You said four, which is right:
  fifteen two, and a pair is four.", or what was said and then what the card made ("You said two. The card made
  four: fifteen two, and a pair is four."; BRIEF without the items); what was missed or over-claimed follows as
  points given ("You missed two; Bob pegs them.", "You claimed two too many; Bob pegs them.").
- Go: "Bob says go." / "You say go." BRIEF: "Bob: go."
- Last card: "Bob pegs one for the go." while the play goes on in a new series, "Bob pegs one for last." for the
  last card of the play. BRIEF: "Bob: one for the go." and "Bob: one for last."
- A series ended: "The count starts again at zero.", except after the last card of the play (and in five-card
  cribbage, whose play is a single series), when the play is simply over.
- The play ended: "The play is over." In five-card cribbage, if cards are still held, NORMAL and FULL add that
  they are not played but count in the show.
- Count requested (manual counting): to the counter, the cards (sorted), the starter and what to do ("Count your
  hand: ... , with the starter, the jack of clubs; type the total and press Enter.", and the time allowed if the
  table has a timer); BRIEF just the cards and the starter. To everyone else: "Bob is counting." (or "... the
  crib."), except at a muggins table below FULL, where the computer's own count follows at once.
- A hand or crib shown: whose, then the count in cribbage style ("Bob's hand: ... Fifteen two, fifteen four, and
  a pair is six."). NORMAL names the cards of every hand and crib: in a real game each hand is laid face up as it
  is counted and everyone at the table sees it, so hearing the cards is the only way to follow (and check) the
  count and to learn what an opponent kept; your own hand too, whose cards were played away in the play (players
  trying the game by ear could not follow their own count without them). A hand you counted yourself is not read
  again: its question has just named its cards. FULL names the cards of every hand and crib, with the starter.
  BRIEF says only whose and the total ("Bob's hand, six."). With manual counting the
  claim comes first ("You said eight.", "... which is right.", or "Your time is up."), and NORMAL and FULL end
  with the true count in cribbage style ("You said eight. The hand is ten: fifteen two, ..., and a pair is
  ten."; BRIEF "The hand is ten."), and after a timeout what the counter keeps ("You peg five."). A hand of
  nothing is "nineteen", as players say: "Bob's hand: ... Nineteen: nothing." At a muggins table a computer's count
  is heard as it said it, not the truth ("Bob's hand: ... Bob counts twelve."): finding the miss is the player's
  part.
- Points given (manual counting): "You missed two; Bob pegs them.", "Bob over-counted by one; you peg it.",
  "Bob pegs five, half the count, because your time ran out.", "You called muggins, but every count was right;
  Bob pegs two." at every verbosity.
- Muggins called: "Muggins! You take two that Bob missed.", then at NORMAL and FULL the true count of the hand
  ("Bob's hand is fourteen: fifteen two, ...").
- Game won: the winner and the final scores ("Bob wins the game, one hundred twenty-one to ninety."), the skunk,
  double skunk or lurch, in a match with what it is worth ("That is a skunk, worth two games."), and between games
  of a match the match score. Every verbosity says all of it.
- Match won: "Bob wins the match, three game points to one."; for a single game, "Game over."
- After each deal's show (before the next deal), NORMAL says the scores in one short sentence
  ("You have forty-five, Bob fifty-two."); FULL has said them after every score, and BRIEF leaves them to the s key.
- FULL only: after every event that scores, the scorer's side's total and (if that is another side) yours, as a
  separate announcement ("Bob has forty-five; you have thirty.").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from audiocrib.engine.cards import spoken_list
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
from audiocrib.engine.numbers import number_words
from audiocrib.engine.rules import Rules
from audiocrib.telling.listener import SeatNames, Verbosity, match_phrase, side_list
from audiocrib.telling.phrases import capitalised, card_names, cards_phrase, join_words, points_phrase
from audiocrib.telling.play import (
    claimed_too_many,
    counted_first,
    play_aloud,
    play_claimed,
    play_points,
    played,
    played_to_claim,
)
from audiocrib.telling.show import count_requested, hand_shown, muggins, points_given

__all__ = [
    "Narrator",
    "SeatNames",
    "Verbosity",
    "card_names",
    "cards_phrase",
    "counted_first",
    "join_words",
    "match_phrase",
    "play_aloud",
    "play_points",
    "points_phrase",
    "side_list",
    "standing_said",
]


def standing_said(s: SeatNames, scores: Sequence[int]) -> str:
    """Every side's score, the listener's first, in one short sentence: "You have forty-five, Bob fifty-two."."""
    first, *others = s.sides_from_mine()
    text = f"{s.side_does(first, 'have', True)} {number_words(scores[first])}"
    return text + "".join(f", {s.side(side)} {number_words(scores[side])}" for side in others) + "."


class Narrator:
    """Announcements for one seat from the events that seat sees, at a verbosity the player may change.

    The narrator keeps a little state from the events it is told (the scores, the dealer, how many cards have been
    laid in this deal's play), so it must be told every event of the seat's log, in order.
    """

    def __init__(
        self, names: tuple[str, ...], rules: Rules, seat: int, verbosity: Verbosity = Verbosity.NORMAL
    ) -> None:
        if len(names) != rules.players:
            raise ValueError(f"This table needs {rules.players} names, not {len(names)}.")
        if not 0 <= seat <= rules.players:  # rules.players: a watcher's (`watcher_seat`), who holds no cards
            raise ValueError("There is no such seat at this table.")
        self.names = tuple(names)
        self.rules = rules
        self.seat = seat
        self.verbosity = Verbosity(verbosity)
        self.seats = SeatNames(self.names, rules, seat)
        self.scores: list[int] = [0] * rules.sides
        """Each side's score in this game, as told so far."""
        self.dealer: int | None = None
        """The dealer of the deal being narrated, once a deal is told."""
        self._laid = 0
        self._shown: dict[tuple[int, bool], HandShown] = {}
        """This show's hands and cribs, by (seat, crib): what a muggins call refers back to."""
        self._previous: Event | None = None
        """The event told last: a claim in the play, whose excess given away is told as a claim's."""

    # ----------------------------------------------------------------- names
    def seat_name(self, seat: int, capital: bool = False) -> str:
        """``"you"`` for this narrator's seat, else the seat's name (capitalised for the start of a sentence)."""
        return self.seats.seat(seat, capital)

    def side_name(self, side: int, capital: bool = False) -> str:
        """A side by its players: ``"Bob"`` alone, ``"Bob and Dave"`` or ``"you and Carol"`` in teams."""
        return self.seats.side(side, capital)

    # ----------------------------------------------------------------- telling
    def tell_all(self, events: Iterable[Event]) -> list[str]:
        """`tell` each event in turn; every announcement, in order."""
        lines: list[str] = []
        for event in events:
            lines += self.tell(event)
        return lines

    def tell(self, event: Event) -> list[str]:
        """What the player hears for ``event`` (seen by this seat), at the current verbosity: zero or more lines."""
        self._fold(event)
        lines = self._say(event)
        self._previous = event
        if self.verbosity is Verbosity.FULL and event.scorer is not None and event.points:
            lines.append(self._score_line(self.rules.side_of(event.scorer)))
        return lines

    def _fold(self, event: Event) -> None:
        if isinstance(event, GameStarted):
            self.scores = [0] * self.rules.sides
            self.dealer = event.dealer
        elif isinstance(event, Dealt):
            self.dealer = event.dealer
            self._laid = 0
        elif isinstance(event, Played):
            self._laid += 1
        elif isinstance(event, PlayEnded):
            self._shown = {}
        elif isinstance(event, HandShown):
            self._shown[(event.seat, event.crib)] = event
        if event.scorer is not None and event.points:
            self.scores[self.rules.side_of(event.scorer)] += event.points

    @property
    def _brief(self) -> bool:
        return self.verbosity is Verbosity.BRIEF

    @property
    def _full(self) -> bool:
        return self.verbosity is Verbosity.FULL

    @property
    def _cards_left(self) -> bool:
        """True while some card of this deal's hands has not been laid in the play."""
        return self._laid < self.rules.players * self.rules.shape.hand

    def _say(self, event: Event) -> list[str]:
        s = self.seats
        if isinstance(event, CutForDeal):
            return [self._cut(event)]
        if isinstance(event, GameStarted):
            return [self._game_started(event)]
        if isinstance(event, ThreeForLast):
            return [f"Three for last to {s.seat(event.seat)}."]
        if isinstance(event, Dealt):
            return self._dealt(event)
        if isinstance(event, Discarded):
            return self._discarded(event)
        if isinstance(event, StarterCut):
            if self._brief:
                return [f"Starter: {event.card.name}."]
            return [f"{s.does(event.cutter, 'cut', True)}; the starter is the {event.card.name}."]
        if isinstance(event, HisHeels):
            return [f"{s.does(event.seat, 'peg', True)} two for his heels."]
        if isinstance(event, Played) and event.to_claim:
            return [played_to_claim(event, s, self.verbosity)]
        if isinstance(event, PlayClaimed):
            return [play_claimed(event, s, self.verbosity)]
        if isinstance(event, Played):
            return [played(event, s, self.verbosity)]
        if isinstance(event, SaidGo):
            return [f"{s.seat(event.seat, True)}: go." if self._brief else f"{s.does(event.seat, 'say', True)} go."]
        if isinstance(event, LastCard):
            # "the go" while the play goes on in a new series; "last" for the last card of the play
            point = "the go" if self._cards_left and not self.rules.single_series else "last"
            if self._brief:
                return [f"{s.seat(event.seat, True)}: one for {point}."]
            return [f"{s.does(event.seat, 'peg', True)} one for {point}."]
        if isinstance(event, SeriesEnded):
            if self.rules.single_series or not self._cards_left:
                return []
            return ["The count starts again at zero."]
        if isinstance(event, PlayEnded):
            if self._cards_left and not self._brief:
                return ["The play is over. The cards still held are not played, but they count in the show."]
            return ["The play is over."]
        if isinstance(event, CountRequested):
            if event.seat != self.seat and self.rules.muggins and not self._full:
                return []  # a computer counting aloud: its count follows at once
            return [count_requested(event, s, self.verbosity)]
        if isinstance(event, HandShown):
            return [hand_shown(event, s, self.verbosity)]
        if isinstance(event, PointsGiven):
            if event.reason == "over-counted" and isinstance(self._previous, PlayClaimed):
                return [claimed_too_many(event, s)]  # the excess of a claim in the play, just told
            return [points_given(event, s)]
        if isinstance(event, MugginsCalled):
            return [muggins(event, s, self.verbosity, self._shown.get((event.offender, event.crib)))]
        if isinstance(event, GameWon):
            return [self._game_won(event)]
        if isinstance(event, MatchWon):
            return [self._match_won(event)]
        return []

    # ----------------------------------------------------------------- one event kind each
    def _cut(self, event: CutForDeal) -> str:
        s = self.seats
        pairs = list(zip(event.seats, event.cards, strict=True))
        if self._brief:
            text = "Cut for deal: " + "; ".join(f"{s.seat(seat)}, {card.name}" for seat, card in pairs) + "."
        else:
            text = capitalised("; ".join(f"{s.does(seat, 'cut')} the {card.name}" for seat, card in pairs)) + "."
        low = min(card.rank for card in event.cards)
        tied = [s.seat(seat) for seat, card in pairs if card.rank == low]
        if len(tied) > 1:
            text += f" {capitalised(join_words(tied))} tie with {low.plural} and cut again."
        return text

    def _game_started(self, event: GameStarted) -> str:
        s = self.seats
        rules = self.rules
        text = f"{s.does(event.dealer, 'deal')} first."
        if rules.match_games > 1:
            text = f"Game {number_words(event.game)}: {text}"
        else:
            text = capitalised(text)
        if self._full:
            text += f" The game is to {number_words(rules.target)} points."
            if rules.match_games > 1:
                text += f" The first to {number_words(rules.match_games)} game points wins the match."
        return text

    def _dealt(self, event: Dealt) -> list[str]:
        s = self.seats
        deal = number_words(event.deal)
        if self._brief:
            return [f"Deal {deal}, {s.does(event.dealer, 'deal')}."]
        text = f"Deal {deal}: {s.does(event.dealer, 'deal')}."
        if self._full:
            text = f"Deal {deal}: {s.does(event.dealer, 'deal')}, so the crib is {s.owner(event.dealer)}."
            extra = self.rules.shape.crib_from_deck
            if extra:
                goes = "goes" if extra == 1 else "go"
                text += f" {capitalised(cards_phrase(extra))} from the pack {goes} to the crib."
        lines = [text]
        hand = event.hands[self.seat] if self.seat < len(event.hands) else ()
        if hand:
            lines.append(f"Your hand: {card_names(sorted(hand))}.")
        return lines

    def _discarded(self, event: Discarded) -> list[str]:
        if event.seat == self.seat:
            if self._brief:
                return [f"Laid away: {card_names(sorted(event.cards))}."]
            return [f"You lay away {spoken_list(sorted(event.cards))}."]
        if self._full:
            return [f"{self.seats.does(event.seat, 'lay', True)} away {cards_phrase(event.count)}."]
        return []

    def _game_won(self, event: GameWon) -> str:
        s = self.seats
        winner = s.side_does(event.side, "win", True)
        game = f"game {number_words(event.game)}" if self.rules.match_games > 1 else "the game"
        top = number_words(event.scores[event.side])
        losers = [side for side in s.sides_from_mine() if side != event.side]
        if len(losers) == 1:
            text = f"{winner} {game}, {top} to {number_words(event.scores[losers[0]])}."
        else:
            rest = side_list(s, [f"{s.side_does(side, 'have')} {number_words(event.scores[side])}" for side in losers])
            text = f"{winner} {game} with {top}; {rest}."
        if event.skunk:  # what it is worth matters only in a match
            worth = f", worth {number_words(event.game_points)} games" if self.rules.match_games > 1 else ""
            text += f" That is a {event.skunk}{worth}."
        if self.rules.match_games > 1 and max(event.match_scores) < self.rules.match_games:
            text += " " + match_phrase(s, event.match_scores)
        return text

    def _match_won(self, event: MatchWon) -> str:
        s = self.seats
        if self.rules.match_games == 1:
            return "Game over."
        winner = s.side_does(event.side, "win", True)
        top = number_words(event.match_scores[event.side])
        losers = [side for side in s.sides_from_mine() if side != event.side]

        def points(side: int) -> str:
            return number_words(event.match_scores[side]) if event.match_scores[side] else "none"

        if len(losers) == 1:
            return f"{winner} the match, {top} game points to {points(losers[0])}."
        rest = side_list(s, [f"{s.side_does(side, 'have')} {points(side)}" for side in losers])
        return f"{winner} the match with {top} game points; {rest}."

    def standing(self) -> str:
        """Every side's score as told so far, the listener's first, in one short sentence (said after each
        deal's show at NORMAL): "You have forty-five, Bob fifty-two."."""
        return standing_said(self.seats, self.scores)

    def retell(self, event: Event) -> list[str]:
        """The lines of ``event``, told already, said again (a question asked again on a resume); what the
        narrator remembers does not change."""
        return self._say(event)

    def _score_line(self, side: int) -> str:
        s = self.seats
        text = f"{s.side_does(side, 'have', True)} {number_words(self.scores[side])}"
        mine = self.rules.side_of(self.seat)
        if side != mine:
            text += f"; {s.side_does(mine, 'have')} {number_words(self.scores[mine])}"
        return text + "."
