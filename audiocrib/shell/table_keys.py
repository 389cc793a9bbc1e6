"""The keys while playing: the hand cursor, marking and laying away, playing a card, typing a count or the points of
the play, going on from a pause, hurrying, the questions (c b f v s t h n l), and muggins."""

from __future__ import annotations

from audiocrib.engine.actions import CallMuggins, ClaimCount, Discard, Play
from audiocrib.engine.cards import Card
from audiocrib.shell.core import SessionCore
from audiocrib.shell.keys import Mode, _hold_only, _number
from audiocrib.shell.typing import NOTHING_CLAIMED, NOTHING_TYPED, marked_count
from audiocrib.telling import answers
from audiocrib.telling.phrases import capitalised


class TableKeys(SessionCore):
    """What each key does at the table."""

    def _to_main_menu(self, key: str) -> None:
        if self.client is not None:
            self._leave_online_game()
            return
        self.table = None
        self._enter_menu(Mode.MAIN, "Main menu: ")

    def _hand(self) -> list[Card]:
        view = self.view()
        return sorted(view.hand if view.hand else view.kept)

    def _card_words(self, card: Card) -> str:
        view = self.view()
        words = card.name.capitalize()
        if self.moment == "discard" and card in self.marked:
            words += ", marked"
        elif self.moment == "play":
            return capitalised(answers.card_in_play(view, card))
        return words

    def _walk(self, step: int) -> None:
        hand = self._hand()
        if not hand:
            self.say("You hold no cards.")
            return
        self.cursor = (self.cursor + step) % len(hand)
        self.say(f"{self._card_words(hand[self.cursor])}. {self.cursor + 1} of {len(hand)}.")

    def _card_left(self, key: str) -> None:
        self._walk(-1)

    def _card_right(self, key: str) -> None:
        self._walk(1)

    def _select_at(self, key: str) -> None:
        hand = self._hand()
        position = int(key)
        if position > len(hand):  # and say the card Enter would play, which this key did not change
            on = hand[self.cursor % len(hand)]
            self.say(f"{_hold_only(len(hand))[:-1]}; you are on the {on.name}.")
            return
        self.cursor = position - 1
        self.say(f"{self._card_words(hand[self.cursor])}.")

    def _mark_at(self, key: str) -> None:
        hand = self._hand()
        if int(key) > len(hand):
            self.say(_hold_only(len(hand)))
            return
        self.cursor = int(key) - 1
        self._mark(key)

    def _mark(self, key: str) -> None:
        hand = self._hand()
        card = hand[self.cursor % len(hand)]
        need = self.view().must_discard
        if card in self.marked:
            self.marked.remove(card)
            self.say(f"{card.name.capitalize()}, unmarked. {marked_count(len(self.marked), need)}")
            return
        if len(self.marked) >= need:
            self.say(f"You already marked {_number(need)}; unmark one first, or press Enter to lay them away.")
            return
        self.marked.append(card)
        self.say(f"{card.name.capitalize()}, marked. {marked_count(len(self.marked), need)}")

    def _lay_away(self, key: str) -> None:
        need = self.view().must_discard
        if len(self.marked) != need:
            self.say(f"Mark {_number(need)} {'card' if need == 1 else 'cards'} for the crib first; "
                     f"{_number(len(self.marked))} marked.")
            return
        self._act(Discard(self.seat, tuple(self.marked)))

    def _play(self, key: str) -> None:
        hand = self._hand()
        self._act(Play(self.seat, hand[self.cursor % len(hand)]))

    def _type_digit(self, key: str) -> None:
        self.say(self.typed.type(key))

    def _delete_digit(self, key: str) -> None:
        self.say(self.typed.delete())

    def _claim(self, key: str) -> None:
        points = self.typed.take()
        if points is None:
            self.say(NOTHING_CLAIMED if self.moment == "peg" else NOTHING_TYPED)
            return
        self.count_clock.stop()
        self._act(ClaimCount(self.seat, points))

    def _go_on(self, key: str) -> None:
        self.passed = self.told
        self.holding = False
        self.snapshot = None
        self._settle()

    def _hurry(self, key: str) -> None:
        assert self.table is not None
        stamp = len(self.table.view().events)
        if stamp == self.hurried_at:  # said already for this wait: the computer's move, made at once, answers
            return
        self.hurried_at = stamp
        waiting = sorted(self.table.waiting_for())
        who = self.view().names[waiting[0]] if waiting else "nobody"
        self.say(f"Waiting for {who}.")

    def _key_count(self, key: str) -> None:
        self.say(answers.count(self.view()))

    def _key_crib(self, key: str) -> None:
        self.say(answers.crib_owner(self.view()))

    def _key_starter(self, key: str) -> None:
        self.say(answers.starter(self.view()))

    def _key_table(self, key: str) -> None:
        self.say(answers.table(self.view()))

    def _key_scores(self, key: str) -> None:
        self.say(answers.scores(self.view()))

    def _key_turn(self, key: str) -> None:
        self.say(self.turn_text())

    def turn_text(self) -> str:
        """What t says: whose turn it is (yours at a pause), with the time left to count or to move."""
        if self.holding:
            return f"Yours: press Enter for the next {self.next_up}."
        text = answers.turn(self.view())
        if self.moment == "count" and self.count_clock.running:
            text += f" {_number(self.count_clock.left()).capitalize()} seconds left to count."
        moving = self.table.move_time() if self.table is not None else None
        if moving is not None:
            text += " " + answers.move_time(self.view(), *moving)
        return text

    def _key_hand(self, key: str) -> None:
        self.say(answers.hand(self.view(), tuple(self.marked)))

    def _key_held(self, key: str) -> None:
        self.say(answers.held(self.view()))

    def _key_last(self, key: str) -> None:
        self.say(answers.last_play(self.view()))

    def _call_muggins(self, key: str) -> None:
        self._act(CallMuggins(self.seat))
