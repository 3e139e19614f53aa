"""Deals from a seed in tests, so that a failing test's games can be dealt again.

A real game deals from its kozel-fair/1 seeds, the server's drawn from the system's
randomness (``games.play.seeds``); a match without seeds from ``deal_random``.  In the
tests every server seed and every client seed the server makes, every deal of a match
without seeds, and every bot's tie-break, come instead from one seed per test: drawn at random, or taken from ``KOZEL_TEST_SEED``; a failing
test shows it in its report (tests/conftest.py), and

    KOZEL_TEST_SEED=<seed> .venv/bin/python -m pytest tests/path::test_name

deals its games again.  A server process the test starts (tests/daphne_server.py)
deals from the same seed through ``tests/seeded_server.py``: test code, run by the
tests only, so the site itself never takes a seed from its environment.
"""

from __future__ import annotations

import os
import random
import secrets

SEED_VARIABLE = "KOZEL_TEST_SEED"


def test_seed() -> int:
    """KOZEL_TEST_SEED if it is set, else a new seed."""
    given = os.environ.get(SEED_VARIABLE, "").strip()
    return int(given) if given else secrets.randbelow(2**32)


def seed_deals(seed: int, stream: str = "tests", setattr=setattr) -> None:
    """Deal from ``seed`` from now on in this process, and break bots' ties from it.

    ``stream`` tells processes apart: a server started by the test deals rounds of a
    game the test process dealt first, and should not deal them the same tiles again.
    ``setattr`` is monkeypatch's in a test (undone after it)."""
    from games.play import bots, seeds, service as services

    deals = deal_generator(seed, stream)
    setattr(services, "deal_random", lambda: deals)
    made = seed_generator(seed, stream)
    setattr(seeds, "new_server_seed", lambda: made.randbytes(32))
    setattr(seeds, "new_client_seed", lambda: made.randbytes(16).hex())
    setattr(bots, "_RANDOM", random.Random(f"{seed}:{stream}:bots"))


def deal_generator(seed: int, stream: str) -> random.Random:
    return random.Random(f"{seed}:{stream}:deals")


def seed_generator(seed: int, stream: str) -> random.Random:
    """Where the test's server and client seeds come from (kozel-fair/1)."""
    return random.Random(f"{seed}:{stream}:fair-seeds")


def server_stream(program: str) -> str:
    """The stream of a server process started as ``program`` (tests/seeded_server.py)."""
    return f"server:{program}"


def report_line(seed: int) -> str:
    return f"deal seed: {seed} ({SEED_VARIABLE}={seed} to repeat)"
