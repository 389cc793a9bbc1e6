"""The coach's reviews in words: what a deal's decisions cost, and where a match's points went.

Every loss is said in points of expectation (or, playing to the board, in hundredths of the chance to win), and a
choice within a tenth of a point of the best is never called a mistake. `points_lost` says which losses count as
points, for the reviews and for the progress figures alike; `progress_words` says those figures week by week.
"""

from __future__ import annotations

from collections.abc import Sequence

from audiocrib.coach import DealReview, Decision, LayAwayAdvice, MatchReview, Measure, PlayAdvice
from audiocrib.coach.review import MISTAKE_CHANCE, POINTS_PER_CHANCE
from audiocrib.engine.cards import spoken_list
from audiocrib.engine.numbers import number_words
from audiocrib.telling.answers import scores
from audiocrib.telling.coaching import loss_words, pegs_words, rank_list, reply_words
from audiocrib.telling.listener import SeatNames
from audiocrib.telling.phrases import capitalised, join_words, points_phrase

__all__ = ["GAME_IN_SIGHT", "deal_costs", "deal_review_words", "decision_words", "match_review_words",
           "mistakes", "points_lost", "position_words", "progress_words", "tenths"]

GAME_IN_SIGHT = 50.0
"""A card's value in points beyond which the expert's look-ahead saw the game end (it counts a line that ends
the game as a thousand points, won or lost): no run of cards in the play pegs so much. Such a card's loss is not
points but a share of the chance of winning, said as one and left out of the points figures."""
COSTLY = 1.0
"""A deal is reviewed with the setting "only when a deal cost you over a point" when it gave up more than this,
or when a card cost a chance of winning or the game itself."""


def _laid_on(decision: Decision, s: SeatNames) -> str:
    """Where a card was laid: "on Bob's ten", "as the lead"."""
    series = decision.view.series
    if not series:
        return "as the lead"
    seat, card = series[-1]
    return f"on {s.possessive(seat)} {card.rank.word}"


def game_in_sight(decision: Decision) -> bool:
    """True for a card weighed in points whose values carry the game's end (see `GAME_IN_SIGHT`)."""
    advice = decision.advice
    return (isinstance(advice, PlayAdvice) and decision.measure is Measure.POINTS
            and any(abs(choice.value) > GAME_IN_SIGHT for choice in advice.choices))


def points_lost(decision: Decision) -> float | None:
    """What ``decision`` gave up in points of expectation, or None when it is weighed otherwise (the chance of
    winning, a missed win, or with the game's end in sight)."""
    if decision.measure is not Measure.POINTS or game_in_sight(decision):
        return None
    return decision.loss


def _chance_lost(decision: Decision) -> float:
    """Hundredths of the chance of winning a card gave up: its loss, or with the game's end in sight its loss
    between the thousand points of a game won and those of a game lost."""
    return decision.loss / 20 if game_in_sight(decision) else decision.loss


def mistakes(review: DealReview) -> tuple[Decision, ...]:
    """The deal's mistakes as the review says them: the coach's, but a card with the game's end in sight only when
    it lowered the chance of winning by more than one in a hundred (its loss is in thousandths of a game)."""
    return tuple(d for d in review.mistakes if not game_in_sight(d) or _chance_lost(d) > MISTAKE_CHANCE)


def deal_costs(review: DealReview) -> tuple[float | None, float | None]:
    """What a deal's lay-away and its cards laid gave up in points of expectation, each None when nothing of
    that kind was weighed in points.

    >>> from audiocrib.coach import DealReview
    >>> deal_costs(DealReview(1, 1, (), 0))
    (None, None)
    """
    costs: list[float | None] = []
    for laying_away in (True, False):
        lost = [points_lost(d) for d in review.decisions if d.laying_away is laying_away]
        counted = [points for points in lost if points is not None]
        costs.append(sum(counted) if counted else None)
    return costs[0], costs[1]


def _costly(review: DealReview) -> bool:
    """The deal gave up over a point, or a card cost a chance of winning or the game."""
    lay_away, play = deal_costs(review)
    points = (lay_away or 0.0) + (play or 0.0) + review.counting
    return points > COSTLY or any(points_lost(d) is None for d in mistakes(review))


def decision_words(decision: Decision, s: SeatNames) -> str:
    """One decision that cost something, as the review says it."""
    advice = decision.advice
    if isinstance(advice, LayAwayAdvice):
        best = advice.best
        if not decision.mistake:
            return "Your lay-away was the expert's choice." if decision.loss == 0 else \
                "Your lay-away was within a tenth of a point of the best."
        return (f"Your lay-away cost about {loss_words(decision.loss)} on average: keeping {rank_list(best.keep)} "
                f"and laying away {rank_list(best.discard)} was best.")
    assert isinstance(advice, PlayAdvice)
    card = decision.chosen[0]
    best_card = advice.best.card
    where = _laid_on(decision, s)
    pegs = pegs_words(advice.best)
    why = f": it {pegs}" if pegs else ""
    if decision.measure is Measure.GAME:
        return f"Your {card.rank.word} {where} missed the game: the {best_card.rank.word} would have won it."
    if decision.measure is Measure.CHANCE or game_in_sight(decision):
        return (f"Your {card.rank.word} {where} lowered your chance of winning by about "
                f"{number_words(max(1, round(_chance_lost(decision))))} in a hundred; the {best_card.rank.word} "
                f"was best{why}.")
    reply = decision.reply
    if reply is not None and reply.score.total and reply.seat != s.me and \
            s.rules.side_of(reply.seat) != s.rules.side_of(s.me):
        safe = "was safe" if advice.best.danger == 0 else "was better"
        return (f"Your {card.rank.word} {where} let {s.seat(reply.seat)} make {reply_words(reply.score)}; the "
                f"{best_card.rank.word} {safe}{why}. It cost about {loss_words(decision.loss)}.")
    return (f"Your {card.rank.word} {where} gave up about {loss_words(decision.loss)}; the {best_card.rank.word} was "
            f"better{why}.")


def deal_review_words(review: DealReview, s: SeatNames, costly_only: bool = False) -> list[str]:
    """The review of a deal after its show: its mistakes and its counting, or that there were none. With
    ``costly_only``, nothing unless the deal cost over a point."""
    if costly_only and not _costly(review):
        return []
    lines = [decision_words(d, s) for d in mistakes(review)]
    if review.counting:
        lines.append(f"Your counting gave away {points_phrase(review.counting)}.")
    if not lines:
        return ["The coach: every choice this deal was the expert's, or within a tenth of a point of it."]
    return lines


def position_words(decision: Decision, s: SeatNames) -> str:
    """The position a decision was made in, to hear it again: the hand, the starter, the cards on the table."""
    view = decision.view
    where = f"Game {number_words(view.game_number)}, deal {number_words(view.deal_number)}"
    if points_lost(decision) is None:  # weighed by the chance of winning: the scores it turned on
        where = f"{scores(view).removesuffix('.')}. {where}"
    crib = "your crib" if view.my_crib and view.dealer == s.me else f"{s.possessive(view.dealer)} crib"
    if isinstance(decision.advice, LayAwayAdvice):
        return (f"{where}, the lay-away, to {crib}: you held {spoken_list(sorted(view.hand))}; you laid away "
                f"{spoken_list(decision.chosen)}.")
    parts = [f"{where}, the play: you held {spoken_list(sorted(view.hand))}"]
    if view.starter is not None:
        parts.append(f"the starter was the {view.starter.name}")
    if view.series:
        laid = join_words([f"{s.possessive(seat)} {card.rank.word}" for seat, card in view.series])
        parts.append(f"on the table {laid}, the count {number_words(view.count)}")
    else:
        parts.append("you were to lead")
    return "; ".join(parts) + f". You laid the {decision.chosen[0].name}."


def _spent(points: float) -> str:
    return "nothing" if points < 0.05 else f"about {loss_words(points)}"


def _costliest(review: MatchReview, most: int = 5) -> list[Decision]:
    """The costliest mistakes of the match: missed wins, then the rest by what they gave up, a chance of winning
    counted at `POINTS_PER_CHANCE` hundredths a point (so a card that cost one or two in a hundred does not come
    before a lay-away that cost three points)."""
    found = [d for deal in review.deals for d in mistakes(deal)]

    def order(decision: Decision) -> tuple[int, float]:
        if decision.measure is Measure.GAME:
            return (0, 0.0)
        lost = points_lost(decision)
        return (1, -(_chance_lost(decision) / POINTS_PER_CHANCE if lost is None else lost))

    return sorted(found, key=order)[:most]


def match_review_words(review: MatchReview, s: SeatNames) -> list[str]:
    """The match review: where the points went, then each costliest decision with its position, one message
    each."""
    if not review.deals:
        return ["The coach has no decisions of yours from this match to go over."]
    costs = [deal_costs(deal) for deal in review.deals]
    lay_away = sum(c[0] or 0.0 for c in costs)
    play = sum(c[1] or 0.0 for c in costs)
    counting = f", and counting {points_phrase(review.counting)}" if review.counting else ""
    deals = len(review.deals)
    lines = [f"Where your points went this match, over {number_words(deals)} deal{'' if deals == 1 else 's'} "
             f"against the expert: the lay-aways {_spent(lay_away)}, the play {_spent(play)}{counting}."]
    costliest = _costliest(review)
    if not costliest:
        lines.append("No decision of yours cost more than a tenth of a point.")
        return lines
    lines.append(f"The costliest {'decision' if len(costliest) == 1 else 'decisions'}, "
                 f"{number_words(len(costliest))} of them, one message each: period for the next.")
    for decision in costliest:
        lines.append(f"{position_words(decision, s)} {capitalised(decision_words(decision, s))}")
    return lines


def tenths(points: float, unit: bool = True) -> str:
    """An average cost to the nearest tenth of a point, in words: "eight tenths of a point", "one and three
    tenths points", "less than a tenth of a point"; without ``unit``, the number alone ("one and three tenths").

    >>> tenths(0.8), tenths(1.26), tenths(1.0), tenths(0.02), tenths(2.04, unit=False), tenths(0.1, unit=False)
    ('eight tenths of a point', 'one and three tenths points', 'one point', 'less than a tenth of a point', \
'two', 'a tenth')
    >>> tenths(1.5), tenths(0.5), tenths(0.5, unit=False)  # five tenths is said as a half
    ('one and a half points', 'half a point', 'a half')
    """
    count = round(points * 10)
    whole, part = divmod(count, 10)
    if count == 0:
        return "less than a tenth of a point" if unit else "less than a tenth"
    if count == 5 and unit:
        return "half a point"
    fraction = "a tenth" if part == 1 else "a half" if part == 5 else f"{number_words(part)} tenths"
    if not whole:
        return f"{fraction} of a point" if unit else fraction
    words = number_words(whole) + (f" and {fraction}" if part else "")
    if not unit:
        return words
    return f"{words} point" if count == 10 else f"{words} points"


_KIND_WORDS = {"lay_away": "lay-aways", "play": "plays"}


def progress_words(figures: Sequence[tuple[str, Sequence[tuple[str, int, float]]]]) -> list[str]:
    """The progress figures, a sentence for each kind weighed: "Your lay-aways cost eight tenths of a point a
    deal this week, one and three tenths last week." ``figures`` holds, for "lay_away" and "play", each period's
    name, deals weighed and average cost, the latest first.

    >>> progress_words([("lay_away", [("this week", 12, 0.8), ("last week", 0, 0.0), ("the month before", 30, 1.3)]),
    ...                 ("play", [("this week", 0, 0.0), ("last week", 4, 0.46), ("the month before", 0, 0.0)])])
    ['Your lay-aways cost eight tenths of a point a deal this week, over twelve deals; one and three tenths the \
month before, over thirty.', 'Your plays cost half a point a deal last week, over four deals; none \
weighed this week yet.']
    >>> progress_words([("lay_away", [("this week", 0, 0.0)]), ("play", [("this week", 0, 0.0)])])
    ['The coach has weighed no deal of yours in the last six weeks: your progress is told from the deals you play.']
    """
    lines = []
    for kind, periods in figures:
        said = [(name, deals, average) for name, deals, average in periods if deals]
        if not said:
            continue
        parts = []
        for index, (name, deals, average) in enumerate(said):
            count = f"{number_words(deals)} deal{'' if deals == 1 else 's'}" if index == 0 else number_words(deals)
            parts.append(f"{tenths(average, unit=index == 0)}{' a deal' if index == 0 else ''} {name}, over {count}")
        text = f"Your {_KIND_WORDS[kind]} cost {'; '.join(parts)}"
        if periods and not periods[0][1]:
            text += f"; none weighed {periods[0][0]} yet"
        lines.append(text + ".")
    if not lines:
        return ["The coach has weighed no deal of yours in the last six weeks: your progress is told from the deals "
                "you play."]
    return lines
