"""What every test module shares: the soak's size, and the slow tests first.

The soak and the kill tests (`tests.test_soak`, `tests.test_kill`, `tests.test_serve_kills`) each have a full size
(10,000 tables, 51 kills, 30 kills), which ``benchmarks/bench_soak.py`` runs. The suite runs a share of each, the
one figure ``AUDIOCRIB_SOAK_SCALE`` (`SCALE_VARIABLE`; `DEFAULT_SCALE` when unset, 1 for the full size), never
below each test's own least size, at which every one of its checks still applies:

    >>> scaled(10_000, least=1_000, scale=0.25), scaled(51, least=15, scale=0.25), scaled(30, least=10, scale=1.0)
    (2500, 15, 30)

Under pytest-xdist (``-n 4 --dist loadgroup``, pyproject.toml) each test goes to the next free worker in the
order collected, so the tests marked ``slow`` are put first: the longest start at once, not at the end beside an
idle worker.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest

SCALE_VARIABLE = "AUDIOCRIB_SOAK_SCALE"
DEFAULT_SCALE = 0.25
"""The share of each soak's and kill test's full size the suite runs."""


def soak_scale() -> float:
    """The share of their full size the soak and kill tests run: ``AUDIOCRIB_SOAK_SCALE``, else `DEFAULT_SCALE`."""
    text = os.environ.get(SCALE_VARIABLE, "")
    if not text:
        return DEFAULT_SCALE
    try:
        scale = float(text)
    except ValueError:
        raise pytest.UsageError(f"{SCALE_VARIABLE} takes a share from 0 to 1, not {text!r}.") from None
    if not 0 < scale <= 1:
        raise pytest.UsageError(f"{SCALE_VARIABLE} takes a share from 0 to 1, not {text!r}.")
    return scale


def scaled(full: int, least: int, scale: float) -> int:
    """``scale`` of ``full``, rounded, but never less than ``least`` (nor more than ``full``)."""
    return min(full, max(least, round(full * scale)))


@pytest.fixture(scope="session")
def soak_size() -> Callable[[int, int], int]:
    """``soak_size(full, least)``: how many tables or kills a soak or kill test runs here (`scaled`)."""
    scale = soak_scale()
    return lambda full, least: scaled(full, least, scale)


LOST_GROUPS = pytest.StashKey[set[str]]()
"""The tests marked ``xdist_group`` that pytest-xdist did not group on this worker."""


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The tests marked ``slow`` first, each kept in its place among them; the rest in their order after. On a
    pytest-xdist worker under ``--dist loadgroup``, note each test marked ``xdist_group`` that has lost its group
    (xdist groups by a suffix it adds to the test's id, in this same hook): it fails (`pytest_runtest_setup`)."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
    if getattr(config.option, "loadgroup", False):
        config.stash[LOST_GROUPS] = {
            item.nodeid for item in items
            if item.get_closest_marker("xdist_group") is not None and "@" not in item.nodeid.rpartition("]")[2]}


def pytest_runtest_setup(item: pytest.Item) -> None:
    """A test whose group was lost fails, rather than run beside the others of its group on another worker."""
    if item.nodeid in item.config.stash.get(LOST_GROUPS, set()):
        pytest.fail(f"--dist loadgroup did not group this test (pytest {pytest.__version__}, pytest-xdist issue "
                    "1386): its xdist_group would run on several workers at once. See pyproject.toml's test extra.",
                    pytrace=False)
