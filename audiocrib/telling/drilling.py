"""The coach's words in the practice drills: why the best lay-away was best, a position in the play, and the
verdict on a card laid there, built on the coach's facts (`audiocrib.coach`) and its words
(`audiocrib.telling.coaching`).

>>> from audiocrib.coach import lay_away_facts
>>> from audiocrib.engine.cards import parse_cards
>>> advice = lay_away_facts(parse_cards("5H 5S 5C JD 4H 6C"), discard=2, my_crib=False, crib_size=4)
>>> text = discard_reason(advice, 3.3)
>>> print(text.split(": ")[0])
That gives up about three and a quarter points of expectation. Why the best
>>> print(text.split(": ")[1].split(". ")[0])
It is sixteen and three quarters on average, the most of any keep
>>> "Next best" in text or "Net" in text or "Keep the" in text  # said by the verdict before, and by the a key
False
"""

from __future__ import annotations

import dataclasses

from audiocrib.coach import Decision, LayAwayAdvice, Measure, PlayAdvice
from audiocrib.engine.cards import Card
from audiocrib.engine.numbers import number_words
from audiocrib.engine.rules import Rules
from audiocrib.engine.views import PlayerView
from audiocrib.telling import answers
from audiocrib.telling.coaching import lay_away_words, loss_words, play_words
from audiocrib.telling.listener import SeatNames
from audiocrib.telling.phrases import capitalised, card_names

__all__ = ["card_values", "discard_reason", "play_cost", "play_mistake", "play_position",
           "play_verdict"]

_OPPONENT = SeatNames(("You", "your opponent"), Rules(), 0)
"""The discard drill's table as the coach's words name it: you, and your opponent."""


def discard_reason(advice: LayAwayAdvice, loss: float) -> str:
    """After a discard drill's verdict, which has said the best keep and its figures, when the choice gave up more
    than a tenth of a point: what it gave up, and the coach's reason for the best keep alone (the next best are
    left to the a key, which says every choice)."""
    best_only = dataclasses.replace(advice, choices=advice.choices[:1])
    reason = lay_away_words(best_only, _OPPONENT, dealer=0 if advice.my_crib else 1, reasons_only=True)
    return f"That gives up about {loss_words(loss)} of expectation. Why the best: {reason}"


def _seats(view: PlayerView) -> SeatNames:
    return SeatNames(view.names, view.rules, view.seat)


def _earlier(view: PlayerView) -> str:
    """The cards laid in this deal's earlier series, yours first: "Laid before this series: your seven of clubs;
    Bob's eight of hearts.", or "" when none were."""
    s = _seats(view)
    on_table = {card for _, card in view.series}
    parts = []
    for step in range(view.rules.players):
        seat = (view.seat + step) % view.rules.players
        cards = [card for card in view.played[seat] if card not in on_table]
        if cards:
            parts.append(f"{s.possessive(seat)} {card_names(cards)}")
    return f"Laid before this series: {'; '.join(parts)}." if parts else ""


def _hand_words(view: PlayerView) -> str:
    cards = sorted(view.hand)
    said = (f"{n}, {answers.card_in_play(view, card)}" for n, card in enumerate(cards, start=1))
    return "Your cards: " + "; ".join(said) + "."


def play_position(view: PlayerView, advice: PlayAdvice) -> str:
    """A position in the play, as the drill says it: who deals, the starter, what was laid before, the cards on
    the table and by whom, the count, the scores when the end of the game is near enough to matter, and the cards
    held, numbered for the digit keys."""
    s = _seats(view)
    parts = ["You deal." if view.dealer == view.seat else f"{s.seat(view.dealer, True)} deals."]
    assert view.starter is not None
    parts.append(f"The starter is the {view.starter.name}.")
    earlier = _earlier(view)
    if earlier:
        parts.append(earlier)
    parts.append(answers.table(view) if view.series else "No card is on the table: you lead.")
    if advice.board or advice.wins:
        parts.append(answers.scores(view))
    parts.append(_hand_words(view))
    return " ".join(parts)


def _within(measure: Measure) -> str:
    return "within a tenth of a point" if measure is Measure.POINTS else "within one in a hundred of the chance to win"


def play_cost(decision: Decision) -> str:
    """What a card laid gave up against the coach's, in the decision's measure."""
    if decision.measure is Measure.GAME:
        return "It does not win the game."
    if decision.measure is Measure.CHANCE:
        return f"It gives up about {number_words(round(decision.loss))} in a hundred of your chance to win."
    return f"It gives up about {loss_words(decision.loss)} of expectation."


def play_verdict(decision: Decision, rank: int) -> str:
    """The verdict on a card laid in the play drill: praise for the best card (or one within a tenth of a point
    of it); otherwise its place, what it cost, and the coach's reason for the best."""
    advice = decision.advice
    assert isinstance(advice, PlayAdvice)
    card = decision.chosen[0]
    best = advice.best.card
    if not decision.mistake:
        if card.rank is best.rank:
            return f"Right: the {card.name} is the best card here."
        if decision.measure is Measure.GAME:
            return f"Right: the {card.name} wins the game, as the {best.rank.word} does."
        return f"Right: the {card.name} is as good as the best, the {best.rank.word}, {_within(decision.measure)}."
    ranks = number_words(len(advice.choices))
    return (f"You laid the {card.name}: choice {number_words(rank)} of {ranks}. {play_cost(decision)} "
            f"The coach's reason: {play_words(advice, _seats(decision.view))}")


def _value(advice: PlayAdvice, value: float) -> str:
    if advice.wins:
        return "wins the game" if value >= 0.5 else "does not win the game"
    if advice.board:
        return f"{number_words(round(value))} in a hundred"
    return f"{value:.1f}"


def card_values(advice: PlayAdvice, chosen: Card, s: SeatNames) -> tuple[str, list[str]]:
    """Key a after a play drill: the cards that could be laid, best first, each with the count it makes, what it
    pegs at once, and its value to the coach (the points its side pegs over the rest of the play less the other
    side's, on average, or near the end the chance of winning); the player's card is marked. The introduction,
    and one page a card."""
    pages = []
    for place, choice in enumerate(advice.choices, start=1):
        pegs = f", pegging {number_words(choice.pegs)}" if choice.pegs else ""
        less = ""
        if place > 1 and not advice.wins:
            shown = f"{round(choice.loss)}" if advice.board else f"{choice.loss:.1f}"
            less = ", as good" if float(shown) == 0 else f", {shown} less"
        mine = " Your choice." if choice.card.rank is chosen.rank else ""
        pages.append(f"{place}: the {choice.card.rank.word}, for {number_words(choice.count)}{pegs}: "
                     f"{_value(advice, choice.value)}{less}.{mine}")
    many = f"{number_words(len(pages))} cards" if len(pages) > 1 else "one card"
    if advice.wins:
        measure = "whether it wins the game now"
    elif advice.board:
        measure = "your chance of winning, in a hundred"
    else:
        other = s.seat(advice.opponent) if advice.opponent is not None else "the others"
        measure = f"what it is worth over the rest of the play, your points less {other}'s on average"
    return (f"{capitalised(many)} you could lay, best first, each with {measure}; period steps to the next, comma "
            "back.", pages)


def play_mistake(number: int, decision: Decision) -> str:
    """A play drill's mistake gone over again: the position in short, the card laid, its cost, and the reason."""
    view = decision.view
    s = _seats(view)
    if view.series:
        laid = ", then ".join(f"{s.possessive(seat)} {card.name}" for seat, card in view.series)
        where = f"{laid} on the table, the count {number_words(view.count)}"
    else:
        where = "your lead"
    advice = decision.advice
    assert isinstance(advice, PlayAdvice)
    return (f"Mistake {number}: a play: {where}, holding {card_names(sorted(view.hand))}; you laid the "
            f"{decision.chosen[0].name}. {play_cost(decision)} The coach's reason: {play_words(advice, s)}")
