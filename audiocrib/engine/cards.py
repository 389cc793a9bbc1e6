"""Cards: ranks, suits, the 52-card deck, text notation and spoken names.

A card is written rank then suit: rank ``A 2..9 T J Q K`` (``10`` also works for ten), suit ``C D H S``,
in any case.

>>> Card.parse("5h")
Card.parse('5H')
>>> Card.parse("10d").name
'ten of diamonds'
>>> [str(c) for c in parse_cards("5H 5D 5S JC")]
['5H', '5D', '5S', 'JC']
>>> Card.parse("QS").value
10
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum, StrEnum

from audiocrib.engine.errors import CardError

__all__ = ["DECK", "Card", "Rank", "Suit", "cards_text", "parse_cards", "spoken_list"]


class Rank(IntEnum):
    """A card's rank; ace is always low (1) and king is 13."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def value_in_count(self) -> int:
        """Pip value in a count of fifteen or thirty-one: ace 1, two to ten face value, J Q K 10."""
        return min(int(self), 10)

    @property
    def letter(self) -> str:
        """One-character notation: ``A 2..9 T J Q K``."""
        return _RANK_LETTERS[self - 1]

    @property
    def word(self) -> str:
        """The rank as spoken: ``"ace"``, ``"seven"``, ``"king"``."""
        return _RANK_WORDS[self - 1]

    @property
    def plural(self) -> str:
        """The rank's plural as spoken: ``"sixes"``, ``"kings"``."""
        return "sixes" if self is Rank.SIX else self.word + "s"


class Suit(StrEnum):
    """A card's suit; suits are equal in cribbage. The value is the notation letter."""

    CLUBS = "C"
    """Clubs."""
    DIAMONDS = "D"
    """Diamonds."""
    HEARTS = "H"
    """Hearts."""
    SPADES = "S"
    """Spades."""

    @property
    def word(self) -> str:
        """The suit as spoken: ``"clubs"``."""
        return self.name.lower()


_RANK_LETTERS = "A23456789TJQK"
_RANK_WORDS = (
    "ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king",
)
_CARD_RE = re.compile(r"^(10|[2-9]|[atjqk])([cdhs])$", re.IGNORECASE)


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """A playing card; a frozen value ordered by rank then suit.

    >>> Card(Rank.JACK, Suit.CLUBS).name
    'jack of clubs'
    >>> Card.parse("jc") == Card(Rank.JACK, Suit.CLUBS)
    True
    """

    rank: Rank
    suit: Suit

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "rank", Rank(self.rank))
            object.__setattr__(self, "suit", Suit(self.suit))
        except ValueError:
            raise CardError(f"There is no card of rank {self.rank!r} and suit {self.suit!r}.") from None

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read one card in notation (``"5h"``, ``"TD"``, ``"10d"``); raise `CardError` if it is not a card."""
        cleaned = text.strip()
        known = _BY_TEXT.get(cleaned.upper())
        if known is not None:
            return known
        match = _CARD_RE.match(cleaned)
        if match is None:
            shown = cleaned if cleaned else "An empty entry"  # a sentence begins with it
            raise CardError(
                f"{shown!s} is not a card: write a rank (A, 2 to 9, T, J, Q or K) then a suit (C, D, H or S), like 5H."
            )
        rank_text, suit_text = match.groups()
        rank = Rank(10) if rank_text == "10" else Rank(_RANK_LETTERS.index(rank_text.upper()) + 1)
        return cls(rank, Suit(suit_text.upper()))

    @property
    def value(self) -> int:
        """Pip value in a count: ace 1, face cards 10."""
        return self.rank.value_in_count

    @property
    def name(self) -> str:
        """The spoken name: ``"five of hearts"``."""
        return f"{self.rank.word} of {self.suit.word}"

    @property
    def index(self) -> int:
        """A number from 0 to 51, unique per card (rank-major)."""
        return (self.rank - 1) * 4 + "CDHS".index(self.suit.value)

    def __str__(self) -> str:
        return self.rank.letter + self.suit.value

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Read cards separated by spaces or commas; raise `CardError` on a bad or repeated card.

    >>> parse_cards("5h, 5d 10s")
    (Card.parse('5H'), Card.parse('5D'), Card.parse('TS'))
    >>> parse_cards("5h 5h")
    Traceback (most recent call last):
    ...
    audiocrib.engine.errors.CardError: The five of hearts is given twice.
    """
    if isinstance(text, str):
        parts = [p for p in re.split(r"[\s,]+", text.strip()) if p]
    else:
        parts = []
        for entry in text:
            pieces = [p for p in re.split(r"[\s,]+", str(entry).strip()) if p]
            if not pieces:
                raise CardError("An empty entry is not a card.")
            parts += pieces
    cards = tuple(Card.parse(p) for p in parts)
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise CardError(f"The {card.name} is given twice.")
        seen.add(card)
    return cards


def cards_text(cards: Iterable[Card]) -> str:
    """Cards in notation separated by spaces: ``"5H 5D JC"``."""
    return " ".join(str(c) for c in cards)


def spoken_list(cards: Iterable[Card]) -> str:
    """Cards as a spoken list: ``"the five of hearts, the five of diamonds and the jack of clubs"``.

    >>> spoken_list(parse_cards("5H JC"))
    'the five of hearts and the jack of clubs'
    """
    names = [f"the {c.name}" for c in cards]
    if not names:
        return "no cards"
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


DECK: tuple[Card, ...] = tuple(Card(rank, suit) for rank in Rank for suit in Suit)
"""The 52 cards in order: ace of clubs, ace of diamonds, ... king of spades."""

# Parsing is on the path of every save file loaded: a table beats the regular expression.
_BY_TEXT: dict[str, Card] = {str(card): card for card in DECK}
_BY_TEXT.update({"10" + card.suit.value: card for card in DECK if card.rank is Rank.TEN})
