"""Practice in the shell: count drills, discard drills and play drills, the running figures, and the review of
mistakes.

The practice menu is one of the session's menus (its items come from here); a drill has key bindings of its own,
in its moments: ``counting``, ``discarding`` or ``playing`` while a drill waits for an answer, and ``answered``
after it. The figures (`audiocrib.progress.practice.PracticeRecord`) are kept in a file beside the saved game, so
they grow from one session to the next; this session's mistakes can be gone over one by one. Each kind of drill
has a module of its own (`count_drills`, `discard_drills`, `play_drills`), on the state they share (`drill_base`).
"""

from __future__ import annotations

from dataclasses import dataclass

from audiocrib.engine.numbers import number_words
from audiocrib.progress.play_choice import PlayChoiceDrill
from audiocrib.progress.practice import CountDrill, DiscardDrill, PlayDrill, count_drill, discard_drill, play_drill
from audiocrib.shell.count_drills import CountDrills
from audiocrib.shell.discard_drills import DiscardDrills
from audiocrib.shell.drill_base import PRACTICE_VERSION
from audiocrib.shell.drill_words import drill_words, figures, mistake_lines
from audiocrib.shell.keys import DIGITS
from audiocrib.shell.play_drills import PlayDrills
from audiocrib.telling import answers
from audiocrib.telling.answers import on_the_table

__all__ = ["COUNT_KINDS", "DRILL_KEYS", "PRACTICE_ITEMS", "PRACTICE_VERSION", "Drills"]

COUNT_KINDS = ((4, False), (4, True), (3, False), (3, True), (5, False), (5, True), (0, False))
"""The count drills offered: (cards, crib); (0, False) is a card in the play, for manual pegging."""
TIMERS = (None, 15, 30, 45, 60, 90)
DEALS = (6, 5, 7)
PRACTICE_ITEMS = ("count kind", "timer", "start counting", "deal size", "start discarding", "start playing",
                  "figures", "review", "back")
_STARTS = {"start counting": "counting", "start discarding": "discarding", "start playing": "playing"}
"""The practice menu's items that start drills, and the moment each starts in."""


@dataclass(frozen=True, slots=True)
class DrillBinding:
    """Keys, the spoken help, and the `Drills` method."""

    keys: tuple[str, ...]
    description: str
    method: str


_DIGITS = tuple("1234567890")
DRILL_KEYS: dict[str, tuple[DrillBinding, ...]] = {
    "counting": (
        DrillBinding(_DIGITS, "Type your count.", "type_digit"),
        DrillBinding(("backspace",), "Delete the last digit typed.", "delete_digit"),
        DrillBinding(("enter",), "Give the count you typed.", "answer_count"),
        DrillBinding(("h", "c"), "The cards to count again.", "say_drill"),
        DrillBinding(("f",), "The starter.", "say_starter"),
        DrillBinding(("v",), "The cards on the table, in a drill of the play.", "say_table"),
        DrillBinding(("t",), "The time left, with the timer on.", "say_time"),
        DrillBinding(("escape",), "Stop, and hear this session's figures.", "stop"),
    ),
    "discarding": (
        DrillBinding(tuple("1234567"), "Mark or unmark the card at that position.", "mark_at"),
        DrillBinding(("space",), "Mark or unmark the card you are on.", "mark"),
        DrillBinding(("left",), "The previous card.", "card_left"),
        DrillBinding(("right",), "The next card.", "card_right"),
        DrillBinding(("enter",), "Lay the marked cards away.", "answer_discard"),
        DrillBinding(("h",), "The cards dealt, and whose crib it is.", "say_drill"),
        DrillBinding(("b",), "Whose crib it is.", "say_crib"),
        DrillBinding(("escape",), "Stop, and hear this session's figures.", "stop"),
    ),
    "playing": (
        DrillBinding(DIGITS, "Go to the card at that position.", "choose_at"),
        DrillBinding(("left",), "The previous card, and the count it makes.", "choose_left"),
        DrillBinding(("right",), "The next card, and the count it makes.", "choose_right"),
        DrillBinding(("enter", "space"), "Lay the card you are on.", "answer_play"),
        DrillBinding(("h",), "The whole position again, with your cards.", "say_drill"),
        DrillBinding(("v",), "The cards on the table in this series, and the count.", "say_table"),
        DrillBinding(("c",), "The count.", "say_count"),
        DrillBinding(("f",), "The starter.", "say_starter"),
        DrillBinding(("b",), "Whose crib it is.", "say_crib"),
        DrillBinding(("s",), "The scores, and what each side needs to win.", "say_scores"),
        DrillBinding(("n",), "How many cards each player holds.", "say_held"),
        DrillBinding(("escape",), "Stop, and hear this session's figures.", "stop"),
    ),
    "answered": (
        DrillBinding(("enter", "space"), "The next drill.", "next_drill"),
        DrillBinding(("a",), "After a discard or play drill, every choice with its value, best first.",
                     "every_choice"),
        DrillBinding(("escape",), "Stop, and hear this session's figures.", "stop"),
    ),
}


class Drills(PlayDrills, DiscardDrills, CountDrills):
    """The practice state: choices, the drill in hand, the figures (this session's and all-time)."""

    # ------------------------------------------------------------ the practice menu
    def item_text(self, item: str) -> str:
        """How a practice menu item is said."""
        if item == "count kind":
            cards, crib = COUNT_KINDS[self.count_kind]
            if not cards:
                return "Count drills: a card in the play"
            return f"Count drills: a {'crib' if crib else 'hand'} of {number_words(cards)} cards"
        if item == "timer":
            return "Timer: " + ("off" if self.timer is None else f"{self.timer} seconds")
        if item == "deal size":
            return f"Discard drills: {number_words(self.deal_size)} cards dealt"
        return {"start counting": "Start counting", "start discarding": "Start discarding",
                "start playing": "Start the play drills: which card to lay",
                "figures": "Your figures", "review": "Go over this session's mistakes", "back": "Back"}[item]

    def change(self, item: str, direction: int) -> bool:
        """Step a practice menu setting; False if ``item`` has none."""
        if item == "count kind":
            self.count_kind = (self.count_kind + direction) % len(COUNT_KINDS)
        elif item == "timer":
            self.timer = TIMERS[(TIMERS.index(self.timer) + direction) % len(TIMERS)]
        elif item == "deal size":
            self.deal_size = DEALS[(DEALS.index(self.deal_size) + direction) % len(DEALS)]
        else:
            return False
        return True

    @staticmethod
    def starts(item: str) -> str | None:
        """The moment a practice menu item starts drills in ("counting", "discarding", "playing"), or None."""
        return _STARTS.get(item)

    # ------------------------------------------------------------ the figures
    def all_time_text(self) -> str | None:
        """All the practice kept, in a sentence (None if there is none)."""
        every = self._record_all_time()
        if not (every.counts or every.discards or every.plays):
            return None
        return figures(every)

    def figures(self) -> list[str]:
        """This session's figures and the all-time ones, as announcements."""
        every = self._record_all_time()
        session = figures(self.session)
        if self.record_path is None or not (every.counts or every.discards or every.plays):
            return [f"This session: {session}"]
        kept = figures(every)
        if kept == session:  # no practice before this session: the same figures are not said twice
            return [f"This session, your first: {session}"]
        return [f"This session: {session}", f"All your practice: {kept}"]

    def review(self) -> list[str]:
        """This session's wrong counts, lay-aways and cards laid, one announcement each."""
        return mistake_lines(self.session.mistakes)

    def held(self) -> int:
        """How many cards the digit keys pick from now (0 when they pick none)."""
        if self.moment == "discarding" and isinstance(self.drill, DiscardDrill):
            return len(self.drill.cards)
        if self.moment == "playing" and isinstance(self.drill, PlayChoiceDrill):
            return len(self.drill.hand)
        return 0

    # ------------------------------------------------------------ drills
    def start(self, kind: str) -> None:
        """Begin count drills (``kind`` "counting"), discard drills ("discarding") or play drills ("playing")."""
        notice = self.load()
        if notice:
            self.say(notice)
        self.moment = kind
        self.finished = False
        self._next(kind)

    def _next(self, kind: str) -> None:
        self.typed.clear()
        self.marked = []
        self.cursor = 0
        self.moment = kind
        if kind == "counting":
            cards, crib = COUNT_KINDS[self.count_kind]
            drill = count_drill(self.rng, cards, crib) if cards else play_drill(self.rng)
            self.drill = drill
            self.started = self.clock()
            self.timing.stop()
            if self.timer is not None:
                self.timing.start(self.timer)
            what = "the points of the last card" if isinstance(drill, PlayDrill) else "the total"
            timed = f" You have {number_words(self.timer)} seconds." if self.timer is not None else ""
            self.say(f"Count this {drill_words(drill)}. Type {what} and press Enter.{timed}")
        elif kind == "playing":
            self._new_play_drill()
        else:
            self.drill = discard_drill(self.rng, self.deal_size)
            self.say(self._deal_words(self.drill) + " Mark two cards and press Enter to lay them away.")

    def next_drill(self, key: str) -> None:
        """The next drill of the same kind."""
        if isinstance(self.drill, PlayChoiceDrill):
            self._next("playing")
        else:
            self._next("counting" if isinstance(self.drill, CountDrill | PlayDrill) else "discarding")

    def stop(self, key: str) -> None:
        """Leave the drills; the figures are said and kept."""
        self.drill = None
        self.timing.stop()
        self.moment = ""
        self.save()
        for line in self.figures():
            self.say(line)
        self.finished = True

    def every_choice(self, key: str) -> None:
        """Key a after an answer: every way to lay away, or every card that could be laid, best first."""
        if isinstance(self.drill, DiscardDrill) and self.last_discard is not None:
            self.every_discard()
        elif isinstance(self.drill, PlayChoiceDrill) and self.last_play is not None:
            self.every_card()
        else:
            self.say("Every choice is said after a discard drill or a play drill.")

    # ------------------------------------------------------------ asking again
    def say_drill(self, key: str) -> None:
        if isinstance(self.drill, CountDrill | PlayDrill):
            self.say(f"The {drill_words(self.drill)}.")
        elif isinstance(self.drill, DiscardDrill):
            self.say(self._deal_words(self.drill, self.marked))
        elif isinstance(self.drill, PlayChoiceDrill):
            self.say(self._position_words(self.drill))

    def say_starter(self, key: str) -> None:
        if isinstance(self.drill, CountDrill):
            self.say(f"The starter is the {self.drill.starter.name}.")
        elif isinstance(self.drill, PlayDrill):
            self.say("A card in the play is counted without the starter.")
        elif isinstance(self.drill, PlayChoiceDrill):
            self.say(answers.starter(self.drill.view))

    def say_table(self, key: str) -> None:
        """Key v, as at the table: the cards of the series and the count; a hand is not on the table."""
        if isinstance(self.drill, PlayDrill):
            self.say(on_the_table([card.name for card in self.drill.series], self.drill.count))
        elif isinstance(self.drill, PlayChoiceDrill):
            self.say(answers.table(self.drill.view))
        else:
            self.say("Cards are on the table only in a drill of the play.")

    def say_crib(self, key: str) -> None:
        if isinstance(self.drill, PlayChoiceDrill):
            self.say(answers.crib_owner(self.drill.view))
        else:
            super().say_crib(key)
