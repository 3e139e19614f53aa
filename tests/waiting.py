"""Waiting in tests for a condition, with a deadline, rather than sleeping a guess.

A test that sleeps before it asserts fails on a slow machine and wastes time on a fast
one.  Where a test proves that something does NOT happen, it waits for something that
must come after it (a later answer), then asserts the absence.
"""

from __future__ import annotations

import asyncio
import inspect
import time


def wait_for(predicate, seconds: float = 20.0, every: float = 0.05) -> bool:
    """Whether ``predicate()`` came true within ``seconds``, asked every ``every`` s."""
    deadline = time.monotonic() + seconds
    while True:
        if predicate():
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(every)


async def wait_until(predicate, seconds: float = 20.0, every: float = 0.01) -> bool:
    """``wait_for`` on the event loop: ``predicate()`` may be a coroutine function; the
    loop runs meanwhile."""
    deadline = time.monotonic() + seconds
    while True:
        answer = predicate()
        if inspect.isawaitable(answer):
            answer = await answer
        if answer:
            return True
        if time.monotonic() >= deadline:
            return False
        await asyncio.sleep(every)
