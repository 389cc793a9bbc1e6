"""The checks of a player's move, each refusing what the game does not allow with one sentence that reads well
aloud (raised as `IllegalActionError`).

`Game.verify` calls these with the parts of the state each one needs; none of them changes anything.

>>> try:
...     check_play(Card.parse("KS"), (Card.parse("KS"),), 25)
... except IllegalActionError as refusal:
...     print(refusal)
The king of spades would take the count past thirty-one; the count is twenty-five.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable, Collection, Sequence
from typing import Any

from audiocrib.engine.actions import ACTION_TYPES, ClaimCount, CountTimeout
from audiocrib.engine.cards import DECK, Card, Rank, Suit, spoken_list
from audiocrib.engine.errors import IllegalActionError
from audiocrib.engine.numbers import number_words
from audiocrib.engine.phase import Phase
from audiocrib.engine.rules import Rules
from audiocrib.engine.scoring import MAX_SCORE

__all__ = [
    "MAX_PLAY_SCORE",
    "PLAY_POINTS",
    "check_count",
    "check_discard",
    "check_form",
    "check_go",
    "check_muggins",
    "check_peg_claim",
    "check_play",
    "check_seat",
    "check_turn",
]

MAX_PLAY_SCORE = 14
PLAY_POINTS = f"A card in the play makes from zero to {number_words(MAX_PLAY_SCORE)} points."
"""The refusal of a claim for a card in the play out of range (the game's, and the drill's)."""
"""The most one card can make in the play: a double pair royal that makes fifteen or thirty-one (6 5 A A A A,
or 5 K 4 4 4 4). A pair and a run cannot both end on one card, and the longest run that fits, ace to seven with a
three before it, makes nine with thirty-one."""


def _is_card(value: object) -> bool:
    """A real `Card`: not a subclass, and not one whose fields were set around its checks."""
    return (type(value) is Card and type(getattr(value, "rank", None)) is Rank
            and type(getattr(value, "suit", None)) is Suit)


def _is_cards(value: object) -> bool:
    return type(value) is tuple and len(value) <= len(DECK) and all(_is_card(c) for c in value)


_FIELD_CHECKS: dict[object, tuple[Callable[[object], bool], str]] = {
    int: (lambda value: type(value) is int, "That is not a whole number."),
    Card: (_is_card, "That is not a card."),
    tuple[Card, ...]: (_is_cards, "That is not a card."),
}
"""For each type an action's field may have: the test of a value, and the sentence that refuses one that fails it."""

_ACTION_HINTS: dict[type, dict[str, Any]] = {}


def check_form(action: object) -> None:
    """Refuse what is not one of the game's own action types (`ACTION_TYPES`) with every field of its type."""
    cls = type(action)
    if cls not in ACTION_TYPES.values():
        raise IllegalActionError("That is not something a player can do.")
    hints = _ACTION_HINTS.get(cls)
    if hints is None:
        hints = _ACTION_HINTS[cls] = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        value = getattr(action, f.name, None)
        if f.name == "seat" and type(value) is not int:
            raise IllegalActionError("There is no such seat at this table.")
        test, refusal = _FIELD_CHECKS.get(hints[f.name], (lambda _: False, "That is not something a player can do."))
        if not test(value):
            raise IllegalActionError(refusal)


def check_seat(seat: object, players: int) -> None:
    """Refuse a seat that is not at a table of ``players``."""
    if type(seat) is not int or not 0 <= seat < players:
        raise IllegalActionError("There is no such seat at this table.")


def check_discard(
    rules: Rules, phase: Phase, dealer: bool, laid: tuple[Card, ...] | None, hand: Sequence[Card],
    cards: tuple[Card, ...],
) -> None:
    """Laying ``cards`` away from ``hand`` (``laid``: what this seat laid away this deal already, or None)."""
    if phase is not Phase.DISCARD:
        raise IllegalActionError("It is not time to lay cards away to the crib.")
    needed = rules.shape.discards_of(dealer)
    if needed == 0:
        raise IllegalActionError(
            f"The dealer lays nothing away at a table of {number_words(rules.players)}; "
            "the crib is the others' cards."
        )
    if laid is not None:
        raise IllegalActionError("You have already laid your cards away.")
    if len(cards) != needed:
        cards_word = "card" if needed == 1 else "cards"
        raise IllegalActionError(f"Lay away exactly {number_words(needed)} {cards_word} to the crib.")
    if len(set(cards)) != len(cards):
        raise IllegalActionError("You named the same card twice.")
    for card in cards:
        if card not in hand:
            raise IllegalActionError(f"You do not hold the {card.name}.")


def check_turn(
    phase: Phase, seat: int, laid_away: bool, claimant: int | None, turn: int | None, names: Sequence[str],
    doing: str,
) -> None:
    """Whether it is ``seat``'s turn in the play (to ``doing``: "play a card", "say go")."""
    if phase is Phase.DISCARD:
        if not laid_away:
            raise IllegalActionError("Lay your cards away to the crib first.")
        raise IllegalActionError("Wait for the others to lay their cards away.")
    if phase is Phase.PEG_CLAIM and claimant is not None:
        if claimant == seat:
            raise IllegalActionError("First claim the points your card made: type them and press Enter.")
        raise IllegalActionError(f"Wait for {names[claimant]} to claim the points of their card.")
    if phase is not Phase.PLAY:
        raise IllegalActionError(f"You cannot {doing} now: the play is over.")
    if turn != seat:
        whose = names[turn] if turn is not None else "nobody"
        raise IllegalActionError(f"It is {whose}'s turn to play, not yours.")


def check_play(card: Card, hand: Sequence[Card], count: int) -> None:
    """Laying ``card`` from ``hand`` on the running ``count``, in turn."""
    if card not in hand:
        raise IllegalActionError(f"You do not hold the {card.name}.")
    if count + card.value > 31:
        raise IllegalActionError(
            f"The {card.name} would take the count past thirty-one; the count is {number_words(count)}."
        )


def check_go(playable: Sequence[Card]) -> None:
    """Saying go, in turn, while holding the ``playable`` cards."""
    if playable:
        raise IllegalActionError(f"You cannot say go: you can play {spoken_list(playable[:1])}.")


def check_muggins(
    rules: Rules, seat: int, open_: bool, missed: Sequence[tuple[int, bool, int]],
    taken: Sequence[tuple[int, bool, int]], called_wrong: Collection[int],
) -> None:
    """Calling muggins: ``open_`` while it may be called, ``missed`` the opponents' short counts still open,
    ``taken`` the short counts already called, ``called_wrong`` the sides that paid for a wrong call since."""
    if not rules.muggins:
        raise IllegalActionError("This table does not play muggins.")
    if not open_:
        raise IllegalActionError("Muggins is called after a count, before the next deal's cards are laid "
                                 "away.")
    if not missed:
        side = rules.side_of(seat)
        if any(rules.side_of(offender) != side for offender, _, _ in taken):
            raise IllegalActionError("The missed points were taken already; there is nothing more to call "
                                     "muggins on.")
        if not rules.wrong_muggins:
            raise IllegalActionError("Every count was right: there is nothing to call muggins on.")
        if side in called_wrong:
            raise IllegalActionError("You called muggins already, and every count was right; nothing has "
                                     "been counted since.")


def check_peg_claim(action: ClaimCount | CountTimeout) -> None:
    """Manual pegging: claiming the points of the card just laid."""
    if isinstance(action, CountTimeout):
        raise IllegalActionError("The counting timer is for the show; the points of a card in the play are not "
                                 "timed.")
    points = action.points
    if isinstance(points, bool) or not isinstance(points, int) or not 0 <= points <= MAX_PLAY_SCORE:
        raise IllegalActionError(PLAY_POINTS)


def check_count(rules: Rules, action: ClaimCount | CountTimeout, counting: tuple[int, bool] | None,
                cards: int) -> None:
    """Manual counting: claiming the count of a hand or crib of ``cards`` cards, or its timer running out;
    ``counting`` is ``(seat, crib)`` of the count awaited, if any."""
    if counting is None or counting[0] != action.seat:
        raise IllegalActionError("Nobody is waiting for you to count a hand.")
    if isinstance(action, CountTimeout) and rules.count_timer is None:
        raise IllegalActionError("There is no counting timer at this table.")
    if isinstance(action, ClaimCount):
        top = MAX_SCORE[cards]
        if not 0 <= action.points <= top:
            raise IllegalActionError(f"A count for {number_words(cards)} cards and the starter is from zero "
                                     f"to {number_words(top)}.")
