"""Crib values from audiocrib's own scorer: the shipped table is what the command computes, and it is sensible
beside the published tables (reference-figures.md: Hessel's dealer / pone figures)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from audiocrib import DECK, Card, parse_cards
from audiocrib.bots.crib import crib_average, crib_class, crib_table, crib_value

# reference-figures.md, "Crib values of a discard": (dealer's table, pone's table) from Hessel.
HESSEL = {"5-5": (8.95, 9.39), "5-J": (7.04, 7.75), "2-3": (6.97, 7.34), "T-K": (2.86, 3.99)}


def test_the_table_has_every_class_once() -> None:
    table = crib_table()
    assert len(table) == 13 + 78 * 2
    assert all(2.0 < value < 10.0 for value in table.values())


@pytest.mark.parametrize("cards", ["5H 5S", "TD KC", "JH 5H", "AC 2C"])
def test_shipped_values_are_the_exact_average(cards: str) -> None:
    discards = parse_cards(cards)
    assert crib_value(discards) == pytest.approx(crib_average(discards), abs=1e-6)


@pytest.mark.parametrize(("key", "published"), list(HESSEL.items()))
def test_values_land_near_the_published_tables(key: str, published: tuple[float, float]) -> None:
    """Random other crib cards sit between a sharp dealer's crib and a pone's junk: within 0.6 of the range."""
    value = crib_table()[key]
    low, high = min(published), max(published)
    assert low - 0.6 <= value <= high + 0.6


def test_fives_are_best_and_ten_king_worst() -> None:
    table = crib_table()
    assert max(table, key=table.__getitem__) == "5-5"
    assert min(table, key=table.__getitem__) == "T-K"
    assert crib_class(parse_cards("KH 5H")) == "5-K s"


def test_discards_command() -> None:
    run = [sys.executable, "-m", "audiocrib", "discards", "5H", "5S", "5C", "JD", "4H", "6C"]
    dealer = subprocess.run([*run, "--dealer", "--json"], capture_output=True, text=True, timeout=60, check=True)
    pone = subprocess.run([*run, "--pone", "--json"], capture_output=True, text=True, timeout=60, check=True)
    best_dealer = json.loads(dealer.stdout)["options"][0]
    best_pone = json.loads(pone.stdout)["options"][0]
    assert len(json.loads(dealer.stdout)["options"]) == 15
    assert best_pone["discard"] == ["4H", "6C"]  # keep the 5-5-5-J, give the opponent little
    assert "JD" in best_dealer["discard"]  # a five and the jack to your own crib
    assert best_dealer["net"] == pytest.approx(best_dealer["expected_hand"] + best_dealer["expected_crib"], abs=1e-3)
    text = subprocess.run([*run, "--pone"], capture_output=True, text=True, timeout=60, check=True).stdout
    assert text.splitlines()[0] == "lay away 4H 6C, keep 5C 5H 5S JD: hand 16.65, crib -4.96, net 11.69"
    missing = subprocess.run(run, capture_output=True, text=True, timeout=60)
    assert missing.returncode == 2
    assert missing.stderr == "audiocrib: Say whose crib it is: --dealer for yours, --pone for your opponent's.\n"


@pytest.mark.parametrize(("rank", "size"), [("5", 4), ("K", 4), ("5", 5), ("K", 5), ("A", 5)])
def test_one_card_values_agree_with_fresh_sampling(rank: str, size: int) -> None:
    """A one-card value against 20,000 random cribs drawn here with a seed of our own: within four standard errors."""
    import random
    import statistics

    from audiocrib.bots.discards import hand_points

    card = Card.parse(rank + "D")
    rest = [c for c in DECK if c != card]
    rng = random.Random(f"{rank}{size}")
    counts = []
    for _ in range(20_000):
        *others, starter = rng.sample(rest, size)
        counts.append(hand_points((card, *others), starter, crib=True))
    error = statistics.stdev(counts) / len(counts) ** 0.5
    assert abs(statistics.fmean(counts) - crib_value((card,), crib_size=size)) < 4 * error


def test_discards_command_for_one_card() -> None:
    run = [sys.executable, "-m", "audiocrib", "discards", "5H", "5S", "KC", "JD", "4H", "6C", "--lay", "1", "--pone"]
    six = json.loads(subprocess.run([*run, "--json"], capture_output=True, text=True, timeout=60, check=True).stdout)
    king = next(o for o in six["options"] if o["discard"] == ["KC"])
    assert king["expected_crib"] == pytest.approx(crib_value(parse_cards("KC"), crib_size=5), abs=1e-4)
    seven = subprocess.run([*run, "--json", "--crib-cards", "4"], capture_output=True, text=True, timeout=60,
                           check=True)  # seven-card with four players: six dealt, one laid away, a crib of four
    king = next(o for o in json.loads(seven.stdout)["options"] if o["discard"] == ["KC"])
    assert king["expected_crib"] == pytest.approx(crib_value(parse_cards("KC")), abs=1e-4)
    five = [*run[:4], "5H", "5S", "KC", "JD", "4H", "--lay", "1", "--pone", "--json"]
    four = json.loads(subprocess.run(five, capture_output=True, text=True, timeout=60, check=True).stdout)
    king = next(o for o in four["options"] if o["discard"] == ["KC"])
    assert king["expected_crib"] == pytest.approx(crib_value(parse_cards("KC")), abs=1e-4)
    assert king["net"] == pytest.approx(king["expected_hand"] - king["expected_crib"], abs=1e-3)
