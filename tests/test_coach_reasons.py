"""The coach's reasons in the play, against positions worked out by hand.

Each test sets up a real position (`tests.coach_positions`: a game stacked and played to a point of the play),
works the facts out by hand in its comment (the replies counted, the chance of a go), and checks the coach's facts
and the words a player hears: each kind of reason is said when it is true of the position, and not when it is
not. "Unseen" means the cards the seat has not seen: the deck less its own cards dealt, the starter and the cards
laid. The lay-away's reasons are in tests/test_coach_lay_away.py.
"""

from __future__ import annotations

import pytest

from audiocrib.engine.rules import Rules
from tests.coach_positions import (
    ascii_sentences,
    card,
    fifteen_position,
    go_position,
    in_words,
    loss,
    play_at,
    seated,
)


def test_fifteen() -> None:
    # At ten a five makes fifteen for two. Unseen: 52 less your six, the starter and the king = 44. On fifteen
    # (K, 5) only a five scores, a pair (5H and 5C unseen: two); nothing makes fifteen again or a run (K, 5, x).
    advice, words = play_at(fifteen_position())
    five = advice.choice_of(card("5S"))
    assert five.score.total == 2 and five.count == 15
    assert [(r.rank.word, r.score.total, r.cards) for r in five.replies] == [("five", 2, 2)]
    assert five.fits == 44 and advice.unseen == 44
    assert advice.best.card.rank is five.card.rank
    assert words.startswith("The five: it makes fifteen for two and leaves fifteen, where either of the two fives "
                            "you have not seen gives Bob a pair for two.")
    ascii_sentences(words)


def test_another_card_its_cost_first() -> None:
    # The nine leaves nineteen (K, 9): only a pair of nines (9S 9D unseen: two) scores. It pegs nothing, so it is
    # said with what it gives up first.
    advice, words = play_at(fifteen_position())
    nine = advice.choice_of(card("9C"))
    assert [(r.rank.word, r.score.total, r.cards) for r in nine.replies] == [("nine", 2, 2)]
    assert nine.loss > 0.1
    assert (f"The nine is {loss(nine.loss)} worse: it would leave nineteen, where either of the two nines you "
            "have not seen gives Bob a pair for two.") in words


def test_a_pair_and_the_pair_royal_it_risks() -> None:
    # Bob leads the 8H; you hold 8S 8D KC QC (2H 3H laid away), starter 5C. Pairing makes sixteen for two; the
    # one eight unseen (8C) would give Bob a pair royal for six there. Sixteen: no fifteen, thirty-one or run.
    game = seated(["8S 8D KC QC 2H 3H", "8H 4S 6D 9D AS TC"], ["2H 3H", "AS TC"], "5C", "1:8H")
    advice, words = play_at(game)
    eight = advice.choice_of(card("8S"))
    assert eight.score.total == 2 and eight.count == 16
    assert [(r.rank.word, r.score.total, r.cards) for r in eight.replies] == [("eight", 6, 1)]
    assert "pair the eight for two" in words or "pairs the eight for two" in words
    assert "sixteen, where the one eight you have not seen gives Bob a pair royal for six" in words


def test_a_pair_royal_at_twenty_one() -> None:
    # You lead the 7S, Bob pairs with the 7H; your 7C makes a pair royal for six at twenty-one, the count where any
    # ten-card makes thirty-one. The fourth seven (7D) is in your crib. Ten-cards unseen: 16 less the KD you laid
    # away and the QC starter = 14. No other reply scores at 21 but a pair of sevens (none left).
    game = seated(["7S 7C 7D KD 2S 3S", "7H 9C 4D 6C AC 8D"], ["7D KD", "AC 8D"], "QC", "0:7S 1:7H", dealer=1)
    advice, words = play_at(game)
    seven = advice.choice_of(card("7C"))
    assert seven.score.total == 6 and seven.count == 21 and seven.dangerous_count
    tens = [r for r in seven.replies if r.rank.value_in_count == 10]
    assert sum(r.cards for r in tens) == 14 and {r.score.total for r in tens} == {2}
    assert "makes a pair royal for six" in words or "make a pair royal for six" in words
    assert ("twenty-one, a count to avoid, where any of the fourteen ten-cards you have not seen gives Bob "
            "thirty-one for two") in words


def test_a_double_pair_royal() -> None:
    # Bob leads the 7H, you pair with the 7S, Bob lays the 7D: your 7C makes a double pair royal for twelve at
    # twenty-eight, and the expert lays it.
    game = seated(["7S 7C 2S 3S KD QD", "7H 7D 9C 4D AC 8D"], ["KD QD", "AC 8D"], "5C", "1:7H 0:7S 1:7D")
    advice, words = play_at(game)
    assert advice.best.card == card("7C")
    assert advice.best.score.total == 12
    assert words.startswith("The seven: it makes a double pair royal for twelve")


def test_a_run_and_a_fifteen_in_one_card() -> None:
    # You lead the 4H, Bob lays the 5S: your 6D makes 4-5-6, a run of three for three, and fifteen for two.
    # Replies at fifteen on 4, 5, 6: a 3 or a 7 makes a run of four (threes unseen: 4 less the 3D you laid away =
    # 3; sevens 4), a 4 makes a run of three with the last three cards 5, 6, 4 (fours unseen: 4C 4D 4S, 3), a six
    # a pair (6C 6H 6S, 3). A 5 scores nothing (6, 5 is no pair; 5, 6, 5 no run), nor anything else.
    game = seated(["4H 6D 9C KS 3D AD", "5S 8C 8H JC 2C 2H"], ["3D AD", "2C 2H"], "QS", "0:4H 1:5S", dealer=1)
    advice, words = play_at(game)
    six = advice.choice_of(card("6D"))
    assert six.score.total == 5
    assert {(r.rank.word, r.score.total, r.cards) for r in six.replies} == {
        ("three", 4, 3), ("seven", 4, 4), ("four", 3, 3), ("six", 2, 3)}
    assert "makes fifteen for two and a run of three for three" in words or \
        "make fifteen for two and a run of three for three" in words
    assert "any of the four sevens you have not seen gives Bob a run of four for four" in words


def test_thirty_one() -> None:
    # Bob leads the KH, you lay the 5S (fifteen), Bob lays the 6D: twenty-one, and your TC makes thirty-one for
    # two. The expert takes it.
    game = seated(["5S TC 9H 2D AC 3C", "KH 6D 8S 7S 4C 4D"], ["AC 3C", "4C 4D"], "JS", "1:KH 0:5S 1:6D")
    advice, words = play_at(game)
    assert advice.best.card == card("TC")
    assert advice.best.score.total == 2 and advice.best.count == 31
    assert words.startswith("The ten: it makes thirty-one for two.")


def test_a_five_led_leaves_a_count_to_avoid() -> None:
    # You lead, holding 5C 4S 4D 9H (laid away KD QC), starter JS: a five led leaves five, where any ten-card makes
    # fifteen. Ten-cards unseen: 16 less the KD, QC you laid away and the JS starter = 13.
    game = seated(["5C 4S 4D 9H KD QC", "AH 2H 3H 6H 7H 8H"], ["KD QC", "AH 2H"], "JS", dealer=1)
    advice, words = play_at(game)
    five = advice.choice_of(card("5C"))
    assert five.dangerous_count and five.count == 5
    assert sum(r.cards for r in five.replies if r.rank.value_in_count == 10) == 13
    assert "five, a count to avoid, where any of the thirteen ten-cards you have not seen gives Bob fifteen for two" \
        in words
    assert advice.best.card.rank is not five.card.rank


def test_a_ten_card_led_leaves_ten() -> None:
    # You lead from KD KS 2C 3C (laid away 7H 8H), starter 9S: a king leaves ten, where a five makes fifteen; all
    # four fives are unseen. A king can also be paired (KC KH, two).
    game = seated(["KD KS 2C 3C 7H 8H", "AH 2H 3H 6H 4H 9H"], ["7H 8H", "AH 2H"], "9S", dealer=1)
    advice, words = play_at(game)
    king = advice.choice_of(card("KD"))
    assert king.dangerous_count and king.count == 10
    assert ("five", 2, 4) in {(r.rank.word, r.score.total, r.cards) for r in king.replies}
    assert "ten, a count to avoid, where any of the four fives you have not seen gives Bob fifteen for two" in words


def test_twenty_one_left_by_a_five() -> None:
    # Bob leads the 9D, you lay the 2C (11), Bob the 5H (16): your 5S pairs his five for two and leaves
    # twenty-one, where any ten-card unseen gives Bob thirty-one. Ten-cards unseen: all 16 but the KS you laid
    # away = 15 (the starter is the 4C).
    game = seated(["2C 5S 8C 3D KS AS", "9D 5H 7D 6D AC AH"], ["KS AS", "AC AH"], "4C", "1:9D 0:2C 1:5H")
    advice, words = play_at(game)
    five = advice.choice_of(card("5S"))
    assert five.count == 21 and five.score.total == 2 and five.dangerous_count
    assert sum(r.cards for r in five.replies if r.rank.value_in_count == 10) == 15
    assert "twenty-one, a count to avoid, where any of the fifteen ten-cards you have not seen gives Bob " \
        "thirty-one for two" in words


def test_twenty_is_not_called_a_count_to_avoid() -> None:
    # Same position: the 8C leaves twenty-four (9, 2, 5, 8), where a seven makes thirty-one (four sevens unseen
    # to you: Bob holds the 7D, but you have not seen it); twenty-four is no count players avoid, so it is not
    # called one.
    game = seated(["2C 5S 8C 3D KS AS", "9D 5H 7D 6D AC AH"], ["KS AS", "AC AH"], "4C", "1:9D 0:2C 1:5H")
    advice, words = play_at(game)
    eight = advice.choice_of(card("8C"))
    assert eight.count == 24 and not eight.dangerous_count
    assert ("seven", 2, 4) in {(r.rank.word, r.score.total, r.cards) for r in eight.replies}
    assert "twenty-four, a count to avoid" not in words


def test_a_lead_under_five() -> None:
    # You lead from 3S 2D 8S 5D (laid away 9C 9S), starter 5S. On a two nothing makes fifteen (it would take
    # thirteen), no run or thirty-one is possible on one card: only a pair scores, with any of the three twos
    # unseen (2C 2H 2S). You hold no other two, so no pair royal is promised.
    game = seated(["3S 2D 8S 5D 9C 9S", "QS 6S 2C 6H TD AH"], ["9C 9S", "TD AH"], "5S", dealer=1)
    advice, words = play_at(game)
    two = advice.choice_of(card("2D"))
    assert [(r.rank.word, r.score.total, r.cards) for r in two.replies] == [("two", 2, 3)]
    assert not two.backed
    assert advice.best.card == card("2D")
    assert words.startswith("The two: it is a lead under five, so no card makes fifteen on it.")
    assert "pair royal" not in words


def test_a_lead_from_a_pair() -> None:
    # You lead from 4C 4D 9H KS: if Bob pairs the four, your other four makes a pair royal (4+4+4 = 12, well
    # under 31). Said because you hold the second four.
    game = seated(["4C 4D 9H KS 6C 7C", "AH 2H 3H 6H 5H 8H"], ["6C 7C", "AH 2H"], "QS", dealer=1)
    advice, words = play_at(game)
    assert advice.choice_of(card("4C")).backed
    assert words.startswith("The four: it is a lead under five, so no card makes fifteen on it; if Bob pairs it, "
                            "your other four makes a pair royal.")


def test_a_lead_at_a_count_to_avoid_from_a_pair() -> None:
    # You lead from KD KS 2C 3C (laid away 7H 8H), starter 9S: a king leaves ten, where any of the four fives
    # makes fifteen; but a king paired is answered by your other king for a pair royal. When the expert leads it
    # anyway the words say the count is one to avoid and that the other cards do worse.
    game = seated(["KD KS 2C 3C 7H 8H", "AH 2H 3H 6H 4H 9H"], ["7H 8H", "AH 2H"], "9S", dealer=1)
    advice, words = play_at(game)
    king = advice.choice_of(card("KD"))
    assert king.dangerous_count and king.count == 10 and king.backed
    assert ("five", 2, 4) in {(r.rank.word, r.score.total, r.cards) for r in king.replies}
    assert "ten, a count to avoid, where any of the four fives you have not seen gives Bob fifteen for two" in words
    if advice.best.card.rank is king.card.rank:
        assert ", but your other cards do worse; if Bob pairs it, your other king makes a pair royal." in words


def test_the_go_likely() -> None:
    # The two leaves twenty-nine: only an ace or a two fits. Unseen to you: 52 - your 6 - the starter - KH, 8D =
    # 43. Aces unseen: AC AH (AD AS are yours) = 2; twos: 2D 2H 2S = 3: five fit. Bob holds two cards: he has
    # none that fits C(38, 2) / C(43, 2) = 703 / 903 = 0.78 of the time, and then (you cannot follow with 5S or
    # 6S) the go is yours.
    advice, words = play_at(go_position())
    two = advice.best
    assert two.card == card("2C") and two.count == 29 and two.fits == 5
    assert two.go_chance == pytest.approx(703 / 903)
    assert advice.go_ours
    assert words == ("You can lay only the two. It leaves twenty-nine, where few cards fit under thirty-one, so Bob "
                     "must say go seventy-eight times in a hundred, and the go is then yours.")


def test_the_go_not_likely() -> None:
    # In the fifteen position the nine leaves nineteen, where every card fits (a ten-card makes twenty-nine), and
    # the five leaves fifteen: Bob cannot be out of cards that fit, and no go is spoken of.
    advice, words = play_at(fifteen_position())
    assert advice.choice_of(card("9C")).go_chance == 0.0
    assert "say go" not in words


def test_must_say_go() -> None:
    # Count 22 after Bob's KH and 3D and your 9C; your 8S leaves thirty: only an ace fits, and you have seen all
    # four (AD laid away, AH starter, AC AS in your hand). No card unseen fits: Bob must say go, and with nobody
    # else at the table the go is yours.
    game = seated(["9C 8S AC AS AD 5C", "KH 3D QC JC 7S 7H"], ["AD 5C", "7S 7H"], "AH", "1:KH 0:9C 1:3D")
    advice, words = play_at(game)
    eight = advice.choice_of(card("8S"))
    assert eight.count == 30 and eight.fits == 0 and eight.go_chance == 1.0
    assert advice.go_ours
    assert "thirty, where no card you have not seen fits, so Bob must say go, and the go is yours" in words


def test_the_go_point_and_no_reply_after_a_go() -> None:
    # You hold 9C 2C AC 6S (AD AS laid away); Bob KH 8D QC JC. King (10), nine (19), eight (27), your two (29):
    # Bob's queen and jack do not fit, so he says go. Your ace makes thirty and the six cannot follow: the ace
    # takes the go for one. It is not the last card (you keep the six, Bob his two), and with Bob out of this
    # series nobody can reply to it, so no count is spoken of.
    game = seated(["9C 2C AC 6S AD AS", "KH 8D QC JC 7S 7H"], ["AD AS", "7S 7H"], "3H", "1:KH 0:9C 1:8D 0:2C")
    advice, words = play_at(game)
    assert 1 in game.view(0).said_go
    assert advice.best.card == card("AC") and advice.best.last and not advice.best.final
    assert advice.opponent is None and advice.best.replies == ()
    assert words == "You can lay only the ace. It takes the go for one."


def test_the_last_card() -> None:
    # Every other card laid: your last card, the 6S, is the last of the play and takes one for it.
    game = seated(["9C 2C 6S 5S AD AS", "KH 8D QC 4C 7S 7H"], ["AD AS", "7S 7H"], "3H",
                  "1:KH 0:9C 1:8D 0:2C 1:4C 0:5S 1:QC")
    advice, words = play_at(game)
    assert advice.best.card == card("6S") and advice.best.final and advice.best.last
    assert words == "You can lay only the six. It takes one for the last card."


def test_a_card_that_wins_the_game() -> None:
    # The fifteen position with you at 119 of 121: you need two, and the five makes fifteen for two.
    game = seated(["5S 5D 9C 9H AC 2C", "KH QS 7D 8S 3C 4C"], ["AC 2C", "3C 4C"], "AH", "1:KH", scores=(119, 0))
    advice, words = play_at(game)
    assert advice.wins and advice.need == 2
    assert words == "The five wins the game: it makes fifteen for two, and you need two."


def test_playing_to_the_board_in_the_play() -> None:
    # You have 105, Bob 110 of 121: you need sixteen, Bob eleven, both within thirty of the end, so the expert
    # weighs each card by its chance of winning (in hundredths) instead of its points, and the words say so.
    game = seated(["5S 5D 9C 9H AC 2C", "KH QS 7D 8S 3C 4C"], ["AC 2C", "3C 4C"], "AH", "1:KH", scores=(105, 110))
    advice, words = play_at(game)
    assert advice.board and (advice.need, advice.opponent_need) == (16, 11)
    assert all(0.0 <= c.value <= 100.0 for c in advice.choices)
    best = in_words(round(advice.best.value))
    assert words.startswith(f"You need sixteen to win, and Bob eleven. Playing to the board, the "
                            f"{advice.best.card.rank.word} gives you the best chance: about {best} in a hundred.")


def test_no_board_early_in_the_game() -> None:
    # At nought all the board is far away: values are points, and the words do not speak of the board.
    advice, words = play_at(fifteen_position())
    assert not advice.board and "board" not in words


def test_three_players_count_the_cards_of_three_hands() -> None:
    # Three players, five cards each and one laid away, Carol deals (and a card from the deck goes to the crib):
    # you lead from 5C 5H KD KS (laid away QC). Unseen to you: 52 - your 5 - the starter JS = 46; ten-cards:
    # 16 less QC, KD, KS and JS = 12, each of which makes fifteen on a five led; Bob lays next.
    rules = Rules(players=3)
    game = seated(["5C 5H KD KS QC", "AH 2H 3H 6H 7H", "AD 2D 3D 6D 7D"], ["QC", "AH", "AD"], "JS", dealer=2,
                  rules=rules)
    advice, words = play_at(game)
    five = advice.choice_of(card("5C"))
    assert advice.unseen == 46 and advice.opponent == 1
    assert sum(r.cards for r in five.replies if r.rank.value_in_count == 10) == 12
    assert "five, a count to avoid, where any of the twelve ten-cards you have not seen gives Bob fifteen for " \
        "two" in words


def test_a_count_to_avoid_is_not_said_to_be_the_least_bad_when_another_card_is_as_good() -> None:
    # Leading a ten-card leaves ten, a count to avoid; "your other cards do worse" is true only when every other
    # card the player may lead gives up more than a tenth of a point. Hands are dealt until the coach's lead is a
    # ten-card with another card as good, and one with every other card worse.
    from audiocrib import Game
    from audiocrib.coach import Coach, PlayAdvice
    from audiocrib.engine.actions import Discard
    from audiocrib.telling.coaching import play_words
    from audiocrib.telling.listener import SeatNames

    seen = {True: 0, False: 0}
    for seed in range(400):
        game = Game(seed=seed)
        for seat in (0, 1):
            game.apply(Discard(seat, game.view(seat).hand[:2]))
        view = game.view(game.turn)
        advice = Coach().advise(view)
        assert isinstance(advice, PlayAdvice)
        if not (advice.best.dangerous_count and advice.best.count == 10 and len(advice.choices) > 1):
            continue
        words = play_words(advice, SeatNames(view.names, view.rules, view.seat))
        tie = any(c.loss < 0.1 for c in advice.choices[1:])
        assert ("your other cards do worse" in words) is not tie, words
        seen[tie] += 1
        if all(seen.values()):
            break
    assert all(seen.values()), seen
