"""The coach's reasons against positions worked out by hand.

Each test sets up a real position (a dealt hand, or a game stacked and played to a point of the play with
`tests.helpers`), works the facts out by hand in its comment (the expected hand, the replies counted, the chance
of a go), and checks the coach's facts and the words a player hears: each kind of reason is said when it is true
of the position, and not when it is not. In the play "unseen" means the cards the seat has not seen: the deck less
its own six dealt, the starter and the cards laid.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from audiocrib.coach import Coach, LayAwayAdvice, PlayAdvice, lay_away_facts
from audiocrib.engine.cards import Card, parse_cards
from audiocrib.engine.game import Game
from audiocrib.engine.rules import Rules, Variant
from audiocrib.engine.views import PlayerView
from audiocrib.telling.coaching import lay_away_words, play_words
from audiocrib.telling.listener import SeatNames
from tests.helpers import plays, stacked, start_play

NAMES = ("You", "Bob", "Carol", "Dave")
S2 = SeatNames(NAMES[:2], Rules(), 0)


def lay_away(hand: str, dealer: bool) -> tuple[LayAwayAdvice, str]:
    """The advice for a six-card hand dealt to a two-player game, and its words (Bob deals when you do not)."""
    advice = lay_away_facts(parse_cards(hand), discard=2, my_crib=dealer, crib_size=4)
    return advice, lay_away_words(advice, S2, dealer=0 if dealer else 1)


def seated(hands: Sequence[str], discards: Sequence[str], starter: str, moves: str = "", dealer: int = 0,
           scores: Sequence[int] = (), rules: Rules | None = None) -> Game:
    """A stacked game at the play: hands dealt, laid away, the starter cut, and ``moves`` laid."""
    rules = rules or Rules(players=len(hands))
    game = start_play(stacked(hands, dealer=dealer, rules=rules, scores=scores, names=NAMES[:rules.players]),
                      discards, starter)
    if moves:
        plays(game, moves)
    return game


def advised(game: Game, seat: int = 0) -> tuple[PlayerView, PlayAdvice | LayAwayAdvice, str]:
    """The coach's advice at ``seat``'s decision, and the words it says there."""
    view = game.view(seat)
    advice = Coach().advise(view)
    assert advice is not None
    names = SeatNames(view.names, view.rules, view.seat)
    if isinstance(advice, LayAwayAdvice):
        return view, advice, lay_away_words(advice, names, view.dealer)
    return view, advice, play_words(advice, names)


def play_at(game: Game, seat: int = 0) -> tuple[PlayAdvice, str]:
    _, advice, words = advised(game, seat)
    assert isinstance(advice, PlayAdvice)
    return advice, words


def card(text: str) -> Card:
    return Card.parse(text)


def ascii_sentences(words: str) -> None:
    """Read aloud well: plain ASCII, no digits or symbols a screen reader would spell out."""
    assert words.isascii() and not any(ch.isdigit() for ch in words), words
    assert not set(words) & set("()[]/&%*#@<>|"), words


# ============================================================================================ the lay-away
def test_fifteens_and_a_pair_royal_kept() -> None:
    # 5H 5S 5C JD 4H 6C, Bob's crib. Keeping the three fives and the jack holds 14 before the starter: 5+5+5 and
    # each 5+J (four fifteens, 8) and the pair royal (6). Over the 46 starters not in the hand:
    #   a ten, queen or king (12 cards): three more 5+X fifteens, 20 each = 240
    #   a jack (3 left): three more fifteens and a pair, 22 each = 66
    #   the last five (5D): double pair royal 12 + four 5+5+5 fifteens 8 + four 5+J fifteens 8 = 28, and nobs = 29
    #   every other card (30 of them): 14 each = 420
    #   nobs with the other 11 diamonds: 11
    # 240 + 66 + 29 + 420 + 11 = 766; 766 / 46 = 16.652, said to the nearest quarter.
    advice, words = lay_away("5H 5S 5C JD 4H 6C", dealer=False)
    best = advice.best
    assert set(best.keep) == set(parse_cards("5H 5S 5C JD"))
    assert best.holds.total == 14
    assert best.expected_hand == pytest.approx(766 / 46)
    assert best.most_hand
    assert words.startswith("Keep the three fives and the jack, and lay away the four and six: sixteen and three "
                            "quarters on average, the most of any keep. It holds fourteen before the starter.")
    ascii_sentences(words)


def test_nobs_for_a_jack_kept() -> None:
    # Same hand: the jack of diamonds kept scores one for nobs with a diamond starter. Diamonds unseen: 13 less
    # the JD = 12 of the 46 starters, so nobs brings 12/46 = 0.26 of the expected hand.
    advice, words = lay_away("5H 5S 5C JD 4H 6C", dealer=False)
    assert advice.best.jacks == (card("JD"),)
    assert advice.best.nobs == pytest.approx(12 / 46)
    assert "The jack scores one more for nobs if a diamond is cut." in words


def test_nobs_for_two_jacks() -> None:
    # JH JC 5S 5D 2C 9S, Bob's crib: keeping the two fives and the two jacks holds four fifteens (each 5+J, 8) and
    # two pairs (4): 12. Each jack scores nobs with a starter of its suit: hearts unseen 13 - JH = 12, clubs
    # 13 - JC - 2C = 11, so nobs brings (12 + 11) / 46 = 0.5 on average, said once for both jacks.
    advice, words = lay_away("JH JC 5S 5D 2C 9S", dealer=False)
    assert set(advice.best.keep) == set(parse_cards("JH JC 5S 5D"))
    assert advice.best.holds.total == 12
    assert advice.best.nobs == pytest.approx(23 / 46)
    assert "The jacks score one more for nobs if a club or a heart is cut." in words


def test_no_nobs_when_the_jack_is_laid_away() -> None:
    # 4C 5D 6S 6H JH KS, my crib: keeping 4 5 6 6 holds a double run of three (6) and its pair (2) and two
    # fifteens 4+5+6 (4): 12, far above any keep with the jack; the jack and king go to the crib, so no jack is
    # kept and nobs is not said.
    advice, words = lay_away("4C 5D 6S 6H JH KS", dealer=True)
    assert set(advice.best.keep) == set(parse_cards("4C 5D 6S 6H"))
    assert advice.best.holds.total == 12
    assert advice.best.jacks == () and advice.best.nobs == 0.0
    assert "nobs" not in words
    assert "It holds twelve before the starter." in words


def test_a_flush_kept_and_what_the_cut_adds() -> None:
    # AH 3H 7H JH 9C KS, Bob's crib. Kept, the four hearts make no fifteen (A3 4, A7 8, AJ 11, 37 10, 3J 13, 7J 17,
    # A37 11, A3J 14, A7J 18, 37J 20, all four 21), no pair, no run, but a flush: four points, five with a heart
    # starter. Hearts unseen:
    # 13 - 4 = 9 of 46, so the flush brings 4 + 9/46 = 4.196 on average, and the jack one more for nobs with
    # those 9 hearts too (9/46).
    advice, words = lay_away("AH 3H 7H JH 9C KS", dealer=False)
    best = advice.best
    assert set(best.keep) == set(parse_cards("AH 3H 7H JH"))
    assert best.flush == pytest.approx(4 + 9 / 46)
    assert best.nobs == pytest.approx(9 / 46)
    assert "Its four hearts are a flush, four points, five if a heart is cut." in words
    assert "The jack scores one more for nobs if a heart is cut." in words


def test_a_flush_of_five_in_the_seven_card_game() -> None:
    # Seven-card game, seven dealt, two laid away, five kept: 2H 4H 6H 8H QH kept from 2H 4H 6H 8H QH KC KS
    # would be a flush of five (5, six with a heart: 13 - 5 = 8 hearts in the 45 starters): 5 + 8/45. No cards of
    # 2, 4, 6, 8, Q make fifteen (every value is even, fifteen is odd), no pair, no run: the flush is all it
    # holds, five, and it is the expert's keep (the two kings go to Bob's crib).
    cards = parse_cards("2H 4H 6H 8H QH KC KS")
    advice = lay_away_facts(cards, discard=2, my_crib=False, crib_size=4)
    flush = advice.choice_of(parse_cards("KC KS"))
    assert flush.flush == pytest.approx(5 + 8 / 45)
    assert flush.holds.total == 5
    assert advice.best is flush
    assert "Its five hearts are a flush, five points, six if a heart is cut." in lay_away_words(advice, S2, 1)


def test_no_flush_said_without_one() -> None:
    # The three fives and the jack are of three suits: no flush can be kept, so none is said.
    advice, words = lay_away("5H 5S 5C JD 4H 6C", dealer=False)
    assert advice.best.flush == 0.0
    assert "flush" not in words


def test_the_crib_side_gives_the_pone_a_smaller_hand() -> None:
    # 3S 6S 7C KD JD 4S, Bob's crib (a deal from a real game, seed 1). Keeping 3 4 6 7 holds no points before the
    # starter (3+4+... no sum of 15, no pair, no run of three) but more on average than 3 4 6 J: a 5 starter
    # makes the run 3-4-5-6-7 (5) and 4+5+6 and 3+5+7 fifteens. Yet it lays the jack and king away, and a jack
    # in Bob's crib scores for him (15s with every five, nobs): the seven and king give his crib less.
    advice, words = lay_away("3S 6S 7C KD JD 4S", dealer=False)
    best = advice.best
    bigger = max(advice.everything, key=lambda c: c.expected_hand)
    assert set(best.discard) == set(parse_cards("7C KD"))
    assert set(bigger.keep) == set(parse_cards("3S 4S 6S 7C"))
    assert bigger.expected_hand > best.expected_hand and bigger.expected_crib > best.expected_crib
    assert best.net == pytest.approx(best.expected_hand - best.expected_crib)
    assert best.best_crib and not best.most_hand
    assert "The seven and king give Bob's crib about three and a half, as little as any choice." in words
    assert "Keeping the three, four, six and seven holds more, three and a quarter, but this gives the crib less." \
        in words


def test_the_crib_side_for_the_dealer() -> None:
    # QS 8S AD TD AS JS, my crib. Keeping 8 T J Q holds the run T-J-Q (3) before the starter (8 is not next to
    # T, and no two or three of 8, 10, 10, 10 make fifteen). Keeping A 8 J Q holds more on average, but lays an
    # ace and a ten away; the two aces are worth more in one's own crib (a pair already, and fifteens with any
    # four and ten, or six and eight, that join them there): the crib's side decides.
    advice, words = lay_away("QS 8S AD TD AS JS", dealer=True)
    best = advice.best
    assert set(best.discard) == set(parse_cards("AD AS"))
    assert best.holds.total == 3
    assert best.net == pytest.approx(best.expected_hand + best.expected_crib)
    assert best.best_crib and not best.most_hand
    assert best.expected_crib == max(c.expected_crib for c in advice.everything)
    assert "It holds three before the starter." in words
    assert "The two aces are worth about five and a half in your crib, the most of any choice." in words
    assert "but this puts more in your side's crib." in words


def test_playing_to_the_board_at_the_lay_away_sure() -> None:
    # You have 113 of 121, Bob deals: eight to win, about two from the play, so the hand must make six. 4C 5H 6S TD
    # holds 4+5+6 and 5+T (two fifteens, 4) and the run 4-5-6 (3): 7, six or more with any starter.
    game = stacked(["5H TD 4C 6S KC 2D", "AS 2S 3S 7S 8S 9S"], dealer=1, scores=(113, 0), names=NAMES[:2])
    _, advice, words = advised(game)
    assert isinstance(advice, LayAwayAdvice)
    assert advice.need == 6 and advice.to_win == 8
    assert advice.best.chance == 1.0
    assert advice.best.holds.total >= 6
    assert words.startswith("You need eight to win: keep the cards most likely to count out.")
    assert "With about two from the play, your hand makes six with any starter." in words


def test_playing_to_the_board_at_the_lay_away_by_the_starters() -> None:
    # You have 107 of 121 and deal: fourteen to win, about two from the play, so hand and crib must make twelve.
    # AH 2D 7C 8S QH KC: no keep holds twelve before the starter, so some starters make it and some do not; the
    # chance said is the share of the 46 starters with which the hand, with the crib's average added, gets there,
    # counted here starter by starter.
    from audiocrib.bots.discards import hand_points
    from audiocrib.engine.cards import DECK

    hand = "AH 2D 7C 8S QH KC"
    game = stacked([hand, "AS 2S 3S 4S 6S 9S"], dealer=0, scores=(107, 0), names=NAMES[:2])
    _, advice, words = advised(game)
    assert isinstance(advice, LayAwayAdvice)
    best = advice.best
    starters = [c for c in DECK if c not in parse_cards(hand)]
    made = sum(1 for s in starters if hand_points(best.keep, s) + best.expected_crib >= 12)
    assert best.chance == pytest.approx(made / 46)
    assert 0 < made < 46
    assert f"with {_words(round(made / 46 * 100))} in a hundred starters" in words
    assert "your hand and crib make twelve" in words
    # The next best are said by their chance too, not by points, since the chance decides here.
    nexts = words[words.index("Next best: "):]
    assert "net" not in nexts and nexts.count("starter") == 2


def test_the_board_out_of_reach() -> None:
    # You have 90 of 121: thirty-one to win, twenty-nine from the hand, which only 5 5 5 J with the fourth five
    # of the jack's suit makes. 2C 4D 8H 9S KC QD cannot, so the coach says so and keeps for points.
    game = stacked(["2C 4D 8H 9S KC QD", "AS 2S 3S 4S 6S 9D"], dealer=1, scores=(90, 0), names=NAMES[:2])
    _, advice, words = advised(game)
    assert isinstance(advice, LayAwayAdvice)
    assert not any(c.chance for c in advice.everything)
    assert words.startswith("You need thirty-one to win, more than this hand can make with any starter, so keep "
                            "for points. Keep ")


def _words(n: int) -> str:
    from audiocrib.engine.numbers import number_words

    return number_words(n)


# ============================================================================================ the play
def _fifteen_position() -> Game:
    # You deal: you keep 5S 5D 9C 9H, Bob keeps KH QS 7D 8S and leads the king. Starter AH.
    return seated(["5S 5D 9C 9H AC 2C", "KH QS 7D 8S 3C 4C"], ["AC 2C", "3C 4C"], "AH", "1:KH")


def test_fifteen() -> None:
    # At ten a five makes fifteen for two. Unseen: 52 less your six, the starter and the king = 44. On fifteen
    # (K, 5) only a five scores, a pair (5H and 5C unseen: two); nothing makes fifteen again or a run (K, 5, x).
    advice, words = play_at(_fifteen_position())
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
    advice, words = play_at(_fifteen_position())
    nine = advice.choice_of(card("9C"))
    assert [(r.rank.word, r.score.total, r.cards) for r in nine.replies] == [("nine", 2, 2)]
    assert nine.loss > 0.1
    assert (f"The nine is {_loss(nine.loss)} worse: it would leave nineteen, where either of the two nines you "
            "have not seen gives Bob a pair for two.") in words


def _loss(points: float) -> str:
    from audiocrib.telling.coaching import loss_words

    return loss_words(points)


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


def _go_position() -> Game:
    # You deal: you keep 9C 2C 5S 6S (AD AS laid away), Bob keeps KH 8D QC JC (7S 7H), starter 3H. Bob leads the
    # king, you lay the nine (19), Bob the eight (27): your turn, and only the two fits.
    return seated(["9C 2C 5S 6S AD AS", "KH 8D QC JC 7S 7H"], ["AD AS", "7S 7H"], "3H", "1:KH 0:9C 1:8D")


def test_the_go_likely() -> None:
    # The two leaves twenty-nine: only an ace or a two fits. Unseen to you: 52 - your 6 - the starter - KH, 8D =
    # 43. Aces unseen: AC AH (AD AS are yours) = 2; twos: 2D 2H 2S = 3: five fit. Bob holds two cards: he has
    # none that fits C(38, 2) / C(43, 2) = 703 / 903 = 0.78 of the time, and then (you cannot follow with 5S or
    # 6S) the go is yours.
    advice, words = play_at(_go_position())
    two = advice.best
    assert two.card == card("2C") and two.count == 29 and two.fits == 5
    assert two.go_chance == pytest.approx(703 / 903)
    assert advice.go_ours
    assert words == ("You can lay only the two. It leaves twenty-nine, where few cards fit under thirty-one, so Bob "
                     "must say go seventy-eight times in a hundred, and the go is then yours.")


def test_the_go_not_likely() -> None:
    # In the fifteen position the nine leaves nineteen, where every card fits (a ten-card makes twenty-nine), and
    # the five leaves fifteen: Bob cannot be out of cards that fit, and no go is spoken of.
    advice, words = play_at(_fifteen_position())
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
    best = number(round(advice.best.value))
    assert words.startswith(f"You need sixteen to win, and Bob eleven. Playing to the board, the "
                            f"{advice.best.card.rank.word} gives you the best chance: about {best} in a hundred.")


def test_no_board_early_in_the_game() -> None:
    # At nought all the board is far away: values are points, and the words do not speak of the board.
    advice, words = play_at(_fifteen_position())
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


def number(n: int) -> str:
    return _words(n)


@pytest.mark.parametrize("rules", [Rules(), Rules(players=4, team_size=2), Rules(variant=Variant.SEVEN_CARD)],
                         ids=["two", "teams", "seven-card"])
def test_every_sentence_reads_aloud(rules: Rules) -> None:
    # A whole game of advice for seat 0 (the computer players' moves): plain ASCII, numbers in words, no brackets
    # or symbols, and never longer than a player can take in at once.
    from audiocrib.bots.medium import Medium
    from audiocrib.bots.player import next_action

    game = Game(rules.__class__(players=rules.players, team_size=rules.team_size, variant=rules.variant,
                                target=61), names=NAMES[:rules.players], seed=11)
    bots = [Medium(seed=seat) for seat in range(rules.players)]
    heard = 0
    while not game.over:
        seat = min(game.waiting_for())
        if seat == 0 and (game.view(0).must_discard or game.view(0).playable):
            _, _, words = advised(game)
            ascii_sentences(words)
            assert len(words) < 800, words
            heard += 1
        game.apply(next_action(game, seat, bots[seat]))
    assert heard > 10


def test_the_words_quoted_in_coach_md_are_the_coachs() -> None:
    # docs/coach.md quotes the advice in four positions of this file; each quote must be what the coach says there
    # now (the start of it, where the page stops early), so the page cannot drift from the game.
    from pathlib import Path

    page = (Path(__file__).parent.parent / "docs" / "coach.md").read_text(encoding="utf-8")
    quotes, block = [], []
    for line in [*page.splitlines(), ""]:
        if line.startswith("> "):
            block.append(line[2:])
        elif block:
            quotes.append(" ".join(block))
            block = []
    said = [
        lay_away("5H 5S 5C JD 4H 6C", dealer=False)[1],
        advised(stacked(["5H TD 4C 6S KC 2D", "AS 2S 3S 7S 8S 9S"], dealer=1, scores=(113, 0),
                        names=NAMES[:2]))[2],
        play_at(_fifteen_position())[1],
        play_at(seated(["5S 5D 9C 9H AC 2C", "KH QS 7D 8S 3C 4C"], ["AC 2C", "3C 4C"], "AH", "1:KH",
                       scores=(105, 110)))[1],
    ]
    assert len(quotes) == len(said)
    for quote, words in zip(quotes, said, strict=True):
        assert words.startswith(quote), (quote, words)
