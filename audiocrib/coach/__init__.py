"""The coach: what the expert would do at a player's decision and why, and what each decision cost.

Pure, like the engine and the computer players: it works from a seat's own `PlayerView` and returns frozen facts;
the words are `audiocrib.telling.coaching`'s.
"""

from audiocrib.coach.coach import Advice, Coach, advice_seed
from audiocrib.coach.laying import KeepChoice, LayAwayAdvice, lay_away_advice, lay_away_facts
from audiocrib.coach.playing import CardChoice, PlayAdvice, Reply, play_advice
from audiocrib.coach.review import MISTAKE, DealReview, Decision, MatchReview, Measure, Notebook

__all__ = [
    "MISTAKE",
    "Advice",
    "CardChoice",
    "Coach",
    "DealReview",
    "Decision",
    "KeepChoice",
    "LayAwayAdvice",
    "MatchReview",
    "Measure",
    "Notebook",
    "PlayAdvice",
    "Reply",
    "advice_seed",
    "lay_away_advice",
    "lay_away_facts",
    "play_advice",
]
