"""The show's sentences: a count asked for, a hand or crib shown and counted, muggins, and points given away.

>>> from audiocrib.engine.rules import Rules
>>> points_given(PointsGiven(1, 0, 2, "missed"), SeatNames(("Ann", "Bob"), Rules(), 0))
'You missed two; Bob pegs them.'
"""

from __future__ import annotations

from audiocrib.engine.events import CountRequested, HandShown, MugginsCalled, PointsGiven
from audiocrib.engine.numbers import number_words
from audiocrib.telling.listener import SeatNames, Verbosity
from audiocrib.telling.phrases import capitalised, card_names
from audiocrib.telling.words import count_aloud

__all__ = ["count_requested", "hand_shown", "muggins", "points_given"]


def count_requested(event: CountRequested, s: SeatNames, verbosity: Verbosity) -> str:
    """Manual counting: to the counter, the cards and what to do; to everyone else, who is counting."""
    brief = verbosity is Verbosity.BRIEF
    what = "crib" if event.crib else "hand"
    if event.seat != s.me:
        return f"{s.seat(event.seat, True)} is counting" + (" the crib." if event.crib else ".")
    cards = card_names(sorted(event.cards))
    if brief:
        return f"Count your {what}: {cards}; starter {event.starter.name}."
    text = f"Count your {what}: {cards}, with the starter, the {event.starter.name}"
    text += "; type the total and press Enter."
    if s.rules.count_timer is not None:
        text += f" You have {number_words(s.rules.count_timer)} seconds."
    return text


def hand_shown(event: HandShown, s: SeatNames, verbosity: Verbosity) -> str:
    """A hand or crib shown: whose, its cards, and its count (with a manual count, what was said first)."""
    brief, full = verbosity is Verbosity.BRIEF, verbosity is Verbosity.FULL
    noun = "crib" if event.crib else "hand"
    whose = f"{s.possessive(event.seat, True)} {noun}"
    total = event.score.total
    # your own hand's cards only when you did not count it yourself (its question has just read them)
    show_cards = (full or event.crib or event.seat != s.me
                  or (event.claimed is None and not event.timed_out))
    cards = f"{whose}: {card_names(sorted(event.cards))}" + (
        f", with the starter, the {event.starter.name}" if full else "") + "."
    if event.claimed is not None and s.rules.muggins and event.seat != s.me and not event.timed_out:
        # A computer counting aloud at a muggins table: its count is heard, the truth only if called.
        said = f"{s.seat(event.seat, True)} counts {number_words(event.claimed)}."
        return f"{whose}, {number_words(event.claimed)} by {s.possessive(event.seat)} count." if brief \
            else f"{cards} {said}"
    if event.claimed is None and not event.timed_out:
        if brief:
            return f"{whose}, {number_words(total) if total else 'nothing'}."
        if show_cards:
            return f"{cards} {capitalised(count_aloud(event.score))}." if total else f"{cards} Nineteen: nothing."
        return f"{whose}: {count_aloud(event.score)}." if total else f"{whose} is nineteen: nothing."
    # A manual count: what was said, then the true count in cribbage style.
    parts = [cards] if show_cards and not brief else []
    truth = f"The {noun} is {number_words(total)}" if total else f"The {noun} is nothing"
    if event.timed_out:
        parts.append(f"{s.possessive(event.seat, True)} time is up.")
    elif event.claimed == total:
        right = f"{s.seat(event.seat, True)} said {number_words(total)}, which is right"
        if not total:
            parts.append(f"{right}: nothing.")
        elif brief:
            parts.append(f"{right}.")
        else:
            parts.append(f"{right}: {count_aloud(event.score)}.")
        return " ".join(parts)
    else:
        assert event.claimed is not None
        parts.append(f"{s.seat(event.seat, True)} said {number_words(event.claimed)}.")
    if brief or not total:
        parts.append(f"{truth}.")
    else:
        parts.append(f"{truth}: {count_aloud(event.score)}.")
    if event.timed_out:
        parts.append(f"{s.does(event.seat, 'peg', True)} {number_words(event.pegged)}.")
    return " ".join(parts)


def muggins(event: MugginsCalled, s: SeatNames, verbosity: Verbosity, shown: HandShown | None) -> str:
    """Muggins called, then (but BRIEF) the true count of the hand it was called on, ``shown`` this show."""
    brief = verbosity is Verbosity.BRIEF
    noun = "crib" if event.crib else "hand"
    given = number_words(event.given)
    take = f"Muggins! {s.does(event.seat, 'take', True)} {given} that {s.seat(event.offender)} missed"
    if brief or shown is None:
        return f"{take}."
    total = shown.score.total
    return (f"{take}. {s.possessive(event.offender, True)} {noun} is {number_words(total)}: "
            f"{count_aloud(shown.score)}.")


def points_given(event: PointsGiven, s: SeatNames) -> str:
    """Points given away (a missed or over-counted count, a wrong muggins call, the timer), the same at every
    verbosity."""
    given = number_words(event.given)
    them = "it" if event.given == 1 else "them"
    pegs = s.does(event.seat, "peg")
    if event.reason == "missed" and event.offender != event.seat:
        return f"{s.seat(event.offender, True)} missed {given}; {pegs} {them}."
    if event.reason == "over-counted" and event.offender != event.seat:
        offender = s.seat(event.offender, True)
        return f"{offender} over-counted by {given}; {pegs} {them}."
    if event.reason == "wrong muggins":
        return (f"{s.seat(event.offender, True)} called muggins, but every count was right; "
                f"{pegs} {given}.")
    if event.reason == "timer" and event.offender != event.seat:
        return f"{capitalised(pegs)} {given}, half the count, because {s.possessive(event.offender)} time ran out."
    return f"{capitalised(pegs)} {given}."
