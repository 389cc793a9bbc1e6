"""The drills' own sentences: a count drill and its true count, the figures, and this session's mistakes gone over.

>>> from audiocrib.progress.practice import PracticeRecord
>>> figures(PracticeRecord(plays=4, right_plays=3, play_points_lost=1.5))
'four cards laid, the best or as good three times, 0.38 points a card given up on average.'
"""

from __future__ import annotations

from audiocrib.coach import lay_away_facts
from audiocrib.engine.cards import spoken_list
from audiocrib.engine.numbers import number_words
from audiocrib.engine.scoring import ScoreItem, ScoreKind
from audiocrib.progress.play_choice import PlayChoiceResult
from audiocrib.progress.practice import CountDrill, CountResult, DiscardResult, PlayDrill, PracticeRecord
from audiocrib.telling.drilling import discard_reason, play_mistake
from audiocrib.telling.narrator import play_aloud
from audiocrib.telling.words import count_aloud, item_phrase

__all__ = ["CRIB_SIZE", "best_and_why", "drill_words", "figures", "item_words", "joined", "many", "mistake_lines",
           "truth"]

CRIB_SIZE = 4
"""The crib of a discard drill: two players lay away two cards each, whatever the deal's size."""


def drill_words(drill: CountDrill | PlayDrill) -> str:
    """A count drill as said: "hand: ..., with the starter, the ..." or "play: ..., then ..., for fifteen"."""
    if isinstance(drill, PlayDrill):
        laid = ", then ".join(card.name for card in drill.series)
        return f"play: {laid}, for {number_words(drill.count)}"
    what = "crib" if drill.crib else "hand"
    return f"{what}: {joined([c.name for c in drill.cards])}, with the starter, the {drill.starter.name}"


def truth(drill: CountDrill | PlayDrill) -> str:
    """The true count the cribbage way: a hand of nothing is "nineteen", a card in the play makes "nothing"."""
    if isinstance(drill, PlayDrill):
        return play_aloud(drill.score)
    return count_aloud(drill.score) if drill.score.total else "nineteen: nothing"


def joined(words: list[str]) -> str:
    """Words joined as spoken, "a, b and c"."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def item_words(item: ScoreItem) -> str:
    """A scoring item missed, with its cards: "fifteen (five of spades and queen of hearts)"."""
    cards = joined([c.name for c in item.cards])
    if item.kind is ScoreKind.FIFTEEN:
        return f"fifteen ({cards})"
    return f"{item_phrase(item)} ({cards})"


def _count_mistake(number: int, result: CountResult) -> str:
    drill = result.drill
    said = "the time ran out" if result.claimed is None else f"you said {number_words(result.claimed)}"
    missed = ""
    if result.missed:
        missed = " You missed " + joined([item_words(i) for i in result.missed]) + "."
    elif result.claimed is not None and result.claimed > drill.score.total:
        missed = f" That is {number_words(result.claimed - drill.score.total)} too many."
    return (f"Mistake {number}: {drill_words(drill)}; {said}. It is {number_words(drill.score.total)}: "
            f"{truth(drill)}.{missed}")


def best_and_why(result: DiscardResult) -> str:
    """The best lay-away with the analysis's figures, and what the choice gave up with the coach's reason."""
    drill, best = result.drill, result.options[0]
    advice = lay_away_facts(drill.cards, drill.lay, my_crib=drill.dealer, crib_size=CRIB_SIZE)
    return (f"Best was to lay away {spoken_list(best.discard)} and keep {spoken_list(best.keep)}: hand "
            f"{best.expected_hand:.1f}, crib {best.expected_crib or 0:.1f}, net {best.net:.1f}, {result.loss:.1f} "
            f"more. {discard_reason(advice, result.loss)}")


def _discard_mistake(number: int, result: DiscardResult) -> str:
    drill = result.drill
    whose = "your crib" if drill.dealer else "your opponent's crib"
    return (f"Mistake {number}: a lay-away to {whose} from {joined([c.name for c in drill.cards])}; you laid away "
            f"{spoken_list(result.chosen.discard)}, net {result.chosen.net:.1f}. {best_and_why(result)}")


def mistake_lines(mistakes: list[CountResult | DiscardResult | PlayChoiceResult]) -> list[str]:
    """This session's mistakes, one announcement each after the first, which says how many there are."""
    if not mistakes:
        return ["No mistakes to go over in this session."]
    lines = [f"{number_words(len(mistakes)).capitalize()} to go over; comma and period step through them."]
    for number, result in enumerate(mistakes, start=1):
        if isinstance(result, PlayChoiceResult):
            lines.append(play_mistake(number, result.decision))
        elif isinstance(result, DiscardResult):
            lines.append(_discard_mistake(number, result))
        else:
            lines.append(_count_mistake(number, result))
    return lines


def figures(record: PracticeRecord) -> str:
    """The figures in one sentence: counts, discards and cards laid, each only when there are some."""
    parts = []
    if record.counts:
        percent = round(100 * record.right / record.counts)
        parts.append(
            f"{many(record.counts, 'count')}, {number_words(record.right)} right ({percent} percent), "
            f"{record.seconds / record.counts:.1f} seconds each on average, a streak of "
            f"{number_words(record.streak)} now and {number_words(record.best_streak)} at best")
        if record.missed:
            common = ", ".join(f"{kind} {_times(n)}" for kind, n in record.missed.most_common(3))
            parts.append(f"most often missed: {common}")
    if record.discards:
        parts.append(f"{many(record.discards, 'discard')}, the best choice "
                     f"{_times(record.best_discards)}, {record.points_lost / record.discards:.2f} "
                     "points a deal given up on average")
    if record.plays:
        parts.append(f"{many(record.plays, 'card')} laid, the best or as good {_times(record.right_plays)}, "
                     f"{record.play_points_lost / record.plays:.2f} points a card given up on average")
    return "; ".join(parts) + "." if parts else "nothing practised yet."


def many(n: int, noun: str) -> str:
    """"one count", "two counts"."""
    return f"{number_words(n)} {noun}{'' if n == 1 else 's'}"


def _times(n: int) -> str:
    return {0: "no times", 1: "once", 2: "twice"}.get(n, f"{number_words(n)} times")
