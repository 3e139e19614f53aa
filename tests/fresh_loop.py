"""``asyncio.run`` for a test that runs many loops in turn (a property test's examples)."""

import asyncio
import gc
import os


def run(coroutine):
    """Run ``coroutine`` on a loop of its own, then collect the garbage on PostgreSQL: the
    connections of the loop's database threads, which end with it, wait in cycles for
    the collector, and forty examples' worth came near ``max_connections``
    (tests/conftest.py does the same after each test)."""
    try:
        return asyncio.run(coroutine)
    finally:
        if os.environ.get("DATABASE_URL"):
            gc.collect()
