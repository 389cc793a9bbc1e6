"""One-key answers from a player's view, in every phase they apply to and outside it (audiocrib/telling/answers.py)."""

from __future__ import annotations

import dataclasses
import random
import re

import pytest

from audiocrib.bots.player import next_action
from audiocrib.engine.actions import ClaimCount, Discard, Go
from audiocrib.engine.cards import Card, parse_cards
from audiocrib.engine.game import Game, Phase
from audiocrib.engine.numbers import number_words
from audiocrib.engine.rules import Rules
from audiocrib.engine.views import PlayerView
from audiocrib.telling import answers
from tests.helpers import TABLES, plays, random_action, stacked, start_play
from tests.test_narrator import BGA, NAMES, _bots, assert_names_none_of, assert_spoken, hidden_from

ALL = (answers.count, answers.crib_owner, answers.starter, answers.table, answers.scores, answers.turn,
       answers.hand, answers.held, answers.last_play, answers.prompt)


def _deal(names: tuple[str, ...] = ("Alice", "Bob")) -> Game:
    return stacked(list(BGA), dealer=0, names=names)


def _play(names: tuple[str, ...] = ("Alice", "Bob")) -> Game:
    return start_play(_deal(names), ["8D 8C", "TS KC"], "6S")


def _played_out(game: Game) -> Game:
    rng = random.Random(0)
    while game.phase is Phase.PLAY:
        game.apply(random_action(game, rng))
    return game


def assert_answer(view: PlayerView, text: str, positions: bool = False) -> None:
    """A well-spoken answer; the hand's positions are its only digits."""
    if positions:
        assert re.fullmatch(r"(Your hand: \d+, [a-z ]+(, marked)?(; \d+, [a-z ]+(, marked)?)*\.|You have no cards "
                            r"left\.|The match is over; .*|Your hand for the show: .*|Your hand: [a-z ,]+\.)"
                            r"( You (laid away|have played) [a-z ,]+\.)?", text), text
        text = re.sub(r"\b\d+, ", "", text)
    assert_spoken(text)


class TestInTheDiscard:
    def test_every_answer_before_anyone_lays_away(self) -> None:
        game = _deal()
        alice, bob = game.view(0), game.view(1)
        assert answers.count(alice) == "There is no count until the play starts."
        assert answers.crib_owner(alice) == "The crib is yours."
        assert answers.crib_owner(bob) == "The crib is Alice's."
        assert answers.starter(alice) == "The starter is not cut yet."
        assert answers.table(alice) == "Cards are on the table only in the play."
        assert answers.scores(alice) == (
            "You have zero and need one hundred twenty-one; Bob has zero and needs one hundred twenty-one.")
        assert answers.turn(alice) == "You must lay away two cards to your crib. Bob must lay away too."
        assert answers.turn(bob) == "You must lay away two cards to Alice's crib. Alice must lay away too."
        assert answers.hand(alice) == ("Your hand: 1, two of spades; 2, four of spades; 3, five of spades; 4, six of "
                                       "hearts; 5, eight of clubs; 6, eight of diamonds.")
        assert answers.held(alice) == "You hold six cards; Bob holds six cards."
        assert answers.last_play(alice) == "Nothing has been played yet this deal."
        assert answers.prompt(alice) == "Lay away two cards to your crib: space marks a card, Enter lays them away."
        assert answers.prompt(bob) == ("Lay away two cards to Alice's crib: space marks a card, Enter lays them "
                                       "away.")

    def test_marked_cards_and_positions(self) -> None:
        alice = _deal().view(0)
        marked = parse_cards("8C 8D")
        assert answers.hand(alice, marked).endswith("5, eight of clubs, marked; 6, eight of diamonds, marked.")
        assert answers.hand(alice, marked).count("marked") == 2
        assert answers.prompt(alice, marked).endswith(" Marked: the eight of clubs and the eight of diamonds.")
        assert answers.card_at(alice, 1) == Card.parse("2S")
        assert answers.card_at(alice, 6) == Card.parse("8D")
        assert answers.card_at(alice, 0) is None and answers.card_at(alice, 7) is None
        assert all(answers.card_at(alice, i) == card for i, card in enumerate(sorted(alice.hand), 1))

    def test_after_laying_away(self) -> None:
        game = _deal()
        game.apply(Discard(1, parse_cards("TS KC")))
        bob = game.view(1)
        assert answers.turn(bob) == "You have laid away. Waiting for Alice to lay away."
        assert answers.prompt(bob) == "Waiting for Alice to lay away."
        assert answers.hand(bob) == ("Your hand: 1, four of hearts; 2, six of diamonds; 3, seven of clubs; 4, jack "
                                     "of hearts. You laid away the ten of spades and the king of clubs.")
        assert answers.held(bob) == "You hold four cards; Alice holds six cards."
        assert answers.turn(game.view(0)) == "You must lay away two cards to your crib. Everyone else has laid away."

    def test_one_card_to_lay_away(self) -> None:
        game = Game(Rules(players=3), names=NAMES[:3], seed=2)
        seat = (game.dealer + 1) % 3
        view = game.view(seat)
        crib = f"{NAMES[game.dealer]}'s crib"
        assert answers.prompt(view) == f"Lay away one card to {crib}: space marks it, Enter lays it away."
        assert answers.turn(view).startswith(f"You must lay away one card to {crib}. ")

    def test_the_dealer_of_five_lays_nothing_away(self) -> None:
        game = Game(Rules(players=5), names=NAMES[:5], seed=3)
        dealer = game.view(game.dealer)
        others = [NAMES[(game.dealer + step) % 5] for step in range(1, 5)]
        waiting = ", ".join(others[:-1]) + " and " + others[-1]
        assert answers.turn(dealer) == f"You lay nothing away this deal. Waiting for {waiting} to lay away."
        assert answers.prompt(dealer) == f"Waiting for {waiting} to lay away."


class TestInThePlay:
    def test_the_count_table_and_turn(self) -> None:
        game = _play()
        bob = game.view(1)
        assert answers.count(bob) == "The count is zero; no cards on the table."
        assert answers.table(bob) == "There are no cards on the table; the count is zero."
        assert answers.turn(bob) == "Your turn; the count is zero."
        assert answers.starter(bob) == "The starter is the six of spades."
        plays(game, "1:JH 0:5S 1:7C")
        alice, bob = game.view(0), game.view(1)
        assert answers.count(alice) == "The count is twenty-two."
        assert answers.table(alice) == ("On the table: Bob's jack of hearts, then your five of spades, then Bob's "
                                        "seven of clubs; the count is twenty-two.")
        assert answers.table(bob) == ("On the table: your jack of hearts, then Alice's five of spades, then your "
                                      "seven of clubs; the count is twenty-two.")
        assert answers.turn(alice) == "Your turn; the count is twenty-two."
        assert answers.turn(bob) == "Alice's turn."
        assert answers.prompt(alice) == "Your turn: play a card; the count is twenty-two."
        assert answers.prompt(bob) == "Waiting for Alice."
        assert answers.hand(alice) == ("Your hand: 1, two of spades; 2, four of spades; 3, six of hearts. You have "
                                       "played the five of spades.")
        assert answers.held(alice) == "You hold three cards; Bob holds two cards."
        assert answers.scores(bob) == (
            "You have zero and need one hundred twenty-one; Alice has two and needs one hundred nineteen.")

    def test_last_play_explains_the_points(self) -> None:
        game = _play()
        plays(game, "1:JH")
        assert answers.last_play(game.view(0)) == "Bob played the jack of hearts for ten."
        plays(game, "0:5S")
        assert answers.last_play(game.view(1)) == "Alice played the five of spades for fifteen: two for fifteen."
        plays(game, "1:7C 0:6H")  # Bob cannot play: the game says go for him
        assert answers.last_play(game.view(0)) == "Bob said go at twenty-eight."
        assert answers.table(game.view(0)).endswith("; the count is twenty-eight. Bob has said go.")
        assert answers.table(game.view(1)).endswith(" You have said go.")
        plays(game, "0:2S")
        assert answers.last_play(game.view(1)) == ("Nobody could play at thirty, so Alice pegged one for the last "
                                                   "card.")
        assert answers.last_play(game.view(0)) == "Nobody could play at thirty, so you pegged one for the last card."
        plays(game, "1:6D 0:4S 1:4H")  # the play, the show and the deal pass: a new deal, nothing played yet
        assert game.phase is Phase.DISCARD
        assert answers.last_play(game.view(0)) == "Nothing has been played yet this deal."

    def test_a_run_and_a_pair_are_explained_with_their_cards(self) -> None:
        game = stacked(["4S 5H 2S 8D QH KH", "6D 3C 9C 9S JC QC"], dealer=1, names=("Alice", "Bob"))
        game = start_play(game, ["QH KH", "JC QC"], "AS")
        plays(game, "0:4S 1:6D 0:5H")
        assert answers.last_play(game.view(1)) == (
            "Alice played the five of hearts for fifteen: two for fifteen and three for the run of four, five and "
            "six; five points in all.")
        game = stacked(["4S 4H 2S 8D QH KH", "4D 3C 9C 9S JC QC"], dealer=1, names=("Alice", "Bob"))
        game = start_play(game, ["QH KH", "JC QC"], "AS")
        plays(game, "0:4S 1:4D")
        assert answers.last_play(game.view(0)) == "Bob played the four of diamonds for eight: two for a pair of fours."
        plays(game, "0:4H")
        assert answers.last_play(game.view(1)) == (
            "Alice played the four of hearts for twelve: six for a pair royal of fours.")

    def test_thirty_one(self) -> None:
        game = stacked(["KS 6D 2C 3C QH QD", "9C 6H 4D 4C JH JD"], dealer=0, names=NAMES[:2])
        game = start_play(game, ["QH QD", "JH JD"], "AS")
        plays(game, "1:9C 0:KS 1:6H 0:6D")
        assert answers.last_play(game.view(1)) == (
            "Ann played the six of diamonds for thirty-one: two for thirty-one and two for a pair of sixes; four "
            "points in all.")

    def test_saying_go_yourself(self) -> None:
        game = stacked(list(BGA), dealer=0, names=("Alice", "Bob"), auto_go=False)
        game = start_play(game, ["8D 8C", "TS KC"], "6S")
        plays(game, "1:JH 0:5S 1:7C 0:6H")
        bob = game.view(1)
        assert bob.my_turn and not bob.playable
        assert answers.turn(bob) == "Your turn, and no card fits: say go; the count is twenty-eight."
        assert answers.prompt(bob) == "Your turn: no card fits, so say go; the count is twenty-eight."
        game.apply(Go(1))
        assert answers.last_play(game.view(0)) == "Bob said go at twenty-eight."

    def test_no_cards_left(self) -> None:
        game = _play()
        plays(game, "1:JH 0:5S 1:7C 0:6H 0:2S 1:6D 0:4S")
        alice = game.view(0)
        assert answers.hand(alice) == ("You have no cards left. You have played the five of spades, the six of "
                                       "hearts, the two of spades and the four of spades.")
        assert answers.held(alice) == "You hold no cards; Bob holds one card."


class TestTeams:
    def test_crib_and_scores_name_the_teams(self) -> None:
        rules = Rules(players=4, team_size=2, match_games=3)
        game = Game(rules, names=NAMES[:4], seed=3)
        dealer = game.dealer
        for seat in range(4):
            view = game.view(seat)
            team = rules.side_of(dealer)
            if seat == dealer:
                owner = "yours"
            else:
                owner = f"{NAMES[dealer]}'s"
            partners = sorted(rules.seats_of(team), key=lambda s: (s != seat, s))
            names = ["you" if s == seat else NAMES[s] for s in partners]
            assert answers.crib_owner(view) == f"The crib is {owner}; it counts for {' and '.join(names)}."
        ann = game.view(0)
        assert answers.scores(ann) == (
            "Game one. You and Carol have zero and need one hundred twenty-one; Bob and Dave have zero and need one "
            "hundred twenty-one. In the match to three game points, you and Carol have none; Bob and Dave have none.")
        assert answers.held(ann) == "You hold five cards; Bob holds five cards; Carol holds five cards; Dave holds " \
                                    "five cards."


class TestInTheCount:
    def _counting(self, dealer: int = 1) -> Game:
        rules = Rules(manual_counting=True)
        game = stacked(["7H 8H 8C 2D QS KS", "AC 3C 9D TD 4S 6S"], dealer=dealer, rules=rules, manual_seats=[0],
                       names=NAMES[:2])
        game = start_play(game, ["QS KS", "4S 6S"], "5S")
        return _played_out(game)

    def test_the_hand_being_counted(self) -> None:
        game = self._counting()
        ann, bob = game.view(0), game.view(1)
        assert ann.counting == (0, False)
        cards = ("two of diamonds, seven of hearts, eight of clubs and eight of hearts, with the starter, the five "
                 "of spades")
        assert answers.count(ann) == f"You are counting your hand: {cards}."
        assert answers.count(bob) == f"Ann is counting their hand: {cards}."
        assert "ten" not in answers.count(ann)  # the counter must find the total
        assert answers.turn(ann) == "Your turn to count your hand."
        assert answers.turn(bob) == "Waiting for Ann to count their hand."
        assert answers.prompt(ann) == "Count your hand and type the total, then Enter."
        assert answers.prompt(bob) == "Waiting for Ann to count."
        assert answers.hand(ann) == f"Your hand for the show: {cards}."
        assert answers.table(ann) == "Cards are on the table only in the play."
        assert answers.held(ann) == "You hold no cards; Bob holds no cards."
        assert answers.starter(ann) == "The starter is the five of spades."

    def test_the_crib_being_counted(self) -> None:
        game = self._counting(dealer=0)
        game.apply(ClaimCount(0, 10))
        ann, bob = game.view(0), game.view(1)
        assert ann.counting == (0, True)
        crib = "four of spades, six of spades, queen of spades and king of spades, with the starter, the five of spades"
        assert answers.count(ann) == f"You are counting your crib: {crib}."
        assert answers.count(bob) == f"Ann is counting the crib: {crib}."
        assert answers.turn(ann) == "Your turn to count your crib."
        assert answers.turn(bob) == "Waiting for Ann to count the crib."
        assert answers.prompt(ann) == "Count your crib and type the total, then Enter."

    def test_the_next_deal_has_no_count_yet(self) -> None:
        game = self._counting()
        game.apply(ClaimCount(0, 10))
        assert game.phase is Phase.DISCARD
        assert answers.count(game.view(0)) == "There is no count until the play starts."
        assert answers.last_play(game.view(0)) == "Nothing has been played yet this deal."


class TestMatchOver:
    def test_won_in_the_show(self) -> None:
        game = stacked(["7H 8H 8C 2D QS KS", "AC 3C 9D TD 4S 6S"], dealer=1, names=NAMES[:2], scores=[115, 20])
        game = _played_out(start_play(game, ["QS KS", "4S 6S"], "5S"))
        assert game.over
        ann, bob = game.view(0), game.view(1)
        assert answers.count(bob) == ("Ann's hand: two of diamonds, seven of hearts, eight of clubs and eight of "
                                      "hearts, with the starter, the five of spades. Fifteen two, fifteen four, "
                                      "fifteen six, fifteen eight, and a pair is ten.")
        assert answers.turn(ann) == answers.prompt(ann) == "The match is over; you won."
        assert answers.turn(bob) == answers.prompt(bob) == "The match is over; Ann won."
        won = number_words(game.scores[0])
        assert answers.scores(bob) == f"You have {number_words(game.scores[1])}; Ann has {won} and won the game."
        assert answers.hand(ann) == ("The match is over; your last hand was two of diamonds, seven of hearts, eight "
                                     "of clubs and eight of hearts.")
        assert answers.table(ann) == "Cards are on the table only in the play."
        assert answers.starter(ann) == "The starter is the five of spades."

    def test_won_in_the_play(self) -> None:
        game = stacked(list(BGA), dealer=0, names=("Alice", "Bob"), scores=[119, 30])
        game = start_play(game, ["8D 8C", "TS KC"], "6S")
        plays(game, "1:JH 0:5S")
        assert game.over
        alice = game.view(0)
        assert answers.count(alice) == "The game ended in the play, at a count of fifteen."
        assert answers.last_play(alice) == "You played the five of spades for fifteen: two for fifteen."
        assert answers.scores(alice) == "You have one hundred twenty-one and won the game; Bob has thirty."

    def test_a_match_of_several_games(self) -> None:
        from audiocrib.bots.player import drive

        rules = Rules(match_games=3)
        game = drive(Game(rules, names=NAMES[:2], seed=4), _bots(rules))
        view = game.view(1)
        text = answers.scores(view)
        assert text.startswith(f"Game {number_words(game.game_number)}. You have ")
        mine, theirs = game.match_scores[1], game.match_scores[0]
        assert text.endswith(f"In the match to three game points, you have {number_words(mine) if mine else 'none'}"
                             f" and Ann has {number_words(theirs) if theirs else 'none'}.")


@pytest.mark.parametrize("rules", TABLES, ids=[r.describe() for r in TABLES])
def test_every_answer_at_every_step_of_a_game(rules: Rules) -> None:
    """At every decision of a whole match, every seat's every answer is well spoken and hides others' cards."""
    rules = dataclasses.replace(rules, manual_counting=True, match_games=2)
    game = Game(rules, names=NAMES[:rules.players], seed=11, manual_seats=[0, 1])
    players = _bots(rules)
    phases: set[Phase] = set()
    steps = 0
    while True:
        steps += 1
        check_all = steps % 3 == 0 or game.over or game.phase is Phase.COUNT
        for seat in range(rules.players) if check_all else (0,):
            view = game.view(seat)
            hidden = hidden_from(game.events, seat)
            phases.add(view.phase)
            for answer in ALL:
                text = answer(view)
                assert_answer(view, text, positions=answer is answers.hand)
                assert_names_none_of(text, hidden)
            marked = sorted(view.hand)[:view.must_discard]
            assert_answer(view, answers.hand(view, marked), positions=True)
            assert_answer(view, answers.prompt(view, marked))
        if game.over:
            break
        seat = min(game.waiting_for())
        game.apply(next_action(game, seat, players[seat]))
    assert phases == {Phase.DISCARD, Phase.PLAY, Phase.COUNT, Phase.MATCH_OVER}


def test_playing_again_after_your_own_card_says_who_has_no_cards_left() -> None:
    """Nothing else tells you why it is your turn again when the others have run out of cards."""
    import random

    from audiocrib.engine.game import Game, Phase
    from audiocrib.engine.rules import Rules
    from tests.helpers import random_action

    found = {2: 0, 3: 0}
    for players in (2, 3):
        for seed in range(40):
            game, rng = Game(Rules(players=players), seed=seed), random.Random(seed)
            while not game.over and game.deal_number < 3:
                view = game.view(0)
                if game.phase is Phase.PLAY and view.my_turn:
                    out = [s for s in range(1, players) if not view.held[s] and s not in view.said_go]
                    again = answers.prompt(view)
                    if view.series and view.series[-1][0] == 0 and out:
                        names = " and ".join(game.names[s] for s in out)
                        assert again.startswith(f"{names} {'has' if len(out) == 1 else 'have'} no cards left. "
                                                "Your turn")
                        found[players] += 1
                    else:
                        assert again.startswith("Your turn")
                game.apply(random_action(game, rng))
    assert found[2] and found[3]


def test_the_time_left_for_a_move_is_said_for_you_or_by_name() -> None:
    view = _deal().view(0)
    assert answers.move_time(view, 0, 29.2) == "Thirty seconds left for your move."
    assert answers.move_time(view, 1, 0.4) == "Bob has one second left to move."
    assert answers.move_time(view, 1, 0.0) == "Bob has zero seconds left to move."
    assert all(answers.move_time(view, seat, 75.5).isascii() for seat in (0, 1))
