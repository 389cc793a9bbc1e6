"""Practice in the shell: count drills and discard drills, the running figures, and the review of mistakes.

The practice menu is one of the session's menus (its items come from here); a drill has key bindings of its own,
in two moments: ``counting`` or ``discarding`` while a drill waits for an answer, and ``answered`` after it. The
figures (`audiocrib.progress.practice.PracticeRecord`) are kept in a file beside the saved game, so they grow from one
session to the next; this session's mistakes can be gone over one by one.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from audiocrib.engine.cards import Card, spoken_list
from audiocrib.engine.game import MAX_PLAY_SCORE, PLAY_POINTS
from audiocrib.engine.numbers import number_words
from audiocrib.progress.practice import (
    CountDrill,
    DiscardDrill,
    DiscardResult,
    PlayDrill,
    PracticeRecord,
    count_drill,
    discard_drill,
    judge_count,
    judge_discard,
    play_drill,
)
from audiocrib.shell import files
from audiocrib.shell.countclock import CountClock
from audiocrib.shell.lock import updating
from audiocrib.shell.typing import NOTHING_CLAIMED, NOTHING_TYPED, TypedCount, marked_count
from audiocrib.telling.answers import on_the_table
from audiocrib.telling.narrator import play_aloud
from audiocrib.telling.words import count_aloud, item_phrase

__all__ = ["COUNT_KINDS", "DRILL_KEYS", "Drills"]

COUNT_KINDS = ((4, False), (4, True), (3, False), (3, True), (5, False), (5, True), (0, False))
"""The count drills offered: (cards, crib); (0, False) is a card in the play, for manual pegging."""
TIMERS = (None, 15, 30, 45, 60, 90)
DEALS = (6, 5, 7)
PRACTICE_VERSION = 1
"""The version of ``practice.json``."""
PRACTICE_ITEMS = ("count kind", "timer", "start counting", "deal size", "start discarding", "figures", "review",
                  "back")


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
    "answered": (
        DrillBinding(("enter", "space"), "The next drill.", "next_drill"),
        DrillBinding(("a",), "After a discard drill, every way to lay away, best first.", "every_choice"),
        DrillBinding(("escape",), "Stop, and hear this session's figures.", "stop"),
    ),
}


class Drills:
    """The practice state: choices, the drill in hand, the figures (this session's and all-time)."""

    def __init__(self, say: Callable[[str], None], clock: Callable[[], float], record_path: Path | None,
                 seed: int | None = None, say_pages: Callable[[str, list[str]], None] | None = None) -> None:
        self.say = say

        def say_all(intro: str, pages: list[str]) -> None:
            for line in (intro, *pages):
                say(line)

        self.say_pages = say_pages if say_pages is not None else say_all
        """Says a long answer a page at a time (the history keys step through the rest)."""
        self.clock = clock
        self.record_path = record_path
        self.rng = random.Random(seed)
        self.count_kind = 0
        self.timer: int | None = None
        self.deal_size = 6
        self.session = PracticeRecord()
        self.all_time: PracticeRecord | None = None
        self.kept = PracticeRecord()
        """The all-time figures as last read from or written to the file: what is new is added to the file's."""
        self.unsaved = False
        """True once the player has heard the figures cannot be saved."""
        self.moment = ""
        self.drill: CountDrill | PlayDrill | DiscardDrill | None = None
        self.typed = TypedCount()
        self.started = 0.0
        self.timing = CountClock(clock)
        self.marked: list[Card] = []
        self.cursor = 0
        self.last_discard: DiscardResult | None = None
        self.finished = False
        """Set when the player leaves a drill: the session goes back to the practice menu."""

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

    # ------------------------------------------------------------ the record
    def load(self) -> str | None:
        """Read the all-time figures (once); a damaged file is set aside, the figures start afresh, and the
        sentence saying so is returned."""
        if self.all_time is not None:
            return None
        self.all_time, self.kept = PracticeRecord(), PracticeRecord()
        if self.record_path is None:
            return None
        loaded = self._read(self.record_path)
        if loaded.value is not None:
            self.all_time, self.kept = loaded.value, copy.deepcopy(loaded.value)
        return loaded.notice

    def _read(self, path: Path) -> files.Loaded[PracticeRecord]:
        return files.load(path, "practice figures", PRACTICE_VERSION, PracticeRecord.from_json, "they start afresh")

    def save(self) -> None:
        """Add this session's new figures to the file: read it again, add them, write it (write, then rename, so a
        crash never leaves half a file), all under the folder's lock, so figures another copy of audiocrib added
        meanwhile are kept too."""
        path = self.record_path
        if path is None or self.all_time is None:
            return
        news = self.all_time.since(self.kept)
        try:
            with updating(path.parent):
                loaded = self._read(path)
                if loaded.notice:
                    self.say(loaded.notice)
                merged = (loaded.value or PracticeRecord()).plus(news)
                files.save(path, {"version": PRACTICE_VERSION, **merged.to_json()}, readable=True)
            self.all_time, self.kept = merged, copy.deepcopy(merged)
            self.unsaved = False
        except OSError as error:
            if not self.unsaved:
                self.unsaved = True
                self.say(f"Your practice figures cannot be saved ({files.reason(error)}).")

    def all_time_text(self) -> str | None:
        """All the practice kept, in a sentence (None if there is none)."""
        notice = self.load()
        if notice:
            self.say(notice)
        assert self.all_time is not None
        if not (self.all_time.counts or self.all_time.discards):
            return None
        return _figures(self.all_time)

    def figures(self) -> list[str]:
        """This session's figures and the all-time ones, as announcements."""
        notice = self.load()
        if notice:
            self.say(notice)
        assert self.all_time is not None
        session = _figures(self.session)
        if self.record_path is None or not (self.all_time.counts or self.all_time.discards):
            return [f"This session: {session}"]
        every = _figures(self.all_time)
        if every == session:  # no practice before this session: the same figures are not said twice
            return [f"This session, your first: {session}"]
        return [f"This session: {session}", f"All your practice: {every}"]

    def review(self) -> list[str]:
        """This session's wrong counts, one announcement each."""
        mistakes = self.session.mistakes
        if not mistakes:
            return ["No mistakes to go over in this session."]
        lines = [f"{number_words(len(mistakes)).capitalize()} to go over; comma and period step through them."]
        for number, result in enumerate(mistakes, start=1):
            drill = result.drill
            said = "the time ran out" if result.claimed is None else f"you said {number_words(result.claimed)}"
            missed = ""
            if result.missed:
                missed = " You missed " + _joined([_item_words(i) for i in result.missed]) + "."
            elif result.claimed is not None and result.claimed > drill.score.total:
                missed = f" That is {number_words(result.claimed - drill.score.total)} too many."
            lines.append(f"Mistake {number}: {_drill_words(drill)}; {said}. It is "
                         f"{number_words(drill.score.total)}: {_truth(drill)}.{missed}")
        return lines

    # ------------------------------------------------------------ drills
    def start(self, kind: str) -> None:
        """Begin count drills (``kind`` "counting") or discard drills ("discarding")."""
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
            self.say(f"Count this {_drill_words(drill)}. Type {what} and press Enter.{timed}")
        else:
            self.drill = discard_drill(self.rng, self.deal_size)
            self.say(self._deal_words(self.drill) + " Mark two cards and press Enter to lay them away.")

    def next_drill(self, key: str) -> None:
        """The next drill of the same kind."""
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

    def tick(self) -> None:
        """The drill timer: warnings, then the time runs out (a miss)."""
        if not self.timing.running or self.moment != "counting":
            return
        warnings, out = self.timing.check()
        for seconds in warnings:
            self.say(f"{number_words(seconds).capitalize()} seconds left.")
        if out:
            self._judge(None)  # its answer says the time is up

    # ------------------------------------------------------------ counting
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
        truth = _truth(drill)
        if result.right:
            text = f"Right: {truth}."
            if self.session.streak > 1:
                text += f" {number_words(self.session.streak).capitalize()} in a row."
        else:
            said = "Time is up." if claimed is None else f"You said {number_words(claimed)}."
            text = f"{said} It is {number_words(total)}: {truth}."
            if result.missed:
                text += " You missed " + _joined([_item_words(i) for i in result.missed]) + "."
            elif claimed is not None and claimed < total:
                text += f" You missed {number_words(total - claimed)}."
            elif claimed is not None and claimed > total:
                text += f" That is {number_words(claimed - total)} too many."
        self.say(text + " Press Enter for the next one.")
        self.moment = "answered"
        self.save()

    # ------------------------------------------------------------ discarding
    def _hand(self) -> list[Card]:
        assert isinstance(self.drill, CountDrill | DiscardDrill)
        return list(self.drill.cards)

    def mark_at(self, key: str) -> None:
        if int(key) > len(self._hand()):
            self.say(f"There are only {number_words(len(self._hand()))} cards.")
            return
        self.cursor = int(key) - 1
        self.mark(key)

    def mark(self, key: str) -> None:
        card = self._hand()[self.cursor]
        if card in self.marked:
            self.marked.remove(card)
            self.say(f"{card.name.capitalize()}, unmarked. {marked_count(len(self.marked), 2)}")
        elif len(self.marked) >= 2:
            self.say("Two are marked already; unmark one first, or press Enter.")
        else:
            self.marked.append(card)
            self.say(f"{card.name.capitalize()}, marked. {marked_count(len(self.marked), 2)}")

    def card_left(self, key: str) -> None:
        self._walk(-1)

    def card_right(self, key: str) -> None:
        self._walk(1)

    def _walk(self, step: int) -> None:
        hand = self._hand()
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
        self.all_time.add_discard(result)
        best = result.options[0]
        crib = "your crib" if drill.dealer else "your opponent's crib"
        yours = (f"You laid away {spoken_list(result.chosen.discard)}: your hand is worth "
                 f"{result.chosen.expected_hand:.1f} on average, and {crib} "
                 f"{'gains' if drill.dealer else 'gets'} {result.chosen.expected_crib or 0:.1f}; "
                 f"net {result.chosen.net:.1f}.")
        if result.rank == 1:
            verdict = "That is the best choice."
        else:
            verdict = (f"That is choice {number_words(result.rank)} of {number_words(len(result.options))}. "
                       f"Best was to lay away {spoken_list(best.discard)} and keep {spoken_list(best.keep)}: "
                       f"hand {best.expected_hand:.1f}, crib {best.expected_crib or 0:.1f}, net {best.net:.1f}, "
                       f"{result.loss:.1f} more.")
        self.say(f"{yours} {verdict} Press a for every choice, Enter for the next one.")
        self.last_discard = result
        self.moment = "answered"
        self.save()

    def every_choice(self, key: str) -> None:
        """Every way to lay away the last discard drill's cards, best first, one message each."""
        result = self.last_discard
        if result is None or not isinstance(self.drill, DiscardDrill):
            self.say("Every choice is said after a discard drill.")
            return
        pages = [f"{place}: lay away {spoken_list(option.discard)}: hand {option.expected_hand:.1f}, "
                 f"crib {option.expected_crib or 0:.1f}, net {option.net:.1f}."
                 + (" Your choice." if option is result.chosen else "")
                 for place, option in enumerate(result.options, start=1)]
        self.say_pages(f"{_many(len(result.options), 'choice').capitalize()}, best first; period steps to the "
                       "next, comma back.", pages)

    # ------------------------------------------------------------ asking again
    def say_drill(self, key: str) -> None:
        if isinstance(self.drill, CountDrill | PlayDrill):
            self.say(f"The {_drill_words(self.drill)}.")
        elif isinstance(self.drill, DiscardDrill):
            self.say(self._deal_words(self.drill, self.marked))

    def say_starter(self, key: str) -> None:
        if isinstance(self.drill, CountDrill):
            self.say(f"The starter is the {self.drill.starter.name}.")
        elif isinstance(self.drill, PlayDrill):
            self.say("A card in the play is counted without the starter.")

    def say_table(self, key: str) -> None:
        """Key v, as at the table: the cards of the series and the count; a hand is not on the table."""
        if isinstance(self.drill, PlayDrill):
            self.say(on_the_table([card.name for card in self.drill.series], self.drill.count))
        else:
            self.say("Cards are on the table only in a drill of the play.")

    def say_crib(self, key: str) -> None:
        if isinstance(self.drill, DiscardDrill):
            self.say("The crib is yours: you deal." if self.drill.dealer else "The crib is your opponent's.")

    def say_time(self, key: str) -> None:
        if not self.timing.running:
            self.say("There is no timer on.")
        else:
            self.say(f"{number_words(self.timing.left()).capitalize()} seconds left.")

    @staticmethod
    def _deal_words(drill: DiscardDrill, marked: list[Card] | None = None) -> str:
        whose = "You deal: the crib is yours." if drill.dealer else "Your opponent deals: the crib is theirs."
        cards = "; ".join(f"{n}, {c.name}" + (", marked" if c in (marked or ()) else "")
                          for n, c in enumerate(drill.cards, start=1))
        return f"{whose} Your cards: {cards}."


def _drill_words(drill: CountDrill | PlayDrill) -> str:
    if isinstance(drill, PlayDrill):
        laid = ", then ".join(card.name for card in drill.series)
        return f"play: {laid}, for {number_words(drill.count)}"
    what = "crib" if drill.crib else "hand"
    return f"{what}: {_joined([c.name for c in drill.cards])}, with the starter, the {drill.starter.name}"


def _truth(drill: CountDrill | PlayDrill) -> str:
    """The true count the cribbage way: a hand of nothing is "nineteen", a card in the play makes "nothing"."""
    if isinstance(drill, PlayDrill):
        return play_aloud(drill.score)
    return count_aloud(drill.score) if drill.score.total else "nineteen: nothing"


def _joined(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _item_words(item: object) -> str:
    from audiocrib.engine.scoring import ScoreItem, ScoreKind

    assert isinstance(item, ScoreItem)
    cards = _joined([c.name for c in item.cards])
    if item.kind is ScoreKind.FIFTEEN:
        return f"fifteen ({cards})"
    return f"{item_phrase(item)} ({cards})"


def _figures(record: PracticeRecord) -> str:
    parts = []
    if record.counts:
        percent = round(100 * record.right / record.counts)
        parts.append(
            f"{_many(record.counts, 'count')}, {number_words(record.right)} right ({percent} percent), "
            f"{record.seconds / record.counts:.1f} seconds each on average, a streak of "
            f"{number_words(record.streak)} now and {number_words(record.best_streak)} at best")
        if record.missed:
            common = ", ".join(f"{kind} {_times(n)}" for kind, n in record.missed.most_common(3))
            parts.append(f"most often missed: {common}")
    if record.discards:
        parts.append(f"{_many(record.discards, 'discard')}, the best choice "
                     f"{_times(record.best_discards)}, {record.points_lost / record.discards:.2f} "
                     "points a deal given up on average")
    return "; ".join(parts) + "." if parts else "nothing practised yet."


def _many(n: int, noun: str) -> str:
    return f"{number_words(n)} {noun}{'' if n == 1 else 's'}"


def _times(n: int) -> str:
    return {0: "no times", 1: "once", 2: "twice"}.get(n, f"{number_words(n)} times")
