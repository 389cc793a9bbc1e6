"""The play drill's keys: a position in the play from a real game, a card chosen by the game's own keys (the
digits, the arrows, Enter or space), the coach's verdict, and every card's value on request."""

from __future__ import annotations

from audiocrib.engine.errors import IllegalActionError
from audiocrib.progress.play_choice import PlayChoiceDrill, judge_play_choice, play_choice_drill
from audiocrib.shell.drill_base import DrillBase
from audiocrib.shell.keys import _hold_only
from audiocrib.telling import answers
from audiocrib.telling.drilling import card_values, play_position, play_verdict
from audiocrib.telling.listener import SeatNames
from audiocrib.telling.phrases import capitalised

__all__ = ["PLAY_ASK", "PlayDrills"]

PLAY_ASK = "Choose a card with the digits or the arrows, and press Enter to lay it."
"""What the play drill asks, after the position."""


class PlayDrills(DrillBase):
    """Which card to lay, in a position from a real game."""

    def _new_play_drill(self) -> None:
        drill = play_choice_drill(self.rng, self.coach)
        self.drill = drill
        self.say(f"Which card would you lay? {self._position_words(drill)}")

    @staticmethod
    def _position_words(drill: PlayChoiceDrill) -> str:
        return f"{play_position(drill.view, drill.advice)} {PLAY_ASK}"

    def _position(self) -> PlayChoiceDrill:
        assert isinstance(self.drill, PlayChoiceDrill)
        return self.drill

    def choose_at(self, key: str) -> None:
        """A digit: go to the card at that place in the hand, and say it with the count it would make."""
        drill = self._position()
        if int(key) > len(drill.hand):
            self.say(_hold_only(len(drill.hand)))
            return
        self.cursor = int(key) - 1
        self.say(f"{capitalised(answers.card_in_play(drill.view, drill.hand[self.cursor]))}.")

    def choose_left(self, key: str) -> None:
        self._walk_held(-1)

    def choose_right(self, key: str) -> None:
        self._walk_held(1)

    def _walk_held(self, step: int) -> None:
        drill = self._position()
        self.cursor = (self.cursor + step) % len(drill.hand)
        words = capitalised(answers.card_in_play(drill.view, drill.hand[self.cursor]))
        self.say(f"{words}. {self.cursor + 1} of {len(drill.hand)}.")

    def answer_play(self, key: str) -> None:
        """Enter or space: lay the card the cursor is on, and hear the coach's verdict."""
        drill = self._position()
        try:
            result = judge_play_choice(drill, drill.hand[self.cursor % len(drill.hand)])
        except IllegalActionError as refusal:  # a card that would pass thirty-one, refused as the game does
            self.say(str(refusal))
            return
        self.session.add_play(result)
        assert self.all_time is not None
        self.all_time.add_play(result, keep=False)  # only this session's mistakes are gone over
        self.say(f"{play_verdict(result.decision, result.rank)} Press a for every card, Enter for the next one.")
        self.last_play = result
        self.moment = "answered"
        self.save()

    def every_card(self) -> None:
        """Every card the last play drill could lay, best first, with its value; one message each."""
        result = self.last_play
        assert result is not None
        view = result.drill.view
        intro, pages = card_values(result.drill.advice, result.card, SeatNames(view.names, view.rules, view.seat))
        self.say_pages(intro, pages)

    def say_count(self, key: str) -> None:
        self.say(answers.count(self._position().view))

    def say_scores(self, key: str) -> None:
        self.say(answers.scores(self._position().view))

    def say_held(self, key: str) -> None:
        self.say(answers.held(self._position().view))
