"""The count drills' keys: typing a count, the answer and its judgement, the timer, and the questions about the
cards to count."""

from __future__ import annotations

from audiocrib.engine.game import MAX_PLAY_SCORE, PLAY_POINTS
from audiocrib.engine.numbers import number_words
from audiocrib.progress.practice import CountDrill, PlayDrill, judge_count
from audiocrib.shell.drill_base import DrillBase
from audiocrib.shell.drill_words import item_words, joined, truth
from audiocrib.shell.typing import NOTHING_CLAIMED, NOTHING_TYPED

__all__ = ["CountDrills"]


class CountDrills(DrillBase):
    """Counting a hand, a crib or a card in the play."""

    def tick(self) -> None:
        """The drill timer: warnings, then the time runs out (a miss)."""
        if not self.timing.running or self.moment != "counting":
            return
        warnings, out = self.timing.check()
        for seconds in warnings:
            self.say(f"{number_words(seconds).capitalize()} seconds left.")
        if out:
            self._judge(None)  # its answer says the time is up

    def type_digit(self, key: str) -> None:
        self.say(self.typed.type(key))

    def delete_digit(self, key: str) -> None:
        self.say(self.typed.delete())

    def answer_count(self, key: str) -> None:
        claimed = self.typed.take()
        if claimed is None:
            self.say(NOTHING_CLAIMED if isinstance(self.drill, PlayDrill) else NOTHING_TYPED)
            return
        if isinstance(self.drill, PlayDrill) and claimed > MAX_PLAY_SCORE:  # as the game refuses it
            self.say(PLAY_POINTS)
            return
        self._judge(claimed)

    def _judge(self, claimed: int | None) -> None:
        drill = self.drill
        assert isinstance(drill, CountDrill | PlayDrill)
        self.timing.stop()
        result = judge_count(drill, claimed)
        seconds = self.clock() - self.started
        self.session.add_count(result, seconds)
        assert self.all_time is not None
        self.all_time.add_count(result, seconds, keep=False)  # only this session's mistakes are gone over
        total = drill.score.total
        said_truth = truth(drill)
        if result.right:
            text = f"Right: {said_truth}."
            if self.session.streak > 1:
                text += f" {number_words(self.session.streak).capitalize()} in a row."
        else:
            said = "Time is up." if claimed is None else f"You said {number_words(claimed)}."
            text = f"{said} It is {number_words(total)}: {said_truth}."
            if result.missed:
                text += " You missed " + joined([item_words(i) for i in result.missed]) + "."
            elif claimed is not None and claimed < total:
                text += f" You missed {number_words(total - claimed)}."
            elif claimed is not None and claimed > total:
                text += f" That is {number_words(claimed - total)} too many."
        self.say(text + " Press Enter for the next one.")
        self.moment = "answered"
        self.save()

    def say_time(self, key: str) -> None:
        if not self.timing.running:
            self.say("There is no timer on.")
        else:
            self.say(f"{number_words(self.timing.left()).capitalize()} seconds left.")
