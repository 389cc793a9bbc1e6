"""Plain English for counts, in the words cribbage players use ("fifteen two, fifteen four, and a pair is six").

Pure text: the shell, the command line and practice all say counts through here.

>>> from audiocrib.engine.cards import Card, parse_cards
>>> from audiocrib.engine.scoring import score_hand
>>> count_aloud(score_hand(parse_cards("7H 8H 8C 2D"), Card.parse("5S")))
'fifteen two, fifteen four, fifteen six, fifteen eight, and a pair is ten'
>>> count_aloud(score_hand(parse_cards("AH 3C 9D QS"), Card.parse("7C")))
'nineteen: nothing'
"""

from __future__ import annotations

from audiocrib.engine.numbers import number_words
from audiocrib.engine.scoring import Score, ScoreItem, ScoreKind

__all__ = ["count_aloud", "item_phrase"]

_NAMES = {
    ScoreKind.PAIR: "a pair",
    ScoreKind.PAIR_ROYAL: "a pair royal",
    ScoreKind.DOUBLE_PAIR_ROYAL: "a double pair royal",
    ScoreKind.NOBS: "nobs",
    ScoreKind.THIRTY_ONE: "thirty-one",
}


def item_phrase(item: ScoreItem) -> str:
    """What an item is called when counted: "a pair", "a run of four", "a five-card flush", "nobs"."""
    if item.kind is ScoreKind.RUN:
        return f"a run of {number_words(item.points)}"
    if item.kind is ScoreKind.FLUSH:
        return f"a {number_words(item.points)}-card flush"
    if item.kind is ScoreKind.FIFTEEN:
        return "fifteen"
    return _NAMES[item.kind]


def count_aloud(score: Score) -> str:
    """The count as a player says it, with a running total; "nineteen: nothing" for a hand of no points.

    >>> from audiocrib.engine.cards import Card, parse_cards
    >>> from audiocrib.engine.scoring import score_hand
    >>> count_aloud(score_hand(parse_cards("5H 5D 5S JC"), Card.parse("5C")))[-60:]
    'a double pair royal is twenty-eight, and nobs is twenty-nine'
    """
    if not score.items:
        return "nineteen: nothing"
    phrases = []
    running = 0
    for item in score.items:
        running += item.points
        if item.kind is ScoreKind.FIFTEEN:
            phrases.append(f"fifteen {number_words(running)}")
        else:
            phrases.append(f"{item_phrase(item)} is {number_words(running)}")
    if len(phrases) == 1:
        return phrases[0]
    return ", ".join(phrases[:-1]) + ", and " + phrases[-1]
