"""audiocrib: cribbage played by ear.

The rules engine (cards, scoring, rules, the game) is pure Python and imports no UI, speech or sound library.
"""

from __future__ import annotations

from audiocrib.cards import DECK, Card, Rank, Suit, parse_cards
from audiocrib.errors import AudiocribError, CardError, IllegalActionError, RulesError, SaveError
from audiocrib.scoring import Score, ScoreItem, ScoreKind, score_hand, score_play

__all__ = [
    "DECK",
    "AudiocribError",
    "Card",
    "CardError",
    "IllegalActionError",
    "Rank",
    "RulesError",
    "SaveError",
    "Score",
    "ScoreItem",
    "ScoreKind",
    "Suit",
    "parse_cards",
    "score_hand",
    "score_play",
]

__version__ = "0.1.0"
