"""The statistics as the player hears them: skunks each way, and a lurch counted as the single skunk it is."""

from __future__ import annotations

from audiocrib.progress.statistics import Statistics, Tally


def test_a_lurch_is_a_skunk_not_a_double_and_the_words_say_who_was_skunked() -> None:
    tally = Tally()
    tally.add(False, "lurch")  # lost 30 to 61
    tally.add(True, "double skunk")
    tally.add(True, "skunk")
    tally.add(True, "")
    assert (tally.skunked, tally.doubled, tally.skunks_given, tally.doubles_given) == (1, 0, 2, 1)
    heard = Statistics(total=tally).summary()[0]
    assert heard == ("Four games finished; you won three, seventy-five percent. You skunked your opponents twice "
                     "(once a double skunk), and you were skunked once.")
    assert Statistics(total=Tally(games=1, wins=1)).summary()[0].endswith(
        "You never skunked your opponents, and you were never skunked.")
