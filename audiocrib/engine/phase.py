"""Where a game is: the phases of a deal and a match, from the cut for deal to the match won."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Phase"]


class Phase(StrEnum):
    """Where the game is. It rests only in DISCARD, PLAY, PEG_CLAIM, COUNT and MATCH_OVER; the others pass by
    themselves."""

    CUT_FOR_DEAL = "cut for deal"
    THREE_FOR_LAST = "three for last"
    DEAL = "deal"
    DISCARD = "discard"
    """Players lay cards away to the crib, all at once."""
    STARTER = "starter"
    HIS_HEELS = "his heels"
    PLAY = "play"
    """The play (pegging): the player whose turn it is lays a card."""
    PEG_CLAIM = "peg claim"
    """Manual pegging: the player who has just laid a card must claim what it made (`ClaimCount`)."""
    PLAY_ENDED = "play ended"
    SHOW = "show"
    COUNT = "count"
    """Manual counting: a player must claim the count of their hand or crib."""
    GAME_OVER = "game over"
    MATCH_OVER = "match over"
    """The match is won; no more actions."""
