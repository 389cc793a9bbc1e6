"""Sound cues: which short sound goes with each moment of the game (issue 6). Pure: names and choices only.

Every cue is a WAV file in ``sounds/`` (16-bit PCM, mono, 22,050 Hz), made by ``sounds/make_sounds.py`` from
these descriptions, so the set is reproducible and has no licences to track. `cues_for` picks the cues for one
event as a seat hears it; the shell will play them beside the words.

>>> from audiocrib.engine.cards import Card, parse_cards
>>> from audiocrib.engine.events import Played
>>> from audiocrib.engine.scoring import score_play
>>> cues_for(Played(1, Card.parse("5S"), 15, score_play(parse_cards("TH 5S"))), seat=0)
('card', 'fifteen')
"""

from __future__ import annotations

from audiocrib.engine.events import (
    CountRequested,
    CutForDeal,
    Dealt,
    Discarded,
    Event,
    GameStarted,
    GameWon,
    HandShown,
    HisHeels,
    LastCard,
    MatchWon,
    MugginsCalled,
    PlayClaimed,
    Played,
    PlayEnded,
    PointsGiven,
    SaidGo,
    SeriesEnded,
    StarterCut,
    ThreeForLast,
)
from audiocrib.engine.rules import Rules
from audiocrib.engine.scoring import Score, ScoreKind

__all__ = ["CUES", "QUIET_EVENTS", "cues_for"]

CUES: dict[str, str] = {
    "your turn": "two rising notes: the game waits for you",
    "card": "a short soft click: a card laid",
    "fifteen": "a bright two-note chime: fifteen",
    "pair": "two equal notes: a pair (three for a pair royal, four for a double pair royal)",
    "run": "three quick rising notes: a run",
    "go": "a low single thud: go",
    "thirty-one": "a rising three-note fanfare: thirty-one",
    "last card": "one short high note: one for the go, or one for last",
    "his heels": "a jaunty two-note figure: his heels",
    "nobs": "a quick high flick: nobs",
    "flush": "a soft sweep upward: a flush",
    "points": "a tick: points pegged in the show",
    "deal": "a shuffle of noise: the cards are dealt",
    "starter": "a turn-over swish: the starter is cut",
    "count": "a question tone: count your hand",
    "timer": "a short beep: the counting timer's last seconds",
    "illegal": "a dull buzz: that key or move is not allowed",
    "game won": "a rising major arpeggio: your side won",
    "game lost": "a falling minor figure: your side lost",
    "skunk": "a wobbling low tone: a skunk",
    "muggins": "a sharp two-tone call: muggins",
    "chat": "two soft high blips: a message from another player",
}
"""Every cue by name, with what it sounds like and what it means."""

QUIET_EVENTS = (CutForDeal, GameStarted, ThreeForLast, Discarded, SeriesEnded, PlayEnded)
"""Events with words but no sound of their own (they come with others, or matter little by ear)."""


def cues_for(event: Event, seat: int, rules: Rules | None = None) -> tuple[str, ...]:
    """The cues for ``event`` heard by ``seat`` (whose side ``rules`` tells; alone without it), in order; empty
    for a quiet event."""
    if isinstance(event, Played):
        if event.to_claim:  # manual pegging: what the card made is heard with the claim
            return ("card", "count") if event.seat == seat else ("card",)
        return ("card", *_play_cues(event.score))
    if isinstance(event, PlayClaimed):
        return _play_cues(event.score)
    if isinstance(event, Dealt):
        return ("deal",)
    if isinstance(event, StarterCut):
        return ("starter",)
    if isinstance(event, HisHeels):
        return ("his heels",)
    if isinstance(event, SaidGo):
        return ("go",)
    if isinstance(event, LastCard):
        return ("last card",)
    if isinstance(event, CountRequested):
        return ("count",) if event.seat == seat else ()
    if isinstance(event, HandShown):
        kinds = {item.kind for item in event.score.items}
        extra = tuple(cue for kind, cue in ((ScoreKind.FLUSH, "flush"), (ScoreKind.NOBS, "nobs")) if kind in kinds)
        return ("points", *extra) if event.score.total else ()
    if isinstance(event, PointsGiven | MugginsCalled):
        return ("muggins",) if isinstance(event, MugginsCalled) else ("points",)
    if isinstance(event, GameWon | MatchWon):
        mine = rules.side_of(seat) if rules is not None else seat
        outcome = "game won" if event.side == mine else "game lost"
        return (outcome, "skunk") if isinstance(event, GameWon) and event.skunk else (outcome,)
    if isinstance(event, QUIET_EVENTS):
        return ()
    raise ValueError(f"No cue is chosen for the event {event.kind!r}.")


def _play_cues(score: Score) -> tuple[str, ...]:
    """The cues for what a card made in the play: fifteen, thirty-one, a run, a pair."""
    cues = []
    kinds = {item.kind for item in score.items}
    for kind, cue in ((ScoreKind.FIFTEEN, "fifteen"), (ScoreKind.THIRTY_ONE, "thirty-one"), (ScoreKind.RUN, "run")):
        if kind in kinds:
            cues.append(cue)
    if kinds & {ScoreKind.PAIR, ScoreKind.PAIR_ROYAL, ScoreKind.DOUBLE_PAIR_ROYAL}:
        cues.append("pair")
    return tuple(cues)
