"""The discard drills' keys: marking two cards, laying them away, the verdict of the expert's analysis with the
coach's reason when the choice was not the best, and every choice on request."""

from __future__ import annotations

from audiocrib.coach import MISTAKE
from audiocrib.engine.cards import Card, spoken_list
from audiocrib.engine.numbers import number_words
from audiocrib.progress.practice import DiscardDrill, DiscardResult, judge_discard
from audiocrib.shell.drill_base import DrillBase
from audiocrib.shell.drill_words import best_and_why, many
from audiocrib.shell.typing import marked_count

__all__ = ["DiscardDrills"]

class DiscardDrills(DrillBase):
    """Laying two cards away from five, six or seven, as dealer or pone."""

    def _dealt(self) -> list[Card]:
        assert isinstance(self.drill, DiscardDrill)
        return list(self.drill.cards)

    def mark_at(self, key: str) -> None:
        if int(key) > len(self._dealt()):
            self.say(f"There are only {number_words(len(self._dealt()))} cards.")
            return
        self.cursor = int(key) - 1
        self.mark(key)

    def mark(self, key: str) -> None:
        card = self._dealt()[self.cursor]
        if card in self.marked:
            self.marked.remove(card)
            self.say(f"{card.name.capitalize()}, unmarked. {marked_count(len(self.marked), 2)}")
        elif len(self.marked) >= 2:
            self.say("Two are marked already; unmark one first, or press Enter.")
        else:
            self.marked.append(card)
            self.say(f"{card.name.capitalize()}, marked. {marked_count(len(self.marked), 2)}")

    def card_left(self, key: str) -> None:
        self._walk_dealt(-1)

    def card_right(self, key: str) -> None:
        self._walk_dealt(1)

    def _walk_dealt(self, step: int) -> None:
        hand = self._dealt()
        self.cursor = (self.cursor + step) % len(hand)
        card = hand[self.cursor]
        marked = ", marked" if card in self.marked else ""
        self.say(f"{card.name.capitalize()}{marked}. {self.cursor + 1} of {len(hand)}.")

    def answer_discard(self, key: str) -> None:
        drill = self.drill
        assert isinstance(drill, DiscardDrill)
        if len(self.marked) != drill.lay:
            self.say(f"Mark two cards first; {number_words(len(self.marked))} marked.")
            return
        result = judge_discard(drill, tuple(self.marked))
        self.session.add_discard(result)
        assert self.all_time is not None
        self.all_time.add_discard(result, keep=False)  # only this session's mistakes are gone over
        self.say(f"{self._verdict(result)} Press a for every choice, Enter for the next one.")
        self.last_discard = result
        self.moment = "answered"
        self.save()

    @staticmethod
    def _verdict(result: DiscardResult) -> str:
        """The analysis's figures for the choice and the best; within a tenth of a point of the best, that it is as
        good; further off, what it gave up and the coach's reason for the best."""
        drill = result.drill
        best = result.options[0]
        crib = "your crib" if drill.dealer else "your opponent's crib"
        yours = (f"You laid away {spoken_list(result.chosen.discard)}: your hand is worth "
                 f"{result.chosen.expected_hand:.1f} on average, and {crib} "
                 f"{'gains' if drill.dealer else 'gets'} {result.chosen.expected_crib or 0:.1f}; "
                 f"net {result.chosen.net:.1f}.")
        place = f"choice {number_words(result.rank)} of {number_words(len(result.options))}"
        if result.rank == 1:
            return f"{yours} That is the best choice."
        if result.loss <= MISTAKE:
            return (f"{yours} That is {place}, as good as the best within a tenth of a point: laying away "
                    f"{spoken_list(best.discard)} nets {best.net:.1f}.")
        return f"{yours} That is {place}. {best_and_why(result)}"

    def every_discard(self) -> None:
        """Every way to lay away the last discard drill's cards, best first, one message each."""
        result = self.last_discard
        assert result is not None
        pages = [f"{place}: lay away {spoken_list(option.discard)}: hand {option.expected_hand:.1f}, "
                 f"crib {option.expected_crib or 0:.1f}, net {option.net:.1f}."
                 + (" Your choice." if option is result.chosen else "")
                 for place, option in enumerate(result.options, start=1)]
        self.say_pages(f"{many(len(result.options), 'choice').capitalize()}, best first; period steps to the "
                       "next, comma back.", pages)

    def say_crib(self, key: str) -> None:
        if isinstance(self.drill, DiscardDrill):
            self.say("The crib is yours: you deal." if self.drill.dealer else "The crib is your opponent's.")

    @staticmethod
    def _deal_words(drill: DiscardDrill, marked: list[Card] | None = None) -> str:
        whose = "You deal: the crib is yours." if drill.dealer else "Your opponent deals: the crib is theirs."
        cards = "; ".join(f"{n}, {c.name}" + (", marked" if c in (marked or ()) else "")
                          for n, c in enumerate(drill.cards, start=1))
        return f"{whose} Your cards: {cards}."
