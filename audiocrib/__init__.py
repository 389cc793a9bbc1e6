"""audiocrib: cribbage played by ear.

The rules engine (cards, scoring, rules, the game) is pure Python and imports no UI, speech or sound library.
"""

from __future__ import annotations

from audiocrib.engine.cards import DECK, Card, Rank, Suit, parse_cards
from audiocrib.engine.errors import AudiocribError, CardError, IllegalActionError, RulesError, SaveError
from audiocrib.engine.game import Game, Phase
from audiocrib.engine.rules import Rules, Variant
from audiocrib.engine.scoring import Score, ScoreItem, ScoreKind, score_hand, score_play
from audiocrib.engine.views import PlayerView

__all__ = [
    "DECK",
    "AudiocribError",
    "Card",
    "CardError",
    "Game",
    "IllegalActionError",
    "Phase",
    "PlayerView",
    "Rank",
    "Rules",
    "RulesError",
    "SaveError",
    "Score",
    "ScoreItem",
    "ScoreKind",
    "Suit",
    "Variant",
    "parse_cards",
    "score_hand",
    "score_play",
]

__version__ = "0.1.0"
