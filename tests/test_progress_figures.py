"""Progress over time: the deals' costs kept by day, said week by week from the date given, kept in
``progress.json`` and a damaged or hostile copy of it set aside with one sentence."""

from __future__ import annotations

import json
import os
import re
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest

from audiocrib.progress.improving import KEPT_DAYS, DealCost, Progress
from audiocrib.shell.progressbook import PROGRESS_FILE, ProgressBook
from audiocrib.telling.reviewing import progress_words, tenths
from tests.test_file_fuzz import BIG, COMMON, PLACED, REASON, _edit, _start

TODAY = date(2026, 11, 27)


def _said(progress: Progress, today: date = TODAY) -> list[str]:
    figures = [(kind, [(f.period, f.deals, f.average) for f in progress.figures(kind, today)])
               for kind in ("lay_away", "play")]
    return progress_words(figures)


def test_the_weekly_figures_come_from_the_dated_deals_and_read_in_words() -> None:
    progress = Progress()
    # this week (today and six days back): lay-aways 0.5 and 1.1, average 0.8; plays 0.25 and 0.35: 0.3
    for days, lay, play in ((0, 0.5, 0.25), (6, 1.1, 0.35),
                            # last week: nothing; the month before (14 to 44 days back): 1.0, 1.6: average 1.3
                            (14, 1.0, None), (44, 1.6, None),
                            # too old to be said (45 days)
                            (45, 9.0, 9.0)):
        progress.add(DealCost(TODAY - timedelta(days=days), lay, play))
    assert _said(progress) == [
        "Your lay-aways cost eight tenths of a point a deal this week, over two deals; one and three tenths the "
        "month before, over two.",
        "Your plays cost three tenths of a point a deal this week, over two deals.",
    ]
    # a week later the same deals are last week's and the month before's
    assert _said(progress, TODAY + timedelta(days=7))[1] == (
        "Your plays cost three tenths of a point a deal last week, over two deals; none weighed this week yet.")
    # a deal dated after today (a clock set wrong) is in no period until its day comes
    progress.add(DealCost(TODAY + timedelta(days=1), 9.0, 9.0))
    assert _said(progress)[0].startswith("Your lay-aways cost eight tenths of a point a deal this week, over two")


def test_no_deals_or_only_old_ones_have_their_own_sentence() -> None:
    nothing = ["The coach has weighed no deal of yours in the last six weeks: your progress is told from the deals "
               "you play."]
    assert _said(Progress()) == nothing
    old = Progress()
    old.add(DealCost(TODAY - timedelta(days=60), 1.0, 1.0))
    assert _said(old) == nothing
    laid_only = Progress()
    laid_only.add(DealCost(TODAY, 0.0, None))  # every card weighed by the chance of winning: no play figure
    assert _said(laid_only) == ["Your lay-aways cost less than a tenth of a point a deal this week, over one deal."]


@pytest.mark.parametrize(("points", "unit", "words"), [
    (0.8, True, "eight tenths of a point"), (1.3, True, "one and three tenths points"), (1.0, True, "one point"),
    (0.1, True, "a tenth of a point"), (0.04, True, "less than a tenth of a point"), (2.96, False, "three"),
    (12.15, False, "twelve and two tenths"),
])
def test_tenths_in_words(points: float, unit: bool, words: str) -> None:
    assert tenths(points, unit) == words


def test_two_copies_news_add_up_and_a_year_is_kept() -> None:
    file, mine = Progress(), Progress(last_match=("Where your points went.",))
    file.add(DealCost(TODAY, 1.0, 0.5))
    mine.add(DealCost(TODAY, 2.0, None))
    both = file.plus(mine)
    assert (both.days[TODAY]["lay_away"].deals, both.days[TODAY]["lay_away"].points) == (2, 3.0)
    assert (both.days[TODAY]["play"].deals, both.last_match) == (1, ("Where your points went.",))
    assert file.days[TODAY]["lay_away"].deals == 1  # the file's own figures are not changed by the merge
    both.add(DealCost(TODAY - timedelta(days=KEPT_DAYS), 1.0, 1.0))
    assert sorted(both.recent(TODAY).days) == [TODAY]
    assert Progress.from_json(json.loads(json.dumps(both.to_json()))) == both


HOSTILE: dict[str, dict[str, Any]] = {
    "days a list": {"days": [1]},
    "a day not a date": {"days": {"yesterday!": {"lay_away": [1, 1.0], "play": [0, 0]}}},
    "a day of 31 February": {"days": {"2026-02-31": {"lay_away": [1, 1.0], "play": [0, 0]}}},
    "a kind missing": {"days": {"2026-11-27": {"lay_away": [1, 1.0]}}},
    "a kind that does not exist": {"days": {"2026-11-27": {"lay_away": [1, 1.0], "play": [0, 0], "x": [0, 0]}}},
    "deals true": {"days": {"2026-11-27": {"lay_away": [True, 1.0], "play": [0, 0]}}},
    "deals -1": {"days": {"2026-11-27": {"lay_away": [-1, 0.0], "play": [0, 0]}}},
    "deals 10**30": {"days": {"2026-11-27": {"lay_away": [10**30, 1.0], "play": [0, 0]}}},
    "points -1": {"days": {"2026-11-27": {"lay_away": [1, -1.0], "play": [0, 0]}}},
    "points as text": {"days": {"2026-11-27": {"lay_away": [1, "lots"], "play": [0, 0]}}},
    "points beyond any deal": {"days": {"2026-11-27": {"lay_away": [1, 201.0], "play": [0, 0]}}},
    "points for no deal": {"days": {"2026-11-27": {"lay_away": [0, 0.5], "play": [0, 0]}}},
    "a tally of three": {"days": {"2026-11-27": {"lay_away": [1, 1.0, 1], "play": [0, 0]}}},
    "too many days": {"days": {(date(2000, 1, 1) + timedelta(days=n)).isoformat(): {
        "lay_away": [0, 0], "play": [0, 0]} for n in range(4 * KEPT_DAYS + 1)}},
    "a review line not text": {"last_match": [1]},
    "a review line empty": {"last_match": [""]},
    "a review line with an escape": {"last_match": ["\u001b[2JWhere your points went."]},
    "a review line with a soft hyphen": {"last_match": ["Where your points\u00ad went."]},
    "a review line too long": {"last_match": ["a" * 4001]},
    "a review of a thousand lines": {"last_match": ["Where your points went."] * 1000},
}


@pytest.mark.parametrize("form", list(HOSTILE))
def test_a_malformed_or_impossible_record_is_refused(form: str) -> None:
    with pytest.raises((ValueError, TypeError)):
        Progress.from_json(HOSTILE[form])


# ------------------------------------------------------------------ the file
def _good(folder: Path) -> bytes:
    book = ProgressBook(lambda line: None, folder / PROGRESS_FILE, today=lambda: TODAY)
    book.add(DealCost(TODAY, 0.8, 0.3), last_match=("Where your points went this match.",))
    return (folder / PROGRESS_FILE).read_bytes()


def test_the_figures_are_kept_in_a_real_file_and_two_copies_add_up(tmp_path: Path) -> None:
    said: list[str] = []
    first = ProgressBook(said.append, tmp_path / PROGRESS_FILE, today=lambda: TODAY)
    second = ProgressBook(said.append, tmp_path / PROGRESS_FILE, today=lambda: TODAY)
    first.add(DealCost(TODAY, 0.5, 0.25))
    second.add(DealCost(TODAY, 1.1, 0.35))  # another copy of audiocrib: it reads the file again and adds its own
    first.add(last_match=("Where your points went this match.",))
    again = ProgressBook(said.append, tmp_path / PROGRESS_FILE, today=lambda: TODAY)
    assert again.words() == ["Your lay-aways cost eight tenths of a point a deal this week, over two deals.",
                             "Your plays cost three tenths of a point a deal this week, over two deals."]
    assert again.progress.last_match == ("Where your points went this match.",)
    assert said == []


def test_news_that_cannot_be_written_is_said_once_and_written_with_the_next_deal(tmp_path: Path) -> None:
    said: list[str] = []
    blocked = tmp_path / f"{PROGRESS_FILE}.partial"
    blocked.mkdir()  # the new copy cannot be made: a folder stands in its place
    (blocked / "inside").write_text("kept")
    book = ProgressBook(said.append, tmp_path / PROGRESS_FILE, today=lambda: TODAY)
    book.add(DealCost(TODAY, 1.0, 1.0))
    book.add(DealCost(TODAY, 1.0, 1.0))
    assert len(said) == 1 and said[0].startswith("Your progress figures cannot be saved (")
    assert book.progress.days[TODAY]["lay_away"].deals == 2  # kept while audiocrib runs
    (blocked / "inside").unlink()
    blocked.rmdir()
    book.add(DealCost(TODAY, 1.0, 1.0))
    kept = json.loads((tmp_path / PROGRESS_FILE).read_text())
    assert kept["days"][TODAY.isoformat()]["lay_away"] == [3, 3.0]  # nothing was lost


def test_a_file_damaged_while_audiocrib_runs_is_set_aside_with_one_sentence_when_next_written(tmp_path: Path) -> None:
    said: list[str] = []
    book = ProgressBook(said.append, tmp_path / PROGRESS_FILE, today=lambda: TODAY)
    book.add(DealCost(TODAY, 1.0, 1.0))
    (tmp_path / PROGRESS_FILE).write_bytes(b'{"version": 1, "days": {"2026-11-27": {"lay_away": [1, 1e9]')
    book.add(DealCost(TODAY, 0.5, 0.5))
    assert said == ["Your progress figures file is cut short, so they start afresh; the file is kept aside as "
                    "progress.json.damaged."]
    assert (tmp_path / f"{PROGRESS_FILE}.damaged").read_bytes().endswith(b"[1, 1e9]")
    kept = json.loads((tmp_path / PROGRESS_FILE).read_text())
    assert kept["days"][TODAY.isoformat()]["lay_away"] == [1, 0.5]  # this deal, written afresh


SPECIFIC = {
    "deals 10**30": lambda good: _edit(good, ("days", TODAY.isoformat(), "lay_away", 0), 10**30),
    "deals of 5,000 digits": lambda good: _edit(good, ("days", TODAY.isoformat(), "lay_away", 0), f"@{BIG}@"),
    "points NaN": lambda good: _edit(good, ("days", TODAY.isoformat(), "play", 1), "@NaN@"),
    "points beyond any deal": lambda good: _edit(good, ("days", TODAY.isoformat(), "play", 1), 1e6),
    "a day that is no day": lambda good: _edit(good, ("days",), {"2026-13-45": {"lay_away": [0, 0], "play": [0, 0]}}),
    "a review line with an escape": lambda good: _edit(good, ("last_match", 0), "\u001b[2J"),
}


@pytest.mark.parametrize("form", [*COMMON, *SPECIFIC, *PLACED])
def test_a_hostile_progress_file_is_set_aside_with_one_sentence_and_not_lost(form: str, tmp_path: Path) -> None:
    good = _good(tmp_path)
    path = tmp_path / PROGRESS_FILE
    path.unlink()
    bad: bytes | None = None
    if form in PLACED:
        from tests.test_file_fuzz import _place
        _place(path, form, good)
    else:
        bad = {**COMMON, **SPECIFIC}[form](good)
        assert bad != good
        path.write_bytes(bad)
    session, speaker = _start(tmp_path)
    reason = REASON.get(form, r"(is [^,;]+|is not in audiocrib's format)")
    sentence = (rf"Your progress figures file {reason}[^.;]*, so they start afresh; the file is kept aside as "
                rf"{re.escape(PROGRESS_FILE)}\.damaged\.")
    assert re.fullmatch(sentence, speaker.said[1]), speaker.said[1:3]
    assert speaker.said[2] == "Main menu: New game. 1 of 8."  # one sentence, then the menu
    assert not os.path.lexists(path)
    if bad is not None:
        assert (tmp_path / f"{PROGRESS_FILE}.damaged").read_bytes() == bad  # kept as it was, never deleted
    session.close()
