"""The exceptions audiocrib raises; every message is one sentence that reads well aloud.

All are `ValueError`s, so a caller that only wants "was that input acceptable?" can catch that.
"""

from __future__ import annotations

__all__ = ["AudiocribError", "CardError", "IllegalActionError", "RulesError", "SaveError"]


class AudiocribError(ValueError):
    """Base class of every error the engine raises on bad input."""


class CardError(AudiocribError):
    """Card notation that is not a card, a repeated card, or the wrong number of cards."""


class RulesError(AudiocribError):
    """A table setting that cannot be played (say, seven-card cribbage for three players)."""


class IllegalActionError(AudiocribError):
    """A move the game does not allow at this moment; the game state is left unchanged."""


class SaveError(AudiocribError):
    """A saved game that cannot be read back."""
