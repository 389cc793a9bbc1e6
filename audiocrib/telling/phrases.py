"""The pieces every sentence is built from: words and cards in spoken lists, numbers of cards and points.

Pure text, in the words cribbage players use.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from audiocrib.engine.cards import Card
from audiocrib.engine.numbers import number_words

__all__ = ["capitalised", "card_names", "cards_phrase", "join_words", "points_phrase"]


def join_words(words: Sequence[str]) -> str:
    """Words joined as spoken: ``"a"``, ``"a and b"``, ``"a, b and c"``.

    >>> join_words(["you", "Carol", "Eve"])
    'you, Carol and Eve'
    """
    if not words:
        return ""
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " and " + words[-1]


def card_names(cards: Iterable[Card]) -> str:
    """Card names without articles, for lists: ``"five of hearts, six of clubs and jack of spades"``.

    >>> from audiocrib.engine.cards import parse_cards
    >>> card_names(parse_cards("5H 6C"))
    'five of hearts and six of clubs'
    """
    names = [card.name for card in cards]
    return join_words(names) if names else "no cards"


def points_phrase(points: int) -> str:
    """``"one point"``, ``"two points"``."""
    return f"{number_words(points)} point{'' if points == 1 else 's'}"


def cards_phrase(count: int) -> str:
    """``"no cards"``, ``"one card"``, ``"two cards"``."""
    if count == 0:
        return "no cards"
    return f"{number_words(count)} card{'' if count == 1 else 's'}"


def capitalised(text: str) -> str:
    """``text`` with its first letter a capital, for the start of a sentence."""
    return text[:1].upper() + text[1:]
