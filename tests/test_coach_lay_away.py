"""The coach's reasons at the lay-away, against hands worked out by hand, and every sentence read as a listener
hears it.

Each test deals a hand (or stacks a game at its lay-away, `tests.coach_positions`), works the facts out by hand in
its comment (what the keep holds, its expected hand, what a flush or a jack adds, the crib's side, the starters
that make a hand go out), and checks the coach's facts and the words a player hears: each reason is said when it
is true of the hand, and not when it is not. The play's reasons are in tests/test_coach_reasons.py.
"""

from __future__ import annotations

import pytest

from audiocrib.coach import LayAwayAdvice, lay_away_facts
from audiocrib.engine.cards import parse_cards
from audiocrib.engine.game import Game
from audiocrib.engine.rules import Rules, Variant
from audiocrib.telling.coaching import lay_away_words
from tests.coach_positions import (
    NAMES,
    S2,
    advised,
    ascii_sentences,
    card,
    fifteen_position,
    in_words,
    lay_away,
    play_at,
    seated,
)
from tests.helpers import stacked


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
                            "quarters on average, the most of any keep. It holds fourteen before the starter: four "
                            "fifteens and a pair royal.")
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
    assert "It holds twelve before the starter: four fifteens and two pairs." in words
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
    assert "It holds twelve before the starter: two fifteens and a double run of three." in words


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
    assert ("Keeping the three, four, six and seven is worth more in the hand, three and a quarter, but the keep "
            "advised gives Bob's crib less.") in words


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
    assert "It holds three before the starter: a run of three." in words
    assert "The two aces are worth about five and a half in your crib, the most of any choice." in words
    assert "but the keep advised puts more in your crib." in words


def test_playing_to_the_board_at_the_lay_away_sure() -> None:
    # You have 113 of 121, Bob deals: eight to win, about two from the play, so the hand must make six. 4C 5H 6S TD
    # holds 4+5+6 and 5+T (two fifteens, 4) and the run 4-5-6 (3): 7, six or more with any starter.
    game = stacked(["5H TD 4C 6S KC 2D", "AS 2S 3S 7S 8S 9S"], dealer=1, scores=(113, 0), names=NAMES[:2])
    _, advice, words = advised(game)
    assert isinstance(advice, LayAwayAdvice)
    assert advice.need == 6 and advice.to_win == 8
    assert advice.best.chance == 1.0
    assert advice.best.holds.total >= 6
    assert words.startswith("You need eight to win. Keep the four, five, six and ten, and lay away the two and king: "
                            "with about two from the play, your hand makes the six left with any starter. It is "
                            "chosen for its chance of counting out, weighed against its points.")


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
    assert f"with {in_words(round(made / 46 * 100))} in a hundred starters" in words
    assert "your hand and crib make the twelve left" in words
    # The next best are said by their chance and their net: the chance is weighed against the points.
    nexts = words[words.index("Next best: "):]
    assert nexts.count("which makes it with") == 2 and nexts.count(", net ") == 2


def test_playing_to_the_board_in_a_drill() -> None:
    # A hand dealt outside a game (the discard drills) with six to make from the hand: 4C 5H 6S TD holds 4+5+6 and
    # 5+T (two fifteens, 4) and the run 4-5-6 (3): 7, six or more with any starter. Without a game's score the
    # words speak of the hand's need alone.
    advice = lay_away_facts(parse_cards("5H TD 4C 6S KC 2D"), discard=2, my_crib=False, crib_size=4, need=6)
    words = lay_away_words(advice, S2, dealer=1)
    assert advice.best.chance == 1.0 and advice.to_win is None
    assert words.startswith("You need six from your hand. Keep ")
    assert ": your hand makes it with any starter." in words


def test_the_board_out_of_reach() -> None:
    # You have 90 of 121: thirty-one to win, twenty-nine from the hand, which only 5 5 5 J with the fourth five
    # of the jack's suit makes. 2C 4D 8H 9S KC QD cannot, so the coach says so and keeps for points.
    game = stacked(["2C 4D 8H 9S KC QD", "AS 2S 3S 4S 6S 9D"], dealer=1, scores=(90, 0), names=NAMES[:2])
    _, advice, words = advised(game)
    assert isinstance(advice, LayAwayAdvice)
    assert not any(c.chance for c in advice.everything)
    assert words.startswith("You need thirty-one to win, more than this hand can make with any starter, so keep "
                            "for points. Keep ")


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
    # docs/coach.md quotes the advice in four positions of these tests; each quote must be what the coach says there
    # now (the start of it, where the page stops early), so the page cannot drift from the game.
    from pathlib import Path

    page = (Path(__file__).parent.parent / "docs" / "coach.md").read_text(encoding="utf-8")
    page = page.split("## Reviews and progress")[0]  # the advice's sections; the reviews quote their own words
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
        play_at(fifteen_position())[1],
        play_at(seated(["5S 5D 9C 9H AC 2C", "KH QS 7D 8S 3C 4C"], ["AC 2C", "3C 4C"], "AH", "1:KH",
                       scores=(105, 110)))[1],
    ]
    assert len(quotes) == len(said)
    for quote, words in zip(quotes, said, strict=True):
        assert words.startswith(quote), (quote, words)


def test_the_next_best_are_less_in_the_quarters_their_nets_are_said_in() -> None:
    # AD 5C 6H 8S 9S TD, your crib: the best nets 13.0 (said "thirteen"), the next 12.7 ("twelve and three
    # quarters") and 12.2 ("twelve and a quarter"). Heard once, thirteen less twelve and three quarters is a
    # quarter, so the difference is said so, not as "three tenths".
    advice, words = lay_away("AD 5C 6H 8S 9S TD", dealer=True)
    nets = [round(c.net * 4) / 4 for c in advice.choices]
    assert nets == [13.0, 12.75, 12.25]
    assert "Net: thirteen." in words
    assert "net twelve and three quarters, a quarter of a point less" in words
    assert "net twelve and a quarter, three quarters of a point less" in words
    assert "tenth" not in words


def test_a_card_laid_away_is_named_with_its_suit_when_another_of_its_rank_is_kept() -> None:
    # AH 4C 4H 5H QH QS, Bob's crib: keeping A 4 5 Q of hearts (a flush) lays away a four and a queen, but you
    # hold two of each: "the four and queen" would not say which to mark.
    advice, words = lay_away("AH 4C 4H 5H QH QS", dealer=False)
    assert set(advice.best.discard) == set(parse_cards("4C QS"))
    assert "and lay away the four of clubs and the queen of spades:" in words
