"""Positions for the tests of the coach's reasons: a dealt hand, or a game stacked and played to a point of the
play with `tests.helpers`, and the coach's advice and words there."""

from __future__ import annotations

from collections.abc import Sequence

from audiocrib.coach import Coach, LayAwayAdvice, PlayAdvice, lay_away_facts
from audiocrib.engine.cards import Card, parse_cards
from audiocrib.engine.game import Game
from audiocrib.engine.numbers import number_words
from audiocrib.engine.rules import Rules
from audiocrib.engine.views import PlayerView
from audiocrib.telling.coaching import lay_away_words, loss_words, play_words
from audiocrib.telling.listener import SeatNames
from tests.helpers import plays, stacked, start_play

NAMES = ("You", "Bob", "Carol", "Dave")
S2 = SeatNames(NAMES[:2], Rules(), 0)


def lay_away(hand: str, dealer: bool) -> tuple[LayAwayAdvice, str]:
    """The advice for a six-card hand dealt to a two-player game, and its words (Bob deals when you do not)."""
    advice = lay_away_facts(parse_cards(hand), discard=2, my_crib=dealer, crib_size=4)
    return advice, lay_away_words(advice, S2, dealer=0 if dealer else 1)


def seated(hands: Sequence[str], discards: Sequence[str], starter: str, moves: str = "", dealer: int = 0,
           scores: Sequence[int] = (), rules: Rules | None = None) -> Game:
    """A stacked game at the play: hands dealt, laid away, the starter cut, and ``moves`` laid."""
    rules = rules or Rules(players=len(hands))
    game = start_play(stacked(hands, dealer=dealer, rules=rules, scores=scores, names=NAMES[:rules.players]),
                      discards, starter)
    if moves:
        plays(game, moves)
    return game


def advised(game: Game, seat: int = 0) -> tuple[PlayerView, PlayAdvice | LayAwayAdvice, str]:
    """The coach's advice at ``seat``'s decision, and the words it says there."""
    view = game.view(seat)
    advice = Coach().advise(view)
    assert advice is not None
    names = SeatNames(view.names, view.rules, view.seat)
    if isinstance(advice, LayAwayAdvice):
        return view, advice, lay_away_words(advice, names, view.dealer)
    return view, advice, play_words(advice, names)


def play_at(game: Game, seat: int = 0) -> tuple[PlayAdvice, str]:
    """The coach's advice for the card ``seat`` is to lay, and its words."""
    _, advice, words = advised(game, seat)
    assert isinstance(advice, PlayAdvice)
    return advice, words


def card(text: str) -> Card:
    """A card from its notation ("5S")."""
    return Card.parse(text)


def ascii_sentences(words: str) -> None:
    """Read aloud well: plain ASCII, no digits or symbols a screen reader would spell out."""
    assert words.isascii() and not any(ch.isdigit() for ch in words), words
    assert not set(words) & set("()[]/&%*#@<>|"), words


def in_words(n: int) -> str:
    """A number as the coach says it."""
    return number_words(n)


def loss(points: float) -> str:
    """A loss as the coach says it."""
    return loss_words(points)


def fifteen_position() -> Game:
    """You deal: you keep 5S 5D 9C 9H, Bob keeps KH QS 7D 8S and leads the king. Starter AH."""
    return seated(["5S 5D 9C 9H AC 2C", "KH QS 7D 8S 3C 4C"], ["AC 2C", "3C 4C"], "AH", "1:KH")


def go_position() -> Game:
    """You deal: you keep 9C 2C 5S 6S (AD AS laid away), Bob keeps KH 8D QC JC (7S 7H), starter 3H. Bob leads the
    king, you lay the nine (19), Bob the eight (27): your turn, and only the two fits."""
    return seated(["9C 2C 5S 6S AD AS", "KH 8D QC JC 7S 7H"], ["AD AS", "7S 7H"], "3H", "1:KH 0:9C 1:8D")

