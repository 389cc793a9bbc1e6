"""One-key answers to a player's questions: each a function of the player's `PlayerView`, returning one sentence.

The shell binds them to keys: ``c`` `count`, ``b`` `crib_owner`, ``f`` `starter`, ``v`` `table`, ``s`` `scores`,
``t`` `turn`, ``h`` `hand`, ``n`` `held`, ``l`` `last_play`; `prompt` says what the game waits for from the
player, and `card_at` finds the card a digit key picks. Every answer is a plain ASCII line in the words cribbage
players use, with counts and points in words; only `hand` says digits, the positions the digit keys pick by.
Each answer also says something sensible outside its phase ("There is no count until the play starts.").

>>> from audiocrib.engine.game import Game
>>> view = Game(names=("Ann", "Bob"), seed=3).view(0)
>>> count(view)
'There is no count until the play starts.'
>>> starter(view)
'The starter is not cut yet.'
>>> table(view)
'Cards are on the table only in the play.'
>>> held(view)
'You hold six cards; Bob holds six cards.'
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence

from audiocrib.engine.cards import Card, spoken_list
from audiocrib.engine.events import (
    CountRequested,
    Dealt,
    Event,
    HandShown,
    LastCard,
    MatchWon,
    PlayClaimed,
    Played,
    SaidGo,
    SeriesEnded,
)
from audiocrib.engine.game import Phase
from audiocrib.engine.numbers import number_words
from audiocrib.engine.scoring import ScoreItem, ScoreKind
from audiocrib.engine.views import PlayerView
from audiocrib.telling.listener import SeatNames, match_phrase
from audiocrib.telling.phrases import capitalised, card_names, cards_phrase, join_words, points_phrase
from audiocrib.telling.play import counted_first
from audiocrib.telling.words import count_aloud

__all__ = [
    "WATCHING_HAND",
    "card_at",
    "card_in_play",
    "count",
    "crib_owner",
    "hand",
    "held",
    "last_play",
    "move_time",
    "on_the_table",
    "prompt",
    "scores",
    "starter",
    "table",
    "turn",
]


def card_in_play(view: PlayerView, card: Card) -> str:
    """A card of the hand as the play says it: "six of hearts, makes twenty-eight", or that it would pass
    thirty-one."""
    if card in view.playable:
        return f"{card.name}, makes {number_words(view.count + card.value)}"
    return f"{card.name}, would pass thirty-one"


def _seats(view: PlayerView) -> SeatNames:
    return SeatNames(view.names, view.rules, view.seat)


def _this_deal(view: PlayerView) -> tuple[Event, ...]:
    """The events since the latest deal (all of them if there has been no deal)."""
    for index in range(len(view.events) - 1, -1, -1):
        if isinstance(view.events[index], Dealt):
            return view.events[index + 1:]
    return view.events


def _winner(view: PlayerView) -> str:
    """The match is over, and who won it: "The match is over; Bob won."."""
    s = _seats(view)
    won = next((e for e in reversed(view.events) if isinstance(e, MatchWon)), None)
    if won is None:
        return "The match is over."
    return f"The match is over; {s.side(won.side)} won."


def _with_starter(cards: Collection[Card], starter_card: Card) -> str:
    return f"{card_names(sorted(cards))}, with the starter, the {starter_card.name}"


def _in_play(view: PlayerView) -> bool:
    """True in the play, a card's claim included (manual pegging): the table and the count stand."""
    return view.phase in (Phase.PLAY, Phase.PEG_CLAIM)


def _claimed_card(view: PlayerView) -> str:
    """Manual pegging: the card whose points are being claimed, as "your six of hearts" or "Ann's six of hearts"."""
    seat, card = view.series[-1]
    return f"{_seats(view).possessive(seat)} {card.name}"


def card_at(view: PlayerView, position: int) -> Card | None:
    """The card at 1-based ``position`` in the sorted hand (what `hand` reads out), or None if there is none.

    >>> from audiocrib.engine.game import Game
    >>> view = Game(seed=3).view(0)
    >>> card_at(view, 1) == sorted(view.hand)[0], card_at(view, 7)
    (True, None)
    """
    cards = sorted(view.hand)
    if 1 <= position <= len(cards):
        return cards[position - 1]
    return None


def count(view: PlayerView) -> str:
    """Key c: the running count in the play; in the show the hand being counted, or the last hand shown.

    A hand still being counted is read without its total: the counter must find it.
    """
    s = _seats(view)
    if _in_play(view):
        if view.count == 0 and not view.series:
            return "The count is zero; no cards on the table."
        return f"The count is {number_words(view.count)}."
    if view.phase is Phase.DISCARD:
        return "There is no count until the play starts."
    deal = _this_deal(view)
    if view.counting is not None:
        request = next((e for e in reversed(deal) if isinstance(e, CountRequested)), None)
        if request is not None:
            seat, crib = view.counting
            what = ("your crib" if crib else "your hand") if seat == view.seat else (
                "the crib" if crib else "their hand")
            doing = "You are counting" if seat == view.seat else f"{s.seat(seat, True)} is counting"
            return f"{doing} {what}: {_with_starter(request.cards, request.starter)}."
    shown = next((e for e in reversed(deal) if isinstance(e, HandShown)), None)
    if shown is not None:
        whose = f"{s.possessive(shown.seat, True)} {'crib' if shown.crib else 'hand'}"
        total = shown.score.total
        said = count_aloud(shown.score) if total else "nineteen: nothing"
        text = f"{whose}: {_with_starter(shown.cards, shown.starter)}. {said[0].upper()}{said[1:]}."
        if shown.pegged != total:
            text += f" {s.does(shown.seat, 'peg', True)} {number_words(shown.pegged)}."
        return text
    if view.series:
        return f"The game ended in the play, at a count of {number_words(view.count)}."
    return "No hand has been counted this deal."


def crib_owner(view: PlayerView) -> str:
    """Key b: whose crib it is, and at team tables which team it counts for."""
    s = _seats(view)
    text = f"The crib is {s.owner(view.dealer)}"
    if view.rules.team_size > 1:
        text += f"; it counts for {s.side(view.rules.side_of(view.dealer))}"
    return text + "."


def starter(view: PlayerView) -> str:
    """Key f: the starter, or that it is not cut yet."""
    if view.starter is None:
        return "The starter is not cut yet."
    return f"The starter is the {view.starter.name}."


def table(view: PlayerView) -> str:
    """Key v: the cards of this series in the order laid, whose each is, the count, and who has said go."""
    s = _seats(view)
    if not _in_play(view):
        return "Cards are on the table only in the play."
    if not view.series:
        text = "There are no cards on the table; the count is zero."
    else:
        text = on_the_table([f"{s.possessive(seat)} {card.name}" for seat, card in view.series], view.count)
    if view.said_go:
        gone = sorted(view.said_go, key=lambda seat: (seat - view.seat) % view.rules.players)
        names = join_words([s.seat(seat) for seat in gone])
        verb = "has" if len(gone) == 1 and gone[0] != view.seat else "have"
        text += f" {names[0].upper()}{names[1:]} {verb} said go."
    return text


def on_the_table(cards: Sequence[str], count: int) -> str:
    """The cards of a series as laid, and the count: key v, at the table and in a drill of the play.

    >>> on_the_table(["your five of hearts", "Bob's ten of clubs"], 15)
    "On the table: your five of hearts, then Bob's ten of clubs; the count is fifteen."
    """
    return f"On the table: {', then '.join(cards)}; the count is {number_words(count)}."


def scores(view: PlayerView) -> str:
    """Key s: each side's score and what it needs to win, yours first; the game and match score in a match."""
    s = _seats(view)
    target = view.rules.target
    parts = []
    over = max(view.scores) >= target  # the game is won: nobody needs anything any more
    for side in s.sides_from_mine():
        score = view.scores[side]
        if score >= target:
            parts.append(f"{s.side_does(side, 'have')} {number_words(score)} and won the game")
        elif over:
            parts.append(f"{s.side_does(side, 'have')} {number_words(score)}")
        else:
            parts.append(f"{s.side_does(side, 'have')} {number_words(score)} and "
                         f"{s.side_verb(side, 'need')} {number_words(target - score)}")
    text = "; ".join(parts) + "."
    text = text[0].upper() + text[1:]
    if view.rules.match_games > 1:
        text = f"Game {number_words(view.game_number)}. {text} {match_phrase(s, view.match_scores)}"
    return text


def _out_of_cards(view: PlayerView) -> str:
    """When you play again after your own card because the others have no cards left (nothing else says so):
    "Bob has no cards left. "; else nothing."""
    if not view.series or view.series[-1][0] != view.seat:
        return ""
    s = _seats(view)
    out = [seat for seat in range(view.rules.players) if seat != view.seat and not view.held[seat]
           and seat not in view.said_go]
    if not out:
        return ""
    names = join_words([s.seat(seat) for seat in sorted(out, key=lambda seat: (seat - view.seat) % len(view.held))])
    return f"{names[:1].upper()}{names[1:]} {'has' if len(out) == 1 else 'have'} no cards left. "


def _waiting_to_lay_away(view: PlayerView) -> list[int]:
    players = view.rules.players
    return sorted((seat for seat in range(players) if not view.laid_away[seat] and seat != view.seat),
                  key=lambda seat: (seat - view.seat) % players)


def move_time(view: PlayerView, seat: int, seconds: float) -> str:
    """Key t, after whose turn it is, at a table with a move time limit: how long ``seat`` has left for the move
    the game waits on. "Twenty seconds left for your move." or "Ann has one second left to move."
    """
    whole = max(0, math.ceil(seconds))
    left = f"{number_words(whole)} {'second' if whole == 1 else 'seconds'} left"
    if seat == view.seat:
        return f"{capitalised(left)} for your move."
    return f"{_seats(view).seat(seat, True)} has {left} to move."


def turn(view: PlayerView) -> str:
    """Key t: whose turn it is and what the game waits for."""
    s = _seats(view)
    if view.phase is Phase.DISCARD:
        waiting = _waiting_to_lay_away(view)
        others = join_words([s.seat(seat) for seat in waiting])
        if view.must_discard:
            text = f"You must lay away {cards_phrase(view.must_discard)} to {s.possessive(view.dealer)} crib."
            if waiting:
                return f"{text} {others} must lay away too."
            return f"{text} Everyone else has laid away."
        if view.watching:
            return f"Waiting for {others} to lay away." if waiting else "Everyone has laid away."
        mine = "You lay nothing away this deal." if view.discards == () else "You have laid away."
        return f"{mine} Waiting for {others} to lay away." if waiting else mine
    if view.phase is Phase.PLAY:
        if view.my_turn:
            if not view.playable:
                return f"Your turn, and no card fits: say go; the count is {number_words(view.count)}."
            return f"Your turn; the count is {number_words(view.count)}."
        if view.turn is not None:
            return f"{s.possessive(view.turn, True)} turn."
        return "Nobody is to play."
    if view.claiming is not None:
        if view.claiming == view.seat:
            return f"Your turn to claim the points of {_claimed_card(view)}."
        return f"Waiting for {s.seat(view.claiming)} to claim the points of {_claimed_card(view)}."
    if view.phase is Phase.COUNT and view.counting is not None:
        seat, crib = view.counting
        if seat == view.seat:
            return f"Your turn to count your {'crib' if crib else 'hand'}."
        return f"Waiting for {s.seat(seat)} to count {'the crib' if crib else 'their hand'}."
    if view.phase is Phase.MATCH_OVER:
        return _winner(view)
    return "Nothing is awaited now."


WATCHING_HAND = "You are watching, and hold no cards."
"""Key h for a watcher."""


def hand(view: PlayerView, marked: Collection[Card] = (), positions: bool = True) -> str:
    """Key h: your cards in sorted order with their positions (the digit keys pick by them; ``positions`` false
    leaves them out, and the marks, as a replay does, where no key picks a card), marked cards said as marked; in
    the play also what you have played; in the show the hand you kept, with the starter.

    >>> from audiocrib.engine.game import Game
    >>> view = Game(names=("Ann", "Bob"), seed=3).view(0)
    >>> hand(view, marked=sorted(view.hand)[:1]).split("; ")[0].endswith(", marked")
    True
    >>> hand(view, positions=False)
    'Your hand: four of clubs, five of hearts, jack of diamonds, jack of hearts, queen of spades and king of diamonds.'
    """
    if view.watching:
        return WATCHING_HAND
    if view.phase is Phase.DISCARD or _in_play(view):
        numbered = "; ".join(
            f"{position}, {card.name}" + (", marked" if card in marked else "")
            for position, card in enumerate(sorted(view.hand), 1)
        ) if positions else card_names(sorted(view.hand))
        text = f"Your hand: {numbered}." if view.hand else "You have no cards left."
        if view.phase is Phase.DISCARD and view.discards:
            text += f" You laid away {spoken_list(view.discards)}."
        played = view.played[view.seat]
        if _in_play(view) and played:
            text += f" You have played {spoken_list(played)}."
        return text
    kept = view.kept or view.hand
    if view.phase is Phase.MATCH_OVER:
        return f"The match is over; your last hand was {card_names(sorted(kept))}."
    if view.starter is not None and kept:
        return f"Your hand for the show: {_with_starter(kept, view.starter)}."
    return f"Your hand: {card_names(sorted(kept))}."


def held(view: PlayerView) -> str:
    """Key n: how many cards each player holds, you first, then clockwise."""
    s = _seats(view)
    players = view.rules.players
    order = [(view.seat + step) % players for step in range(players)]
    text = "; ".join(f"{s.does(seat, 'hold')} {cards_phrase(view.held[seat])}" for seat in order)
    return text[0].upper() + text[1:] + "."


def _item_explained(item: ScoreItem) -> str:
    """One scoring item of the play with its cards: "three for the run of four, five and six"."""
    points = number_words(item.points)
    rank = item.cards[-1].rank if item.cards else None
    if item.kind is ScoreKind.RUN:
        ranks = join_words([card.rank.word for card in sorted(item.cards)])
        return f"{points} for the run of {ranks}"
    if item.kind in (ScoreKind.PAIR, ScoreKind.PAIR_ROYAL, ScoreKind.DOUBLE_PAIR_ROYAL) and rank is not None:
        return f"{points} for a {item.kind.value} of {rank.plural}"
    return f"{points} for {item.kind.value}"


def last_play(view: PlayerView) -> str:
    """Key l: the last thing that happened in this deal's play, explained: a card and what it scored, a go, or
    the point for the last card."""
    s = _seats(view)
    running = 0
    latest: tuple[Event, int] | None = None
    for event in _this_deal(view):
        if isinstance(event, Played):
            running = event.count
            latest = (event, running)
        elif isinstance(event, PlayClaimed):
            latest = (event, running)
        elif isinstance(event, SaidGo | LastCard):
            latest = (event, running)
        elif isinstance(event, SeriesEnded):
            running = 0
    if latest is None:
        return "Nothing has been played yet this deal."
    event, at = latest
    if isinstance(event, SaidGo):
        return f"{s.seat(event.seat, True)} said go at {number_words(at)}."
    if isinstance(event, LastCard):
        who = s.seat(event.seat)
        return f"Nobody could play at {number_words(event.count)}, so {who} pegged one for the last card."
    assert isinstance(event, Played | PlayClaimed)
    text = f"{s.seat(event.seat, True)} played the {event.card.name} for {number_words(event.count)}"
    if isinstance(event, Played) and event.to_claim:
        return f"{text}; {s.possessive(event.seat)} claim of its points is awaited."
    items = [_item_explained(item) for item in counted_first(event.score)]
    said = ""
    if isinstance(event, PlayClaimed) and event.claimed != event.score.total:
        said = f" {s.seat(event.seat, True)} said {number_words(event.claimed)}."
    if not items:
        return text + "." + said
    if len(items) == 1:
        return f"{text}: {items[0]}.{said}"
    return f"{text}: {join_words(items)}; {points_phrase(event.score.total)} in all.{said}"


def prompt(view: PlayerView, marked: Collection[Card] = ()) -> str:
    """What the game waits for from this player now, as a short instruction."""
    s = _seats(view)
    if view.phase is Phase.MATCH_OVER:
        return _winner(view)
    if view.phase is Phase.DISCARD:
        if view.must_discard:
            whose = f"{s.possessive(view.dealer)} crib"
            if view.must_discard == 1:
                text = f"Lay away one card to {whose}: space marks it, Enter lays it away."
            else:
                text = (f"Lay away {cards_phrase(view.must_discard)} to {whose}: "
                        f"space marks a card, Enter lays them away.")
            chosen = [card for card in sorted(view.hand) if card in marked]
            if chosen:
                text += f" Marked: {spoken_list(chosen)}."
            return text
        waiting = _waiting_to_lay_away(view)
        return f"Waiting for {join_words([s.seat(seat) for seat in waiting])} to lay away." if waiting else (
            "Waiting for the starter.")
    if view.phase is Phase.PLAY:
        if view.my_turn:
            again = _out_of_cards(view)
            if not view.playable:
                return f"{again}Your turn: no card fits, so say go; the count is {number_words(view.count)}."
            return f"{again}Your turn: play a card; the count is {number_words(view.count)}."
        if view.turn is not None:
            return f"Waiting for {s.seat(view.turn)}."
    if view.claiming is not None:
        if view.claiming == view.seat:
            return (f"Claim the points of {_claimed_card(view)} for {number_words(view.count)}: type them, "
                    "then Enter.")
        return f"Waiting for {s.seat(view.claiming)} to claim their points."
    if view.phase is Phase.COUNT and view.counting is not None:
        seat, crib = view.counting
        if seat == view.seat:
            return f"Count your {'crib' if crib else 'hand'} and type the total, then Enter."
        return f"Waiting for {s.seat(seat)} to count."
    return "Nothing is awaited now." if view.watching else "Nothing is asked of you now."
