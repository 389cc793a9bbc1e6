"""The coach's reviews in words: what a deal's decisions cost, and where a match's points went.

Every loss is said in points of expectation (or, playing to the board, in hundredths of the chance to win), and a
choice within a tenth of a point of the best is never called a mistake.
"""

from __future__ import annotations

from audiocrib.coach import DealReview, Decision, LayAwayAdvice, MatchReview, Measure, PlayAdvice
from audiocrib.engine.cards import spoken_list
from audiocrib.engine.numbers import number_words
from audiocrib.telling.coaching import loss_words, rank_list
from audiocrib.telling.listener import SeatNames
from audiocrib.telling.phrases import capitalised, join_words, points_phrase

__all__ = ["deal_review_words", "decision_words", "match_review_words", "position_words"]

_REPLY_KINDS = {"fifteen": "fifteen", "thirty-one": "thirty-one", "pair": "a pair", "pair royal": "a pair royal",
                "double pair royal": "a double pair royal"}


def _laid_on(decision: Decision, s: SeatNames) -> str:
    """Where a card was laid: "on Bob's ten", "as the lead"."""
    series = decision.view.series
    if not series:
        return "as the lead"
    seat, card = series[-1]
    return f"on {s.possessive(seat)} {card.rank.word}"


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
    if decision.measure is Measure.GAME:
        return f"Your {card.rank.word} {where} missed the game: the {best_card.rank.word} would have won it."
    if decision.measure is Measure.CHANCE:
        return (f"Your {card.rank.word} {where} lowered your chance of winning by about "
                f"{number_words(max(1, round(decision.loss)))} in a hundred; the {best_card.rank.word} was best.")
    reply = decision.reply
    if reply is not None and reply.score.total and reply.seat != s.me and \
            s.rules.side_of(reply.seat) != s.rules.side_of(s.me):
        kinds = join_words([f"a run of {number_words(i.points)}" if i.kind.value == "run" else
                            _REPLY_KINDS[i.kind.value] for i in reply.score.items])
        safe = "was safe" if advice.best.danger == 0 else "was better"
        return (f"Your {card.rank.word} {where} let {s.seat(reply.seat)} make {kinds} for "
                f"{number_words(reply.score.total)}; the {best_card.rank.word} {safe}. It cost about "
                f"{loss_words(decision.loss)}.")
    return (f"Your {card.rank.word} {where} gave up about {loss_words(decision.loss)}; the {best_card.rank.word} was "
            f"better.")


def deal_review_words(review: DealReview, s: SeatNames, costly_only: bool = False) -> list[str]:
    """The review of a deal after its show: its mistakes and its counting, or that there were none. With
    ``costly_only``, nothing unless the deal cost over a point."""
    if costly_only and review.cost <= 1.0:
        return []
    lines = [decision_words(d, s) for d in review.mistakes]
    if review.counting:
        lines.append(f"Your counting gave away {points_phrase(review.counting)}.")
    if not lines:
        return ["The coach: every choice this deal was the expert's, or within a tenth of a point of it."]
    return lines


def position_words(decision: Decision, s: SeatNames) -> str:
    """The position a decision was made in, to hear it again: the hand, the starter, the cards on the table."""
    view = decision.view
    where = f"Game {number_words(view.game_number)}, deal {number_words(view.deal_number)}"
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


def match_review_words(review: MatchReview, s: SeatNames) -> list[str]:
    """The match review: where the points went, then each costliest decision with its position, one message
    each."""
    if not review.deals:
        return ["The coach has no decisions of yours from this match to go over."]
    counting = f", and counting {points_phrase(review.counting)}" if review.counting else ""
    lines = [f"Where your points went this match, against the expert: the lay-aways {_spent(review.lay_away)}, "
             f"the play {_spent(review.play)}{counting}."]
    costliest = review.costliest()
    if not costliest:
        lines.append("No decision of yours cost more than a tenth of a point.")
        return lines
    lines.append(f"The costliest {'decision' if len(costliest) == 1 else 'decisions'}, "
                 f"{number_words(len(costliest))} of them, one message each: period for the next.")
    for decision in costliest:
        lines.append(f"{position_words(decision, s)} {capitalised(decision_words(decision, s))}")
    return lines
